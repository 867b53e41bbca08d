package dev.derive.infra.local.template;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * A CloudFormation/SAM template as read from YAML, with intrinsic functions kept as {@link
 * Intrinsic} values.
 *
 * @param directory the folder the template lives in; relative {@code CodeUri}s resolve against it
 * @param parameters the {@code Parameters} section by name
 * @param conditions the {@code Conditions} section by name, unevaluated (empty if absent)
 * @param globalsFunction the {@code Globals.Function} section (empty if absent)
 * @param resources the {@code Resources} section by logical id, in template order
 */
public record Template(
    Path directory,
    Map<String, Parameter> parameters,
    Map<String, Object> conditions,
    Map<String, Object> globalsFunction,
    Map<String, Resource> resources) {

  /**
   * A template parameter.
   *
   * @param defaultValue its {@code Default}, or {@code null} if it has none
   * @param allowedValues its {@code AllowedValues} (empty if it has none)
   */
  public record Parameter(
      String name, String type, String defaultValue, List<String> allowedValues) {
    public Parameter {
      allowedValues = List.copyOf(allowedValues);
    }
  }

  /**
   * One entry of {@code Resources}.
   *
   * @param properties the {@code Properties} map (empty if absent), unevaluated
   * @param dependsOn the explicit {@code DependsOn} logical ids
   * @param condition the resource's {@code Condition} attribute, or {@code null}
   * @param metadata the {@code Metadata} attribute (empty if absent), unevaluated: SAM's {@code
   *     DockerContext} and {@code Dockerfile} of a container-image function
   */
  public record Resource(
      String logicalId,
      String type,
      Map<String, Object> properties,
      List<String> dependsOn,
      String condition,
      Map<String, Object> metadata) {

    /**
     * Whether the stack has this resource: it has no {@code Condition}, or its condition holds.
     *
     * @throws TemplateException if the condition cannot be evaluated
     */
    public boolean isActive(References references) {
      return condition == null || references.condition(condition);
    }
  }

  /** The resources of {@code type}, in template order. */
  public List<Resource> resourcesOfType(String type) {
    return resources.values().stream().filter(r -> r.type().equals(type)).toList();
  }

  /**
   * The resource with {@code logicalId}.
   *
   * @throws TemplateException if there is none
   */
  public Resource resource(String logicalId) {
    Resource resource = resources.get(logicalId);
    if (resource == null) {
      throw new TemplateException("no resource " + logicalId + " in the template");
    }
    return resource;
  }
}
