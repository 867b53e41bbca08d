package dev.derive.infra.local;

import java.nio.file.Files;
import java.nio.file.Path;

/** Finds the repository's {@code template.yaml} (surefire sets {@code derive.root}). */
public final class RepositoryTemplate {
  private RepositoryTemplate() {}

  /** The path of {@code template.yaml} at the repository root; fails if it is not there. */
  public static Path path() {
    String root = System.getProperty("derive.root");
    Path candidate = root != null ? Path.of(root, "template.yaml") : Path.of("../../template.yaml");
    if (!Files.isRegularFile(candidate)) {
      throw new IllegalStateException(
          "template.yaml not found at " + candidate.toAbsolutePath() + " (set -Dderive.root)");
    }
    return candidate;
  }
}
