package dev.derive.worker.pdf;

import dev.derive.worker.runtime.StepBatchProcessor;
import io.quarkus.runtime.Startup;
import jakarta.annotation.PostConstruct;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.crac.Context;
import org.crac.Core;
import org.crac.Resource;

/**
 * Lambda SnapStart priming of the pdf worker (CRaC {@code beforeCheckpoint}, see the Quarkus "AWS
 * Lambda SnapStart" guide): injecting the batch processor at startup builds the S3 and SQS clients
 * before the snapshot, and {@link #prime} runs the capability's probe ({@link PdfProbe}), a real
 * transform of a generated file, so Apache PDFBox (fonts, rendering, PNG encoding) are initialised
 * in the snapshot.
 *
 * <p>Nothing unique is captured: no request reaches AWS (no connection, no credentials resolved),
 * no id or random value is generated; the scratch files are deleted.
 */
@Startup
@ApplicationScoped
public class SnapStartPriming implements Resource {
  private final PdfTransformer transformer;

  /**
   * @param transformer the transformer the worker runs
   * @param processor injected only so the SDK clients are built before the snapshot
   */
  @Inject
  SnapStartPriming(PdfTransformer transformer, StepBatchProcessor processor) {
    this.transformer = transformer;
  }

  @PostConstruct
  void register() {
    Core.getGlobalContext().register(this);
  }

  @Override
  public void beforeCheckpoint(Context<? extends Resource> context) throws IOException {
    prime(transformer);
  }

  @Override
  public void afterRestore(Context<? extends Resource> context) {
    // Nothing to renew: the SDK resolves credentials and opens connections on first use.
  }

  /**
   * Runs the probe with {@code transformer} in a scratch folder.
   *
   * @throws IOException if the scratch folder cannot be used
   * @throws IllegalStateException if the probe's output is wrong (a broken build, which should fail
   *     the deployment)
   */
  static void prime(PdfTransformer transformer) throws IOException {
    Path directory = Files.createTempDirectory("derive-priming");
    try {
      PdfProbe.run(transformer, directory);
    } finally {
      try (Stream<Path> files = Files.list(directory)) {
        for (Path file : files.toList()) {
          Files.deleteIfExists(file);
        }
      }
      Files.deleteIfExists(directory);
    }
  }
}
