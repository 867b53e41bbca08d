package dev.derive.worker.runtime.cdi;

import dev.derive.worker.runtime.StepBatchProcessor;
import dev.derive.worker.runtime.StepTransformer;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.event.Startup;
import jakarta.inject.Inject;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.crac.Context;
import org.crac.Core;
import org.crac.Resource;

/**
 * Lambda SnapStart priming of a worker (CRaC {@code beforeCheckpoint}, see the Quarkus "AWS Lambda
 * SnapStart" guide): injecting the batch processor at startup builds the S3 and SQS clients before
 * the snapshot, and {@link #prime} runs the capability's probe ({@link StepTransformer#probe}), a
 * real transform of a generated file, so the capability's libraries (ImageIO plug-ins, PDFBox,
 * Tika, openhtmltopdf…) are initialised in the snapshot.
 *
 * <p>Nothing unique is captured: no request reaches AWS (no connection, no credentials resolved),
 * no id or random value is generated; the scratch files are deleted.
 */
@ApplicationScoped
public class SnapStartPriming implements Resource {
  private final StepTransformer transformer;

  /**
   * @param transformer the transformer the worker runs
   * @param processor injected only so the SDK clients are built before the snapshot
   */
  @Inject
  SnapStartPriming(StepTransformer transformer, StepBatchProcessor processor) {
    this.transformer = transformer;
  }

  /** Registers this resource with CRaC when the application starts (CDI {@link Startup}). */
  void register(@Observes Startup startup) {
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
   * Runs the probe of {@code transformer} in a scratch folder, then deletes the folder.
   *
   * @throws IOException if the scratch folder cannot be used
   * @throws IllegalStateException if the probe's output is wrong (a broken build, which should fail
   *     the deployment)
   */
  public static void prime(StepTransformer transformer) throws IOException {
    Path directory = Files.createTempDirectory("derive-priming");
    try {
      transformer.probe(directory);
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
