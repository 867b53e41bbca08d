package dev.derive.coordinator.architecture;

import static org.assertj.core.api.Assertions.assertThat;

import dev.derive.protocol.MediaTypes;
import dev.derive.protocol.capability.CapabilityDeclarations;
import dev.derive.protocol.capability.CapabilityDescriptor;
import dev.derive.protocol.capability.OperationDescriptor;
import java.io.IOException;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The promise of issue 27: a new execution type is a worker module, its declaration and a template
 * block, and no line in {@code coordinator-function}. So no coordinator source names a capability,
 * one of its operations or a media type only capabilities read or write, and no coordinator module
 * depends on a worker module; the coordinator learns all of it from the declarations it loads.
 *
 * <p>Checked on the sources of every coordinator module ({@code coordinator-function/*}{@code
 * /src/main/java}), against the declarations of this source tree (a new worker's names are
 * forbidden as soon as it declares them): string literals (text blocks included) and references to
 * {@link MediaTypes} constants. A word the coordinator uses for itself is allowed below, each with
 * its reason; the list only shrinks.
 */
class NoCapabilityInTheCoordinatorTest {
  /**
   * Media types that are the coordinator's own, not a capability's: its API and callbacks speak
   * JSON, and octet-stream is "unknown" to every detector.
   */
  private static final Set<String> OWN_MEDIA_TYPES =
      Set.of(MediaTypes.APPLICATION_JSON, MediaTypes.APPLICATION_OCTET_STREAM);

  /**
   * Classes allowed to name media types capabilities use, each with its reason. The source
   * identification refines what Apache Tika detects (its AVIF sequences, its names for Markdown and
   * XHTML): it names file formats as Tika does, to say what a source is, whatever capabilities read
   * it.
   */
  private static final Set<String> IDENTIFIES_FORMATS = Set.of("TikaMediaTypeDetector.java");

  /**
   * The one picture the API draws itself, whatever capabilities are deployed: an image URL's
   * placeholder, decoded from a ThumbHash and written as PNG by its own few lines (issue 29 part
   * 3). The class may name that one media type.
   */
  private static final Map<String, String> DRAWS_ITS_OWN_PICTURE =
      Map.of("PngPicture.java", "image/png");

  private static final Pattern TEXT_BLOCK = Pattern.compile("\"\"\"(.*?)\"\"\"", Pattern.DOTALL);
  private static final Pattern LITERAL = Pattern.compile("\"((?:[^\"\\\\\\n]|\\\\.)*)\"");
  private static final Pattern QUOTED_IN_BLOCK = Pattern.compile("\"([^\"\\n]*)\"");
  private static final Pattern MEDIA_TYPE_CONSTANT = Pattern.compile("MediaTypes\\.([A-Z0-9_]+)");

  private static Path root;
  private static List<Path> sources;
  private static Map<String, String> forbidden;

  @BeforeAll
  static void read() throws IOException {
    root = CapabilityDeclarations.sourceTreeRoot();
    try (Stream<Path> files = Files.walk(root.resolve("coordinator-function"))) {
      sources =
          files
              .filter(p -> p.toString().endsWith(".java"))
              .filter(p -> p.toString().contains("/src/main/java/"))
              .sorted()
              .toList();
    }
    forbidden = new HashMap<>();
    for (CapabilityDescriptor capability : CapabilityDeclarations.inThisSourceTree()) {
      forbidden.put(capability.name(), "the capability " + capability.name());
      for (OperationDescriptor operation : capability.operations()) {
        forbidden.putIfAbsent(
            operation.name(), "an operation of " + capability.name() + ": " + operation.name());
      }
      Set<String> types = new TreeSet<>(capability.reads());
      types.addAll(capability.writes());
      types.removeAll(OWN_MEDIA_TYPES);
      types.forEach(t -> forbidden.putIfAbsent(t, "a media type of " + capability.name()));
    }
  }

  @Test
  void readsTheSourcesOfEveryCoordinatorModule() {
    assertThat(sources.stream().map(p -> root.relativize(p).getName(1).toString()).distinct())
        .contains("coordinator-core", "coordinator-api", "coordinator-progress");
    assertThat(forbidden).containsKeys("image", "resize", "image/jpeg", "application/pdf");
  }

  @Test
  void noCoordinatorSourceNamesACapabilityItsOperationsOrItsMediaTypes() throws Exception {
    List<String> found = new ArrayList<>();
    for (Path source : sources) {
      String text = Files.readString(source);
      String where = root.relativize(source).toString();
      Matcher block = TEXT_BLOCK.matcher(text);
      while (block.find()) {
        Matcher quoted = QUOTED_IN_BLOCK.matcher(block.group(1));
        while (quoted.find()) {
          check(where, quoted.group(1), found);
        }
      }
      Matcher literal = LITERAL.matcher(TEXT_BLOCK.matcher(text).replaceAll("\"\""));
      while (literal.find()) {
        if (!literal.group(1).equals(DRAWS_ITS_OWN_PICTURE.get(source.getFileName().toString()))) {
          check(where, literal.group(1), found);
        }
      }
      if (!IDENTIFIES_FORMATS.contains(source.getFileName().toString())) {
        Matcher constant = MEDIA_TYPE_CONSTANT.matcher(text);
        while (constant.find()) {
          check(where, mediaTypeConstant(constant.group(1)), found);
        }
      }
    }
    assertThat(found).isEmpty();
  }

  @Test
  void noCoordinatorModuleDependsOnAWorkerModule() throws IOException {
    Set<String> workers = new TreeSet<>();
    try (Stream<Path> modules = Files.list(root.resolve("worker-functions"))) {
      for (Path pom :
          modules.map(m -> m.resolve("pom.xml")).filter(Files::isRegularFile).toList()) {
        workers.add(artifactId(Files.readString(pom)));
      }
    }
    assertThat(workers).contains("worker-runtime", "image-worker");
    List<String> found = new ArrayList<>();
    try (Stream<Path> modules = Files.list(root.resolve("coordinator-function"))) {
      for (Path module : modules.filter(m -> Files.isRegularFile(m.resolve("pom.xml"))).toList()) {
        Path pom = module.resolve("pom.xml");
        String text = Files.readString(pom);
        Matcher dependency =
            Pattern.compile("<dependency>(.*?)</dependency>", Pattern.DOTALL).matcher(text);
        while (dependency.find()) {
          String declared = dependency.group(1);
          boolean onAWorker = workers.contains(artifactId(declared));
          // the fault-injection suite (a test-only module) runs the real worker runtime
          boolean testOnly = declared.contains("<scope>test</scope>");
          if (onAWorker && !testOnly) {
            found.add(root.relativize(pom) + " depends on " + artifactId(declared));
          }
        }
      }
    }
    for (Path source : sources) {
      if (Files.readString(source).contains("import dev.derive.worker.")) {
        found.add(root.relativize(source) + " imports a worker class");
      }
    }
    assertThat(found).isEmpty();
  }

  private static void check(String where, String literal, List<String> found) {
    String why = forbidden.get(literal);
    if (why != null) {
      found.add(where + ": \"" + literal + "\" names " + why);
    }
  }

  private static String mediaTypeConstant(String name) throws ReflectiveOperationException {
    Field field = MediaTypes.class.getField(name);
    return Modifier.isStatic(field.getModifiers()) && field.getType() == String.class
        ? (String) field.get(null)
        : "";
  }

  private static String artifactId(String xml) {
    Matcher own =
        Pattern.compile("<artifactId>([^<]+)</artifactId>")
            .matcher(xml.replaceFirst("(?s)<parent>.*?</parent>", ""));
    return own.find() ? own.group(1) : "";
  }
}
