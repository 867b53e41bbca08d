package dev.derive.worker.runtime;

import dev.derive.protocol.capability.CapabilityDeclarations;
import dev.derive.protocol.capability.CapabilityDescriptor;

/** Declarations of the runtime tests' own capabilities, which no worker module declares. */
public final class TestDeclarations {
  private TestDeclarations() {}

  /**
   * A capability {@code name} reading and writing plain text with one optional operation, {@code
   * shout}, whose {@code times} is 1 to 3.
   */
  public static CapabilityDescriptor plainText(String name) {
    return CapabilityDeclarations.parse(
        """
        {"name": "%s", "description": "A test capability.",
         "timeBudget": {"timeoutSeconds": 60, "leaseSeconds": 1200},
         "conversions": [{"sources": ["text/plain"], "targets": ["text/plain"], "cost": 1,
                          "operations": ["shout"]}],
         "operations": [{"name": "shout", "description": "Louder.", "optional": true,
                         "parameters": [{"name": "times", "type": "integer", "minimum": 1,
                                         "maximum": 3}]}]}
        """
            .formatted(name),
        "test declaration " + name);
  }

  /**
   * A capability {@code name} reading plain text and writing JSON with one operation, {@code
   * count}, that declares its output the step's summary.
   */
  public static CapabilityDescriptor summarising(String name) {
    return CapabilityDeclarations.parse(
        """
        {"name": "%s", "description": "A test capability.",
         "timeBudget": {"timeoutSeconds": 60, "leaseSeconds": 1200},
         "conversions": [{"sources": ["text/plain"], "targets": ["application/json"], "cost": 1,
                          "operations": ["count"]}],
         "operations": [{"name": "count", "description": "Counts.", "summary": true}]}
        """
            .formatted(name),
        "test declaration " + name);
  }

  /**
   * A capability {@code name} reading and writing plain text with one operation, {@code stamp},
   * whose {@code mark} names another object of the source bucket.
   */
  public static CapabilityDescriptor stamping(String name) {
    return CapabilityDeclarations.parse(
        """
        {"name": "%s", "description": "A test capability.",
         "timeBudget": {"timeoutSeconds": 60, "leaseSeconds": 1200},
         "conversions": [{"sources": ["text/plain"], "targets": ["text/plain"], "cost": 1,
                          "operations": ["stamp"]}],
         "operations": [{"name": "stamp", "description": "Stamps.",
                         "parameters": [{"name": "mark", "type": "string", "required": true,
                                         "sourceObject": true}]}]}
        """
            .formatted(name),
        "test declaration " + name);
  }

  /**
   * A capability with one of each kind of declaration the runtime checks: bounds, a step, allowed
   * values, a pattern, booleans, a required parameter, parameter groups, a {@code mediaType}
   * parameter and two conversions of several operations in a declared order.
   */
  public static CapabilityDescriptor everyKind() {
    return CapabilityDeclarations.parse(
        """
        {"name": "every-kind", "description": "Every kind of declaration.",
         "timeBudget": {"timeoutSeconds": 60, "leaseSeconds": 1200},
         "limits": {"maxSide": 500},
         "conversions": [{"sources": ["text/plain"], "targets": ["text/plain", "text/csv"],
                          "cost": 1, "operations": ["cut", "turn", "write"]}],
         "operations": [
           {"name": "cut", "description": "Cut.", "optional": true,
            "parameters": [
              {"name": "left", "type": "integer", "minimum": 0, "maximum": "maxSide"},
              {"name": "top", "type": "integer", "minimum": 0, "maximum": "maxSide"},
              {"name": "side", "type": "integer", "minimum": 1, "maximum": "maxSide",
               "required": true},
              {"name": "anchor", "type": "string", "allowedValues": ["north", "south"]}],
            "groups": [{"rule": "allOrNone", "names": ["left", "top"]},
                       {"rule": "atMostOne", "names": ["left", "anchor"]}]},
           {"name": "turn", "description": "Turn.", "optional": true,
            "parameters": [
              {"name": "angle", "type": "integer", "minimum": 90, "maximum": 270,
               "multipleOf": 90},
              {"name": "colour", "type": "string", "pattern": "#[0-9a-f]{6}",
               "examples": ["#00ff7f"]},
              {"name": "mirror", "type": "boolean", "defaultValue": false}],
            "groups": [{"rule": "atLeastOne", "names": ["angle", "colour"]}]},
           {"name": "write", "description": "Write.",
            "parameters": [
              {"name": "mediaType", "type": "string",
               "allowedValues": ["text/plain", "text/csv"], "defaultValue": "text/plain"},
              {"name": "width", "type": "integer", "minimum": 1, "maximum": 80,
               "defaultValue": 72, "outputDefaults": {"text/plain": 60}}]}
         ]}
        """,
        "test declaration every-kind");
  }
}
