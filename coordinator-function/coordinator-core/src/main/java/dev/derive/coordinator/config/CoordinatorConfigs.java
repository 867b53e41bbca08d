package dev.derive.coordinator.config;

import io.smallrye.config.SmallRyeConfig;
import io.smallrye.config.SmallRyeConfigBuilder;
import io.smallrye.config.WithDefault;
import io.smallrye.config.WithName;
import io.smallrye.config.WithParentName;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;
import org.eclipse.microprofile.config.spi.ConfigSource;

/**
 * {@link CoordinatorConfig} outside a Quarkus function (the bench, tools, tests): the same mapping,
 * validation and messages, over a lookup of variable names.
 */
public final class CoordinatorConfigs {
  private CoordinatorConfigs() {}

  /**
   * The settings {@code lookup} (variable name to value) gives; a blank value counts as unset.
   *
   * @throws MissingSettingException naming the variable if a required one is unset or a value is
   *     not of its kind
   */
  public static CoordinatorConfig from(Function<String, Optional<String>> lookup) {
    return config(lookup).getConfigMapping(CoordinatorConfig.class);
  }

  /** The settings {@code lookup} gives and the capabilities they deploy ({@link #from}). */
  public static DeployedCapabilities deployed(Function<String, Optional<String>> lookup) {
    return DeployedCapabilities.load(from(lookup), present(lookup));
  }

  private static SmallRyeConfig config(Function<String, Optional<String>> lookup) {
    Function<String, Optional<String>> present = present(lookup);
    ConfigSource source =
        new ConfigSource() {
          @Override
          public Set<String> getPropertyNames() {
            return Set.of();
          }

          @Override
          public Map<String, String> getProperties() {
            return Map.of();
          }

          @Override
          public String getValue(String name) {
            return present.apply(name).orElse(null);
          }

          @Override
          public String getName() {
            return "settings";
          }
        };
    try {
      return new SmallRyeConfigBuilder()
          .withSources(source)
          .withMapping(CoordinatorConfig.class)
          .withValidateUnknown(false)
          .build();
    } catch (RuntimeException invalid) {
      throw new MissingSettingException(invalid.getMessage());
    }
  }

  /**
   * The variables a coordinator function cannot start without: those of {@link CoordinatorConfig}
   * with neither a default nor an optional value (a deployment's template must define them).
   */
  public static Set<String> requiredVariables() {
    Set<String> names = new TreeSet<>();
    required(CoordinatorConfig.class, names);
    return names;
  }

  private static void required(Class<?> group, Set<String> names) {
    for (Method method : group.getMethods()) {
      if (method.isDefault() || Modifier.isStatic(method.getModifiers())) {
        continue;
      }
      if (method.isAnnotationPresent(WithParentName.class)) {
        required(method.getReturnType(), names);
      } else if (method.isAnnotationPresent(WithName.class)
          && !method.isAnnotationPresent(WithDefault.class)
          && method.getReturnType() != Optional.class) {
        names.add(method.getAnnotation(WithName.class).value());
      }
    }
  }

  /** {@code lookup} with blank values as unset (trimmed), as the functions' config reads them. */
  static Function<String, Optional<String>> present(Function<String, Optional<String>> lookup) {
    return name -> lookup.apply(name).map(String::trim).filter(v -> !v.isEmpty());
  }
}
