package dev.derive.infra.local.template;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.constructor.AbstractConstruct;
import org.yaml.snakeyaml.constructor.SafeConstructor;
import org.yaml.snakeyaml.nodes.MappingNode;
import org.yaml.snakeyaml.nodes.Node;
import org.yaml.snakeyaml.nodes.ScalarNode;
import org.yaml.snakeyaml.nodes.SequenceNode;
import org.yaml.snakeyaml.nodes.Tag;

/**
 * The syntax of CloudFormation's intrinsic functions in a template: short tags ({@code !Ref x}) and
 * long forms ({@code Ref: x}) both become {@link Intrinsic} values, with the argument shapes each
 * function takes checked (CloudFormation's "Intrinsic function reference"); any other intrinsic is
 * refused with an {@link UnsupportedIntrinsicException} naming where it is.
 */
final class IntrinsicSyntax {
  private IntrinsicSyntax() {}

  /** Replaces single-key maps such as {@code {Ref: x}} or {@code {Fn::If: [..]}}. */
  static Object convertLongForms(Object value, String path) {
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
      return new Intrinsic.Sub(text, TemplateReader.asMap(list.get(1), "Fn::Sub at " + where));
    }
    throw new TemplateException("Fn::Sub at " + where + " has an invalid argument: " + argument);
  }

  private static String scalar(Object value, String function, String where) {
    if (value instanceof String || value instanceof Number || value instanceof Boolean) {
      return String.valueOf(value);
    }
    throw new TemplateException(function + " at " + where + " needs a plain string, got " + value);
  }

  /** A SnakeYAML constructor that reads the CloudFormation short tags as {@link Intrinsic}s. */
  static SafeConstructor constructor() {
    return new IntrinsicConstructor();
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
