package dev.derive.protocol.capability;

import java.util.List;

/**
 * An image URL option setting several target options of one operation at once, its arguments in a
 * declared order, e.g. imgproxy's {@code rs:<fit>:<width>:<height>:<enlarge>} for the resize's
 * {@code fit}, {@code width}, {@code height} and {@code withoutEnlargement}. Each argument is read
 * as its parameter's {@link UrlSpelling} says; an empty argument leaves its option as it is (or
 * removes it, for a {@linkplain UrlSpelling#zeroIsAbsent() zero-is-absent} one).
 *
 * @param names option names, shortest first
 * @param arguments the operation's parameters (each a consumed target option) the arguments set, in
 *     order; a URL gives at least one and at most all of them
 */
public record UrlShorthand(List<String> names, List<String> arguments) {
  public UrlShorthand {
    names = List.copyOf(names);
    arguments = List.copyOf(arguments);
    if (names.isEmpty() || arguments.isEmpty()) {
      throw new IllegalArgumentException("a URL shorthand has names and arguments");
    }
    for (String name : names) {
      if (!name.matches(UrlSpelling.NAME_PATTERN)) {
        throw new IllegalArgumentException(
            "an image URL option name must match " + UrlSpelling.NAME_PATTERN + ": " + name);
      }
    }
  }
}
