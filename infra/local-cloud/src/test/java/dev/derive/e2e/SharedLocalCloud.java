package dev.derive.e2e;

import static org.junit.jupiter.api.Assertions.fail;

import dev.derive.infra.local.LocalCloud;
import dev.derive.infra.local.LocalCloudOptions;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * One local cloud for every end-to-end test class of a test run: started on first use from the
 * repository's {@code template.yaml} and the packaged {@code function.zip} artifacts, stopped when
 * JUnit closes its root store at the end of the run.
 */
final class SharedLocalCloud implements ExtensionContext.Store.CloseableResource {
  private final LocalCloud cloud;
  private final Path samples;

  private SharedLocalCloud(LocalCloud cloud, Path samples) {
    this.cloud = cloud;
    this.samples = samples;
  }

  /** The running cloud, started on first call within this JUnit run. */
  static SharedLocalCloud in(ExtensionContext context) {
    return context
        .getRoot()
        .getStore(ExtensionContext.Namespace.GLOBAL)
        .getOrComputeIfAbsent(SharedLocalCloud.class, k -> start(), SharedLocalCloud.class);
  }

  LocalCloud cloud() {
    return cloud;
  }

  /** The sample corpus ({@code -Dderive.samples}, default {@code ../shared/samples}). */
  Path samples() {
    return samples;
  }

  @Override
  public void close() {
    cloud.close();
  }

  private static SharedLocalCloud start() {
    Path root = repositoryRoot();
    Path samples = Path.of(System.getProperty("derive.samples", root + "/../shared/samples"));
    if (!Files.isRegularFile(samples.resolve("MANIFEST.tsv"))) {
      fail(
          "The sample corpus is missing at "
              + samples
              + ": put ../shared/samples beside the clone or pass -Dderive.samples=/path");
    }
    requireFunctionZips(root);
    LocalCloud cloud =
        LocalCloud.start(
            LocalCloudOptions.builder(root.resolve("template.yaml"))
                .workDir(root.resolve("infra/local-cloud/target/e2e-cloud"))
                .httpPort(0)
                .build());
    return new SharedLocalCloud(cloud, samples);
  }

  /** The repository's root ({@code -Dderive.root}, default two folders up from this module). */
  static Path repositoryRoot() {
    return Path.of(System.getProperty("derive.root", "../..")).toAbsolutePath().normalize();
  }

  /** Fails the test unless every {@code CodeUri} of {@code root}'s template.yaml is built. */
  static void requireFunctionZips(Path root) {
    try (Stream<String> codeUris = codeUris(root)) {
      codeUris
          .map(root::resolve)
          .filter(zip -> !Files.isRegularFile(zip))
          .findFirst()
          .ifPresent(
              zip -> fail(zip + " is missing: run the tests from the root with ./derive test"));
    }
  }

  /** Every function's CodeUri, read from the template's text. */
  private static Stream<String> codeUris(Path root) {
    try {
      return Files.readAllLines(root.resolve("template.yaml")).stream()
          .map(String::trim)
          .filter(line -> line.startsWith("CodeUri:"))
          .map(line -> line.substring("CodeUri:".length()).trim());
    } catch (java.io.IOException e) {
      return fail("cannot read template.yaml under " + root, e);
    }
  }
}
