package dev.derive.protocol.capability;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.List;
import java.util.Map;

/**
 * How an image URL ({@code GET /v1/{signature}/{options}/{key}}, imgproxy-style) spells a target
 * option: its own option names (e.g. {@code q} and {@code quality} for {@code quality}), and how
 * one argument becomes the option's value. Declared on the parameter that consumes the option, so a
 * new operation's URL option comes from its declaration alone (docs/capability-declarations.md).
 *
 * @param names option names that set this option from one argument, shortest first; empty when it
 *     is set only through an operation's {@linkplain UrlShorthand shorthand}
 * @param aliases argument spellings that stand for an allowed value (imgproxy's {@code force} for
 *     {@code fill}); an allowed value always stands for itself
 * @param prefix text put before the argument ({@code #} for a colour given as {@code ffffff}), or
 *     {@code null}
 * @param zeroIsAbsent whether {@code 0} or an empty argument removes the option ("not given", as
 *     imgproxy reads a width of 0)
 * @param negate whether the argument is the opposite of a boolean option (imgproxy's {@code el:1},
 *     "enlarge", for {@code withoutEnlargement: false}); a value equal to the consuming parameter's
 *     default removes the option instead
 * @param scaledByDpr whether a URL's {@code dpr:<ratio>} (imgproxy's device pixel ratio) multiplies
 *     the option's whole-number value, rounded: sizes in CSS pixels become device pixels
 */
@JsonInclude(JsonInclude.Include.NON_EMPTY)
public record UrlSpelling(
    List<String> names,
    Map<String, String> aliases,
    String prefix,
    boolean zeroIsAbsent,
    boolean negate,
    boolean scaledByDpr) {
  /** What an option name may be: lower-case letters and underscores (imgproxy's). */
  public static final String NAME_PATTERN = "[a-z][a-z_]*";

  public UrlSpelling {
    names = List.copyOf(names);
    aliases = Map.copyOf(aliases);
    for (String name : names) {
      if (!name.matches(NAME_PATTERN)) {
        throw new IllegalArgumentException(
            "an image URL option name must match " + NAME_PATTERN + ": " + name);
      }
    }
  }
}
