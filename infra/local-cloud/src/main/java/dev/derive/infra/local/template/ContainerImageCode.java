package dev.derive.infra.local.template;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What the local cloud runs of a container-image function ({@code PackageType: Image}): not the
 * image, which it does not build, but the Java deployment package the image is made from. SAM's
 * {@code Metadata} names the build ({@code DockerContext}, relative to the template, and {@code
 * Dockerfile}, relative to the context); the package is the one {@code .zip} file the Dockerfile
 * copies from that context ({@code COPY} or {@code ADD} without {@code --from}), and the function
 * runs on this machine's JVM and system packages like a zip function. The handler is the image's
 * {@code CMD} when {@code ImageConfig.Command} does not override it.
 *
 * @param dockerfile the Dockerfile, absolute
 * @param functionPackage the {@code .zip} it copies in, absolute (it may not be built yet)
 * @param command the first element of its last {@code CMD} in exec form, if it has one
 */
public record ContainerImageCode(Path dockerfile, Path functionPackage, Optional<String> command) {
  private static final Pattern QUOTED = Pattern.compile("\"([^\"]*)\"");

  /**
   * Reads the build named by a function's {@code Metadata}.
   *
   * @param templateDirectory the folder {@code DockerContext} is relative to
   * @param id the function's logical id, for messages
   * @throws TemplateException if {@code Metadata} names no build, the Dockerfile cannot be read, or
   *     it copies no {@code .zip} or several from its context
   */
  public static ContainerImageCode read(
      Path templateDirectory, Map<String, Object> metadata, String id) {
    Object context = metadata.get("DockerContext");
    if (!(context instanceof String contextPath)) {
      throw new TemplateException(
          id + " is a container image (PackageType Image) without Metadata.DockerContext");
    }
    Path contextDirectory = templateDirectory.resolve(contextPath).normalize();
    Path dockerfile =
        contextDirectory
            .resolve(String.valueOf(metadata.getOrDefault("Dockerfile", "Dockerfile")))
            .normalize();
    List<String> instructions;
    try {
      instructions = instructions(Files.readString(dockerfile));
    } catch (IOException e) {
      throw new TemplateException("cannot read " + dockerfile + " (the image of " + id + ")", e);
    }
    List<String> packages = new ArrayList<>();
    String command = null;
    for (String instruction : instructions) {
      String[] words = instruction.split("\\s+", 2);
      String keyword = words[0].toUpperCase(Locale.ROOT);
      String arguments = words.length > 1 ? words[1].trim() : "";
      switch (keyword) {
        case "COPY", "ADD" -> packages.addAll(zipSources(arguments));
        case "CMD" -> command = execFormFirst(arguments);
        default -> {}
      }
    }
    if (packages.size() != 1) {
      throw new TemplateException(
          id
              + ": the local cloud runs a container-image function from the one .zip its"
              + " Dockerfile copies from its context, and "
              + dockerfile
              + " copies "
              + (packages.isEmpty() ? "none" : String.join(", ", packages)));
    }
    return new ContainerImageCode(
        dockerfile,
        contextDirectory.resolve(packages.getFirst()).normalize(),
        Optional.ofNullable(command));
  }

  /** The Dockerfile's instructions: comments and blank lines dropped, continuations joined. */
  static List<String> instructions(String text) {
    List<String> instructions = new ArrayList<>();
    StringBuilder current = new StringBuilder();
    for (String line : text.split("\\R")) {
      String trimmed = line.strip();
      if (trimmed.startsWith("#") || (trimmed.isEmpty() && current.isEmpty())) {
        continue;
      }
      if (trimmed.endsWith("\\")) {
        current.append(trimmed, 0, trimmed.length() - 1).append(' ');
        continue;
      }
      current.append(trimmed);
      if (!current.toString().isBlank()) {
        instructions.add(current.toString().strip());
      }
      current.setLength(0);
    }
    if (!current.toString().isBlank()) {
      instructions.add(current.toString().strip());
    }
    return instructions;
  }

  /** The {@code .zip} sources of a {@code COPY}/{@code ADD} from the build context. */
  private static List<String> zipSources(String arguments) {
    List<String> words = new ArrayList<>(List.of(arguments.split("\\s+")));
    boolean fromAnotherStage = false;
    while (!words.isEmpty() && words.getFirst().startsWith("--")) {
      fromAnotherStage |= words.removeFirst().startsWith("--from");
    }
    if (fromAnotherStage || words.size() < 2) {
      return List.of();
    }
    List<String> sources =
        words.getFirst().startsWith("[")
            ? jsonArray(String.join(" ", words))
            : new ArrayList<>(words);
    sources.removeLast();
    return sources.stream().filter(s -> s.endsWith(".zip")).toList();
  }

  /** The first element of an exec-form {@code ["a", "b"]}, or {@code null} for the shell form. */
  private static String execFormFirst(String arguments) {
    if (!arguments.startsWith("[")) {
      return null;
    }
    List<String> elements = jsonArray(arguments);
    return elements.isEmpty() ? null : elements.getFirst();
  }

  /** The strings of a JSON array of plain strings, as Dockerfiles write them. */
  private static List<String> jsonArray(String text) {
    List<String> elements = new ArrayList<>();
    Matcher quoted = QUOTED.matcher(text);
    while (quoted.find()) {
      elements.add(quoted.group(1));
    }
    return elements;
  }
}
