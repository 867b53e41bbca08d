package dev.derive.worker.runtime.cdi;

import dev.derive.aws.lambda.SnapStartPriming;
import dev.derive.protocol.capability.CapabilityDescriptor;
import dev.derive.worker.runtime.StepTransformer;
import dev.derive.worker.runtime.lambda.StepBatchProcessor;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.event.Startup;
import jakarta.inject.Inject;
import jakarta.inject.Provider;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

/**
 * What a worker primes for SnapStart ({@link SnapStartPriming}): before the snapshot it builds the
 * batch processor (with it the S3 and SQS clients) and runs the capability's probe ({@link
 * StepTransformer#probe}), a real transform of a generated file, so the clients and the
 * capability's libraries (ImageIO plug-ins, PDFBox, Tika, openhtmltopdf…) are in the snapshot. The
 * scratch files are deleted. Without a snapshot the first invocation builds the clients, not Init
 * (docs/cold-start.md); the capability's declaration is still read at startup, so a worker without
 * one does not start.
 */
@ApplicationScoped
public class WorkerPriming {
  private final StepTransformer transformer;
  private final Provider<StepBatchProcessor> processor;
  private SnapStartPriming registration;

  /**
   * @param transformer the transformer the worker runs
   * @param declaration injected only so a worker without its declaration fails at startup
   * @param processor the batch processor, built before the snapshot (not at startup)
   */
  @Inject
  WorkerPriming(
      StepTransformer transformer,
      CapabilityDescriptor declaration,
      Provider<StepBatchProcessor> processor) {
    this.transformer = transformer;
    this.processor = processor;
  }

  /** Registers the priming when the application starts (CDI {@link Startup}). */
  void register(@Observes Startup startup) {
    registration =
        SnapStartPriming.register(
            () -> {
              processor.get();
              prime(transformer);
            });
  }

  /** The registration, kept for the process's lifetime. */
  SnapStartPriming registration() {
    return registration;
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
