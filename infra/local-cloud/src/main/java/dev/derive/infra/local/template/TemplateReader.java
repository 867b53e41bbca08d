package dev.derive.infra.local.template;

import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.AbstractConstruct;
import org.yaml.snakeyaml.constructor.SafeConstructor;
import org.yaml.snakeyaml.error.YAMLException;
import org.yaml.snakeyaml.nodes.MappingNode;
import org.yaml.snakeyaml.nodes.Node;
import org.yaml.snakeyaml.nodes.ScalarNode;
import org.yaml.snakeyaml.nodes.SequenceNode;
import org.yaml.snakeyaml.nodes.Tag;

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
      root = new Yaml(new IntrinsicConstructor()).load(reader);
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
    Map<String, Object> document = asMap(convertLongForms(top, ""), file.toString());
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
              (String) condition));
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

  /** Replaces single-key maps such as {@code {Ref: x}} or {@code {Fn::If: [..]}}. */
  private static Object convertLongForms(Object value, String path) {
    if (value instanceof Map<?, ?> map) {
      if (map.size() == 1) {
        Map.Entry<?, ?> only = map.entrySet().iterator().next();
        String key = String.valueOf(only.getKey());
        boolean conditionName = key.equals("Condition") && only.getValue() instanceof String;
        if (key.equals("Ref") || key.startsWith("Fn::") || conditionName) {
          Object argument = convertLongForms(only.getValue(), path + "." + key);
          return intrinsic(key, argument, path);
        }
      }
      Map<String, Object> converted = new LinkedHashMap<>();
      for (Map.Entry<?, ?> entry : map.entrySet()) {
        String key = String.valueOf(entry.getKey());
        converted.put(
            key, convertLongForms(entry.getValue(), path.isEmpty() ? key : path + "." + key));
      }
      return converted;
    }
    if (value instanceof List<?> list) {
      List<Object> converted = new ArrayList<>(list.size());
      for (int i = 0; i < list.size(); i++) {
        converted.add(convertLongForms(list.get(i), path + "[" + i + "]"));
      }
      return converted;
    }
    return value;
  }

  /**
   * The intrinsic {@code function} (long name) applied to {@code argument}.
   *
   * @throws UnsupportedIntrinsicException if the local cloud does not evaluate {@code function}
   * @throws TemplateException if the argument has the wrong shape
   */
  static Intrinsic intrinsic(String function, Object argument, String where) {
    return switch (function) {
      case "Ref" -> new Intrinsic.Ref(scalar(argument, "Ref", where));
      case "Fn::GetAtt" -> getAtt(argument, where);
      case "Fn::Sub" -> sub(argument, where);
      case "Condition" -> new Intrinsic.ConditionRef(scalar(argument, "Condition", where));
      case "Fn::If" -> {
        List<?> list = arguments(argument, 3, function, where);
        yield new Intrinsic.If(scalar(list.get(0), function, where), list.get(1), list.get(2));
      }
      case "Fn::Join" -> {
        List<?> list = arguments(argument, 2, function, where);
        yield new Intrinsic.Join(scalar(list.get(0), function, where), list.get(1));
      }
      case "Fn::Select" -> {
        List<?> list = arguments(argument, 2, function, where);
        yield new Intrinsic.Select(list.get(0), list.get(1));
      }
      case "Fn::Split" -> {
        List<?> list = arguments(argument, 2, function, where);
        yield new Intrinsic.Split(scalar(list.get(0), function, where), list.get(1));
      }
      case "Fn::Equals" -> {
        List<?> list = arguments(argument, 2, function, where);
        yield new Intrinsic.Equals(list.get(0), list.get(1));
      }
      case "Fn::Not" -> new Intrinsic.Not(arguments(argument, 1, function, where).get(0));
      case "Fn::And" -> new Intrinsic.And(List.copyOf(conditions(argument, function, where)));
      case "Fn::Or" -> new Intrinsic.Or(List.copyOf(conditions(argument, function, where)));
      default -> throw new UnsupportedIntrinsicException(function, where);
    };
  }

  private static List<?> arguments(Object argument, int count, String function, String where) {
    if (argument instanceof List<?> list && list.size() == count) {
      return list;
    }
    throw new TemplateException(
        function + " at " + where + " needs a list of " + count + " arguments, got " + argument);
  }

  private static List<?> conditions(Object argument, String function, String where) {
    if (argument instanceof List<?> list && list.size() >= 2 && list.size() <= 10) {
      return list;
    }
    throw new TemplateException(
        function + " at " + where + " needs a list of 2 to 10 conditions, got " + argument);
  }

  static Intrinsic.GetAtt getAtt(Object argument, String where) {
    if (argument instanceof String text) {
      int dot = text.indexOf('.');
      if (dot <= 0 || dot == text.length() - 1) {
        throw new TemplateException(
            "Fn::GetAtt at " + where + " needs Resource.Attribute: " + text);
      }
      return new Intrinsic.GetAtt(text.substring(0, dot), text.substring(dot + 1));
    }
    if (argument instanceof List<?> list && list.size() == 2) {
      return new Intrinsic.GetAtt(
          scalar(list.get(0), "Fn::GetAtt", where), scalar(list.get(1), "Fn::GetAtt", where));
    }
    throw new TemplateException("Fn::GetAtt at " + where + " has an invalid argument: " + argument);
  }

  static Intrinsic.Sub sub(Object argument, String where) {
    if (argument instanceof String text) {
      return new Intrinsic.Sub(text, Map.of());
    }
    if (argument instanceof List<?> list
        && list.size() == 2
        && list.get(0) instanceof String text) {
      return new Intrinsic.Sub(text, asMap(list.get(1), "Fn::Sub at " + where));
    }
    throw new TemplateException("Fn::Sub at " + where + " has an invalid argument: " + argument);
  }

  private static String scalar(Object value, String function, String where) {
    if (value instanceof String || value instanceof Number || value instanceof Boolean) {
      return String.valueOf(value);
    }
    throw new TemplateException(function + " at " + where + " needs a plain string, got " + value);
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

  /** SnakeYAML constructor for the CloudFormation short tags. */
  private static final class IntrinsicConstructor extends SafeConstructor {
    IntrinsicConstructor() {
      super(new LoaderOptions());
      yamlConstructors.put(new Tag("!Ref"), new ShortForm("Ref"));
      yamlConstructors.put(new Tag("!Condition"), new ShortForm("Condition"));
      for (String name :
          List.of("GetAtt", "Sub", "If", "Join", "Select", "Split", "Equals", "Not", "And", "Or")) {
        yamlConstructors.put(new Tag("!" + name), new ShortForm("Fn::" + name));
      }
      yamlConstructors.put(null, new Unsupported());
    }

    private Object argument(Node node) {
      if (node instanceof ScalarNode scalarNode) {
        return scalarNode.getValue();
      }
      if (node instanceof SequenceNode sequenceNode) {
        return constructSequence(sequenceNode);
      }
      return constructMapping((MappingNode) node);
    }

    private final class ShortForm extends AbstractConstruct {
      private final String function;

      ShortForm(String function) {
        this.function = function;
      }

      @Override
      public Object construct(Node node) {
        String where = "line " + (node.getStartMark().getLine() + 1);
        return intrinsic(function, convertLongForms(argument(node), where), where);
      }
    }

    private static final class Unsupported extends AbstractConstruct {
      @Override
      public Object construct(Node node) {
        String tag = node.getTag().getValue();
        String name = tag.startsWith("!") ? tag.substring(1) : tag;
        String function = name.equals("Condition") ? name : "Fn::" + name;
        throw new UnsupportedIntrinsicException(
            function, "line " + (node.getStartMark().getLine() + 1) + " (tag " + tag + ")");
      }
    }
  }
}
