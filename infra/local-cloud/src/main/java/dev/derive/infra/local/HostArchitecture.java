package dev.derive.infra.local;

import dev.derive.infra.local.lambda.FunctionLauncher;
import dev.derive.infra.local.template.FunctionDefinition;
import dev.derive.infra.local.template.Template;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * The instruction set functions run on here: this machine's, whatever the template says. A
 * parameter that chooses it is set to this machine's, and a function declared for another gets a
 * line saying its layers' native code will not load.
 */
final class HostArchitecture {
  private HostArchitecture() {}

  /**
   * The template's parameters as overridden, and each parameter that chooses the instruction set
   * (its {@code AllowedValues} are Lambda's, x86_64 and arm64) and is not overridden set to this
   * machine's: functions run on it here, and a layer's native code must match it (one line says
   * so).
   */
  static Map<String, String> parameters(
      Template template, Map<String, String> overrides, Consumer<String> log) {
    Map<String, String> parameters = new LinkedHashMap<>(overrides);
    String host = FunctionLauncher.hostArchitecture();
    for (Template.Parameter parameter : template.parameters().values()) {
      List<String> allowed = parameter.allowedValues();
      boolean architecture =
          !allowed.isEmpty()
              && allowed.contains(host)
              && allowed.stream().allMatch(v -> v.equals("x86_64") || v.equals("arm64"));
      if (architecture && !parameters.containsKey(parameter.name())) {
        parameters.put(parameter.name(), host);
        if (!host.equals(parameter.defaultValue())) {
          log.accept(
              "parameter "
                  + parameter.name()
                  + " = "
                  + host
                  + " (this machine's instruction set; the template's default is "
                  + parameter.defaultValue()
                  + ")");
        }
      }
    }
    return parameters;
  }

  /** Says, for each function declared for another instruction set, that it runs as this one's. */
  static void warnAboutOthers(List<FunctionDefinition> functions, Consumer<String> log) {
    String host = FunctionLauncher.hostArchitecture();
    for (FunctionDefinition function : functions) {
      if (!function.architecture().equals(host)) {
        log.accept(
            function.logicalId()
                + ": Architectures is "
                + function.architecture()
                + " but this machine is "
                + host
                + ": it runs as "
                + host
                + " here, and native code in its layers built for "
                + function.architecture()
                + " will not load");
      }
    }
  }
}
