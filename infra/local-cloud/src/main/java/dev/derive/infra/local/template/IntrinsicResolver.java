package dev.derive.infra.local.template;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Evaluates {@link Intrinsic} values against {@link References}, and finds which resources a value
 * depends on. The rules are CloudFormation's: {@code Fn::Sub}'s {@code ${Name}} is a {@code Ref},
 * {@code ${Resource.Attribute}} a {@code Fn::GetAtt}, {@code ${!Literal}} the text {@code
 * ${Literal}}; {@code Ref AWS::NoValue} (typically a branch of {@code Fn::If}) removes the property
 * or list element it is the value of; {@code Fn::Equals} compares string forms.
 */
public final class IntrinsicResolver {
  /** The pseudo parameter that removes the property it is the value of. */
  public static final String NO_VALUE = "AWS::NoValue";

  /** What {@code Ref AWS::NoValue} evaluates to until its map entry or list element is dropped. */
  private static final Object REMOVED = new Object();

  private IntrinsicResolver() {}

  /**
   * A deep copy of {@code value} with every intrinsic replaced by its value (a string, or a list
   * for {@code Fn::Split}); {@code null} if the whole value is {@code AWS::NoValue}.
   *
   * @throws TemplateException if a reference or condition cannot be resolved
   */
  public static Object resolve(Object value, References references) {
    Object resolved = resolveOrRemove(value, references);
    return resolved == REMOVED ? null : resolved;
  }

  private static Object resolveOrRemove(Object value, References references) {
    if (value instanceof Intrinsic intrinsic) {
      return evaluate(intrinsic, references);
    }
    if (value instanceof Map<?, ?> map) {
      Map<String, Object> resolved = new LinkedHashMap<>();
      map.forEach(
          (k, v) -> {
            Object item = resolveOrRemove(v, references);
            if (item != REMOVED) {
              resolved.put(String.valueOf(k), item);
            }
          });
      return resolved;
    }
    if (value instanceof List<?> list) {
      List<Object> resolved = new ArrayList<>(list.size());
      for (Object element : list) {
        Object item = resolveOrRemove(element, references);
        if (item != REMOVED) {
          resolved.add(item);
        }
      }
      return resolved;
    }
    return value;
  }

  /** {@link #resolve} for a map of properties. */
  @SuppressWarnings("unchecked")
  public static Map<String, Object> resolveMap(Map<String, Object> value, References references) {
    Object resolved = resolve(value, references);
    return resolved == null ? new LinkedHashMap<>() : (Map<String, Object>) resolved;
  }

  /**
   * Evaluates a condition: {@code Fn::Equals}, {@code Fn::Not}, {@code Fn::And}, {@code Fn::Or},
   * {@code Condition} (a named condition), or the literal {@code true}/{@code false}.
   *
   * @throws TemplateException if {@code condition} is not a condition function
   */
  public static boolean condition(Object condition, References references) {
    return switch (condition) {
      case Intrinsic.Equals equals ->
          String.valueOf(resolve(equals.left(), references))
              .equals(String.valueOf(resolve(equals.right(), references)));
      case Intrinsic.Not not -> !condition(not.condition(), references);
      case Intrinsic.And and -> and.conditions().stream().allMatch(c -> condition(c, references));
      case Intrinsic.Or or -> or.conditions().stream().anyMatch(c -> condition(c, references));
      case Intrinsic.ConditionRef ref -> references.condition(ref.name());
      case Boolean literal -> literal;
      case String text when text.equals("true") || text.equals("false") ->
          Boolean.parseBoolean(text);
      case null, default ->
          throw new TemplateException(
              "not a condition (Fn::Equals, Fn::Not, Fn::And, Fn::Or or Condition): " + condition);
    };
  }

  /**
   * The names {@code value} refers to through {@code Ref}, {@code Fn::GetAtt} and {@code Fn::Sub}
   * placeholders (parameters and pseudo parameters included; callers keep the resource ids).
   */
  public static Set<String> referencedNames(Object value) {
    Set<String> names = new LinkedHashSet<>();
    collect(value, names);
    return names;
  }

  private static void collect(Object value, Set<String> names) {
    switch (value) {
      case Intrinsic.Ref ref -> names.add(ref.name());
      case Intrinsic.GetAtt getAtt -> names.add(getAtt.logicalId());
      case Intrinsic.Sub sub -> {
        for (String placeholder : placeholders(sub.template())) {
          if (!sub.variables().containsKey(placeholder)) {
            int dot = placeholder.indexOf('.');
            names.add(dot > 0 ? placeholder.substring(0, dot) : placeholder);
          }
        }
        sub.variables().values().forEach(v -> collect(v, names));
      }
      case Intrinsic.If conditional -> {
        collect(conditional.whenTrue(), names);
        collect(conditional.whenFalse(), names);
      }
      case Intrinsic.Join join -> collect(join.values(), names);
      case Intrinsic.Select select -> {
        collect(select.index(), names);
        collect(select.values(), names);
      }
      case Intrinsic.Split split -> collect(split.source(), names);
      case Intrinsic.Equals equals -> {
        collect(equals.left(), names);
        collect(equals.right(), names);
      }
      case Intrinsic.Not not -> collect(not.condition(), names);
      case Intrinsic.And and -> collect(and.conditions(), names);
      case Intrinsic.Or or -> collect(or.conditions(), names);
      case Map<?, ?> map -> map.values().forEach(v -> collect(v, names));
      case List<?> list -> list.forEach(v -> collect(v, names));
      case null, default -> {}
    }
  }

  private static Object evaluate(Intrinsic intrinsic, References references) {
    return switch (intrinsic) {
      case Intrinsic.Ref ref -> ref.name().equals(NO_VALUE) ? REMOVED : references.ref(ref.name());
      case Intrinsic.GetAtt getAtt -> references.getAtt(getAtt.logicalId(), getAtt.attribute());
      case Intrinsic.Sub sub -> substitute(sub, references);
      case Intrinsic.If conditional ->
          resolveOrRemove(
              references.condition(conditional.condition())
                  ? conditional.whenTrue()
                  : conditional.whenFalse(),
              references);
      case Intrinsic.Join join -> {
        List<String> parts = new ArrayList<>();
        list(join.values(), "Fn::Join", references).forEach(v -> parts.add(String.valueOf(v)));
        yield String.join(join.delimiter(), parts);
      }
      case Intrinsic.Select select -> {
        List<?> values = list(select.values(), "Fn::Select", references);
        String index = String.valueOf(resolve(select.index(), references));
        int position;
        try {
          position = Integer.parseInt(index.trim());
        } catch (NumberFormatException e) {
          throw new TemplateException("Fn::Select index is not a number: " + index, e);
        }
        if (position < 0 || position >= values.size()) {
          throw new TemplateException(
              "Fn::Select index " + position + " is outside the list " + values);
        }
        yield values.get(position);
      }
      case Intrinsic.Split split -> {
        String source = String.valueOf(resolve(split.source(), references));
        List<String> parts = new ArrayList<>();
        int start = 0;
        int at;
        while (!split.delimiter().isEmpty()
            && (at = source.indexOf(split.delimiter(), start)) >= 0) {
          parts.add(source.substring(start, at));
          start = at + split.delimiter().length();
        }
        parts.add(source.substring(start));
        yield parts;
      }
      case Intrinsic.Equals e -> String.valueOf(condition(e, references));
      case Intrinsic.Not n -> String.valueOf(condition(n, references));
      case Intrinsic.And a -> String.valueOf(condition(a, references));
      case Intrinsic.Or o -> String.valueOf(condition(o, references));
      case Intrinsic.ConditionRef c -> String.valueOf(condition(c, references));
    };
  }

  private static List<?> list(Object value, String function, References references) {
    if (resolve(value, references) instanceof List<?> list) {
      return list;
    }
    throw new TemplateException(function + " needs a list, got " + value);
  }

  private static String substitute(Intrinsic.Sub sub, References references) {
    String text = sub.template();
    StringBuilder out = new StringBuilder();
    int i = 0;
    while (i < text.length()) {
      int start = text.indexOf("${", i);
      if (start < 0) {
        out.append(text, i, text.length());
        break;
      }
      int end = text.indexOf('}', start);
      if (end < 0) {
        throw new TemplateException("unterminated ${ in Fn::Sub: " + text);
      }
      out.append(text, i, start);
      String name = text.substring(start + 2, end).trim();
      if (name.startsWith("!")) {
        out.append("${").append(name.substring(1)).append('}');
      } else if (sub.variables().containsKey(name)) {
        out.append(resolve(sub.variables().get(name), references));
      } else {
        int dot = name.indexOf('.');
        out.append(
            dot > 0
                ? references.getAtt(name.substring(0, dot), name.substring(dot + 1))
                : references.ref(name));
      }
      i = end + 1;
    }
    return out.toString();
  }

  private static List<String> placeholders(String text) {
    List<String> names = new ArrayList<>();
    int i = 0;
    while (true) {
      int start = text.indexOf("${", i);
      int end = start < 0 ? -1 : text.indexOf('}', start);
      if (end < 0) {
        return names;
      }
      String name = text.substring(start + 2, end).trim();
      if (!name.startsWith("!")) {
        names.add(name);
      }
      i = end + 1;
    }
  }
}
