package dev.derive.infra.local.template;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Evaluates {@link Intrinsic} values against {@link References}, and finds which resources a value
 * depends on. {@code Fn::Sub} follows the CloudFormation rules: {@code ${Name}} is a {@code Ref},
 * {@code ${Resource.Attribute}} a {@code Fn::GetAtt}, {@code ${!Literal}} the text {@code
 * ${Literal}}.
 */
public final class IntrinsicResolver {
  private IntrinsicResolver() {}

  /**
   * A deep copy of {@code value} with every intrinsic replaced by its string value.
   *
   * @throws TemplateException if a reference cannot be resolved
   */
  public static Object resolve(Object value, References references) {
    if (value instanceof Intrinsic intrinsic) {
      return evaluate(intrinsic, references);
    }
    if (value instanceof Map<?, ?> map) {
      Map<String, Object> resolved = new LinkedHashMap<>();
      map.forEach((k, v) -> resolved.put(String.valueOf(k), resolve(v, references)));
      return resolved;
    }
    if (value instanceof List<?> list) {
      List<Object> resolved = new ArrayList<>(list.size());
      list.forEach(v -> resolved.add(resolve(v, references)));
      return resolved;
    }
    return value;
  }

  /** {@link #resolve} for a map of properties. */
  @SuppressWarnings("unchecked")
  public static Map<String, Object> resolveMap(Map<String, Object> value, References references) {
    return (Map<String, Object>) resolve(value, references);
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
      case Map<?, ?> map -> map.values().forEach(v -> collect(v, names));
      case List<?> list -> list.forEach(v -> collect(v, names));
      case null, default -> {}
    }
  }

  private static String evaluate(Intrinsic intrinsic, References references) {
    return switch (intrinsic) {
      case Intrinsic.Ref ref -> references.ref(ref.name());
      case Intrinsic.GetAtt getAtt -> references.getAtt(getAtt.logicalId(), getAtt.attribute());
      case Intrinsic.Sub sub -> substitute(sub, references);
    };
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
