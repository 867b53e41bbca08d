package dev.derive.protocol.capability;

import com.fasterxml.jackson.databind.JsonNode;
import dev.derive.protocol.MediaTypes;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.function.BiConsumer;

/**
 * Typed members of a JSON document, each named by its JSON pointer ({@code /operations/0/name}) in
 * the {@link IllegalArgumentException} thrown when it is missing or of the wrong type: the
 * primitives {@link DeclarationReader} reads a capability declaration with.
 */
final class JsonMembers {
  private JsonMembers() {}

  static void object(JsonNode node, String at, Set<String> members) {
    if (!node.isObject()) {
      throw new IllegalArgumentException(where(at) + ": must be an object");
    }
    if (members != null) {
      for (String name : (Iterable<String>) node::fieldNames) {
        if (!members.contains(name)) {
          throw new IllegalArgumentException(at + "/" + name + ": unknown member");
        }
      }
    }
  }

  static void each(JsonNode parent, String at, BiConsumer<JsonNode, String> each) {
    JsonNode array = parent.at(at.substring(at.lastIndexOf('/')));
    if (!array.isArray() || array.isEmpty()) {
      throw new IllegalArgumentException(at + ": must be a non-empty array");
    }
    for (int i = 0; i < array.size(); i++) {
      each.accept(array.get(i), at + "/" + i);
    }
  }

  static String text(JsonNode parent, String at) {
    JsonNode value = parent.at(at.substring(at.lastIndexOf('/')));
    if (!value.isTextual() || value.textValue().isBlank()) {
      throw new IllegalArgumentException(at + ": must be a non-empty string");
    }
    return value.textValue();
  }

  static List<String> texts(JsonNode parent, String at) {
    JsonNode array = parent.at(at.substring(at.lastIndexOf('/')));
    if (!array.isArray()) {
      throw new IllegalArgumentException(at + ": must be an array of strings");
    }
    List<String> values = new ArrayList<>();
    for (JsonNode value : array) {
      if (!value.isTextual() || value.textValue().isBlank()) {
        throw new IllegalArgumentException(at + ": must be an array of strings");
      }
      values.add(value.textValue());
    }
    return values;
  }

  static int integer(JsonNode value, String at) {
    if (!value.isIntegralNumber() || !value.canConvertToInt()) {
      throw new IllegalArgumentException(at + ": must be an integer");
    }
    return value.intValue();
  }

  static boolean bool(JsonNode value, String at) {
    if (!value.isBoolean()) {
      throw new IllegalArgumentException(at + ": must be true or false");
    }
    return value.booleanValue();
  }

  static Object scalar(JsonNode value, String at) {
    if (value.isIntegralNumber() && value.canConvertToInt()) {
      return value.intValue();
    }
    if (value.isBoolean()) {
      return value.booleanValue();
    }
    if (value.isTextual()) {
      return value.textValue();
    }
    throw new IllegalArgumentException(at + ": must be an integer, a boolean or a string");
  }

  static String mediaType(String value, String at) {
    String essence;
    try {
      essence = MediaTypes.essence(value);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(at + ": " + e.getMessage());
    }
    if (!essence.equals(value)) {
      throw new IllegalArgumentException(at + ": write the media type as " + essence);
    }
    return value;
  }

  private static String where(String at) {
    return at.isEmpty() ? "the declaration" : at;
  }
}
