package dev.derive.infra.local.template;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Replaces resource properties of a read {@link Template} before it runs: {@code
 * LogicalId.Property.Sub.Key=value}, e.g. {@code ImageQueue.VisibilityTimeout=20} or {@code
 * ImageWorkerFunction.Environment.Variables.MAX_IMAGE_PIXELS=1000}. It lets a test run the real
 * template with other timers than the deployed ones (the template's numbers are not all parameters)
 * without a drifting copy of it.
 *
 * <p>An override replaces a property the resource itself sets (not one it inherits from {@code
 * Globals}), and only that: the resource and every key of the path must exist, and the value it
 * replaces must be a scalar or an intrinsic, never a mapping or a list. So a typo, or a template
 * that no longer has the property, fails the start with a {@link TemplateException} naming it
 * instead of silently running the template's own value. The value is a string, as a parameter value
 * is; the property's readers parse it as they parse the template's scalars.
 */
public final class PropertyOverrides {
  private PropertyOverrides() {}

  /**
   * {@code template} with {@code overrides} applied; the template itself is not changed.
   *
   * @param overrides values by {@code LogicalId.Property[.Key...]}
   * @throws TemplateException if an override names no resource, no existing property, or a property
   *     that is a mapping or a list
   */
  public static Template apply(Template template, Map<String, String> overrides) {
    if (overrides.isEmpty()) {
      return template;
    }
    Map<String, Template.Resource> resources = new LinkedHashMap<>(template.resources());
    overrides.forEach(
        (path, value) -> {
          List<String> keys = List.of(path.split("\\.", -1));
          if (keys.size() < 2 || keys.stream().anyMatch(String::isEmpty)) {
            throw new TemplateException(
                "property override " + path + " must be LogicalId.Property[.Key...]=value");
          }
          Template.Resource resource = resources.get(keys.get(0));
          if (resource == null) {
            throw new TemplateException(
                "property override " + path + ": no resource " + keys.get(0) + " in the template");
          }
          Map<String, Object> properties =
              replaced(resource.properties(), keys.subList(1, keys.size()), value, path);
          resources.put(
              resource.logicalId(),
              new Template.Resource(
                  resource.logicalId(),
                  resource.type(),
                  properties,
                  resource.dependsOn(),
                  resource.condition(),
                  resource.metadata()));
        });
    return new Template(
        template.directory(),
        template.parameters(),
        template.conditions(),
        template.globalsFunction(),
        resources);
  }

  /** A copy of {@code map} with the value at {@code keys} replaced by {@code value}. */
  private static Map<String, Object> replaced(
      Map<String, Object> map, List<String> keys, String value, String path) {
    String key = keys.get(0);
    if (!map.containsKey(key)) {
      throw new TemplateException(
          "property override "
              + path
              + ": the template sets no "
              + key
              + " there (an override replaces a property, it never adds one)");
    }
    Map<String, Object> copy = new LinkedHashMap<>(map);
    Object current = map.get(key);
    if (keys.size() == 1) {
      if (current instanceof Map<?, ?> || current instanceof List<?>) {
        throw new TemplateException(
            "property override " + path + ": " + key + " is not a scalar property");
      }
      copy.put(key, value);
      return copy;
    }
    if (!(current instanceof Map<?, ?>)) {
      throw new TemplateException(
          "property override " + path + ": " + key + " is not a mapping of properties");
    }
    copy.put(
        key,
        replaced(TemplateReader.asMap(current, path), keys.subList(1, keys.size()), value, path));
    return copy;
  }
}
