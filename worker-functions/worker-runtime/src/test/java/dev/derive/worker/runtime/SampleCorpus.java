package dev.derive.worker.runtime;

import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * The shared sample corpus ({@code ../shared/samples} beside the repository, or {@code
 * -Dderive.samples}) for the capabilities' corpus suites, shared through this module's test-jar.
 */
public final class SampleCorpus {
  private SampleCorpus() {}

  /** The corpus folder; fails (never skips) with what to do when it is missing. */
  public static Path samples() {
    String configured = System.getProperty("derive.samples");
    Path folder =
        configured != null
            ? Path.of(configured)
            : Path.of(System.getProperty("user.dir"), "..", "..", "..", "shared", "samples");
    folder = folder.toAbsolutePath().normalize();
    if (!Files.isRegularFile(folder.resolve("MANIFEST.tsv"))) {
      fail(
          "The sample corpus is missing: expected "
              + folder
              + "/MANIFEST.tsv. Put the shared samples folder beside the repository"
              + " (../shared/samples, e.g. /work/shared/samples) or run Maven with"
              + " -Dderive.samples=/path/to/samples.");
    }
    return folder;
  }

  /** The manifest's media type of {@code sample} (a path relative to the corpus folder). */
  public static String mediaType(String sample) throws IOException {
    return Files.readAllLines(samples().resolve("MANIFEST.tsv")).stream()
        .map(line -> line.split("\t"))
        .filter(cells -> cells[0].equals(sample))
        .map(cells -> cells[1])
        .findFirst()
        .orElseThrow(() -> new AssertionError(sample + " is not in the manifest"));
  }

  /** The files now in the JVM's temp folder, to prove a transformation left none behind. */
  public static Set<Path> tempFiles() throws IOException {
    try (Stream<Path> files = Files.list(Path.of(System.getProperty("java.io.tmpdir")))) {
      return files.collect(Collectors.toSet());
    }
  }
}
