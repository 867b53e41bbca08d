package dev.derive.infra.local.template;

import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.error.YAMLException;

/**
 * Reads a CloudFormation/SAM template from YAML. The intrinsics of {@link Intrinsic} ({@code Ref},
 * {@code Fn::GetAtt}, {@code Fn::Sub}, {@code Fn::If}, {@code Fn::Join}, {@code Fn::Select}, {@code
 * Fn::Split} and the condition functions), as short tags ({@code !Ref}) or long forms ({@code
 * Ref:}), become {@link Intrinsic} values; any other intrinsic (short tag or {@code Fn::} key),
 * anywhere in the template, is refused with an {@link UnsupportedIntrinsicException} naming it. The
 * {@code Conditions} section and resources' {@code Condition} attributes are kept for evaluation
 * against parameter values ({@link References#condition}).
 */
public final class TemplateReader {
  private TemplateReader() {}

  /**
   * Reads {@code file}.
   *
   * @throws TemplateException if the file cannot be read, is not a template, or uses an unsupported
   *     intrinsic function
   */
  public static Template read(Path file) {
    Object root;
    try (Reader reader = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
      root = new Yaml(IntrinsicSyntax.constructor()).load(reader);
    } catch (IOException e) {
      throw new TemplateException("cannot read template " + file, e);
    } catch (YAMLException e) {
      if (e.getCause() instanceof TemplateException templateError) {
        throw templateError;
      }
      throw new TemplateException("invalid template " + file + ": " + e.getMessage(), e);
    }
    if (!(root instanceof Map<?, ?> top)) {
      throw new TemplateException("template " + file + " is not a YAML mapping");
    }
    Map<String, Object> document =
        asMap(IntrinsicSyntax.convertLongForms(top, ""), file.toString());
    Path directory = file.toAbsolutePath().getParent();
    return new Template(
        directory,
        parameters(document),
        asMap(document.getOrDefault("Conditions", Map.of()), "Conditions"),
        globalsFunction(document),
        resources(document, file));
  }

  private static Map<String, Template.Parameter> parameters(Map<String, Object> document) {
    Map<String, Template.Parameter> parameters = new LinkedHashMap<>();
    Map<String, Object> section =
        asMap(document.getOrDefault("Parameters", Map.of()), "Parameters");
    for (Map.Entry<String, Object> entry : section.entrySet()) {
      Map<String, Object> definition = asMap(entry.getValue(), "Parameters." + entry.getKey());
      Object defaultValue = definition.get("Default");
      Object allowed = definition.get("AllowedValues");
      parameters.put(
          entry.getKey(),
          new Template.Parameter(
              entry.getKey(),
              String.valueOf(definition.getOrDefault("Type", "String")),
              defaultValue == null ? null : String.valueOf(defaultValue),
              allowed instanceof List<?> values
                  ? values.stream().map(String::valueOf).toList()
                  : List.of()));
    }
    return parameters;
  }

  private static Map<String, Object> globalsFunction(Map<String, Object> document) {
    Map<String, Object> globals = asMap(document.getOrDefault("Globals", Map.of()), "Globals");
    return asMap(globals.getOrDefault("Function", Map.of()), "Globals.Function");
  }

  private static Map<String, Template.Resource> resources(Map<String, Object> document, Path file) {
    Object section = document.get("Resources");
    if (section == null) {
      throw new TemplateException("template " + file + " has no Resources section");
    }
    Map<String, Template.Resource> resources = new LinkedHashMap<>();
    for (Map.Entry<String, Object> entry : asMap(section, "Resources").entrySet()) {
      String id = entry.getKey();
      Map<String, Object> definition = asMap(entry.getValue(), "Resources." + id);
      Object condition = definition.get("Condition");
      if (condition != null && !(condition instanceof String)) {
        throw new TemplateException("resource " + id + " has a Condition that is not a name");
      }
      Object type = definition.get("Type");
      if (!(type instanceof String typeName)) {
        throw new TemplateException("resource " + id + " has no Type");
      }
      resources.put(
          id,
          new Template.Resource(
              id,
              typeName,
              asMap(definition.getOrDefault("Properties", Map.of()), id + ".Properties"),
              dependsOn(definition.get("DependsOn")),
              (String) condition,
              asMap(definition.get("Metadata"), id + ".Metadata")));
    }
    return resources;
  }

  private static List<String> dependsOn(Object value) {
    if (value == null) {
      return List.of();
    }
    if (value instanceof List<?> list) {
      return list.stream().map(String::valueOf).toList();
    }
    return List.of(String.valueOf(value));
  }

  @SuppressWarnings("unchecked")
  static Map<String, Object> asMap(Object value, String where) {
    if (value == null) {
      return new LinkedHashMap<>();
    }
    if (!(value instanceof Map<?, ?> map)) {
      throw new TemplateException(where + " must be a mapping, got " + value);
    }
    Map<String, Object> copy = new LinkedHashMap<>();
    ((Map<Object, Object>) map).forEach((k, v) -> copy.put(String.valueOf(k), v));
    return copy;
  }
}
