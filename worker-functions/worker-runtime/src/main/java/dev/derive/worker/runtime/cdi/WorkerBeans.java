package dev.derive.worker.runtime.cdi;

import dev.derive.aws.AwsClients;
import dev.derive.aws.s3.S3ObjectStore;
import dev.derive.protocol.capability.CapabilityDeclarations;
import dev.derive.protocol.capability.CapabilityDescriptor;
import dev.derive.worker.runtime.ProcessExit;
import dev.derive.worker.runtime.StepLog;
import dev.derive.worker.runtime.StepTransformer;
import dev.derive.worker.runtime.StepWorker;
import dev.derive.worker.runtime.WorkerSettings;
import dev.derive.worker.runtime.aws.SqsStepResultPublisher;
import dev.derive.worker.runtime.lambda.StepBatchProcessor;
import jakarta.enterprise.inject.Disposes;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Optional;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.sqs.SqsClient;

/**
 * CDI wiring every worker shares: the SDK clients, the S3 object store and the SQS step-result
 * publisher, assembled with the worker's one {@link StepTransformer} bean (each worker module
 * produces its own) and its capability's declaration into the {@link StepBatchProcessor} its
 * handler delegates to. Settings come from the worker's {@code application.properties}, which maps
 * the environment variables of {@code template.yaml}.
 */
@Singleton
public class WorkerBeans {

  /**
   * S3 client; path-style addressing iff {@code derive.s3.path-style} (env DERIVE_S3_PATH_STYLE).
   */
  @Produces
  @Singleton
  S3Client s3(@ConfigProperty(name = "derive.s3.path-style") boolean pathStyle) {
    return AwsClients.configure(S3Client.builder(), AwsClients.WORKER_S3)
        .forcePathStyle(pathStyle)
        .build();
  }

  /** SQS client, for the step results. */
  @Produces
  @Singleton
  SqsClient sqs() {
    return AwsClients.configure(SqsClient.builder(), AwsClients.WORKER_SQS).build();
  }

  void closeS3(@Disposes S3Client s3) {
    s3.close();
  }

  void closeSqs(@Disposes SqsClient sqs) {
    sqs.close();
  }

  /**
   * The step-results queue ({@code derive.worker.step-results-queue-url}), the largest input read
   * in bytes ({@code derive.worker.max-source-bytes}), the margin in milliseconds before the
   * deadline under which no record is started ({@code derive.worker.deadline-margin-millis}), the
   * worker queue's {@code maxReceiveCount} (env {@code STEP_MAX_RECEIVE_COUNT}, read under that
   * very name so no worker's {@code application.properties} has to map it; absent: unknown), how
   * long a step runs before its start report (env {@code START_REPORT_DELAY_MILLIS}, read the same
   * way; absent: {@link WorkerSettings#DEFAULT_START_REPORT_DELAY_MILLIS}); the scratch folder is
   * {@code java.io.tmpdir}.
   */
  @Produces
  @Singleton
  WorkerSettings workerSettings(
      @ConfigProperty(name = "derive.worker.step-results-queue-url") String stepResultsQueueUrl,
      @ConfigProperty(name = "derive.worker.max-source-bytes") long maxSourceBytes,
      @ConfigProperty(name = "derive.worker.deadline-margin-millis") long deadlineMarginMillis,
      @ConfigProperty(name = WorkerSettings.MAX_RECEIVE_COUNT_VARIABLE)
          Optional<String> maxReceiveCount,
      @ConfigProperty(name = WorkerSettings.START_REPORT_DELAY_VARIABLE)
          Optional<String> startReportDelay) {
    return new WorkerSettings(
        stepResultsQueueUrl,
        maxSourceBytes,
        deadlineMarginMillis,
        Path.of(System.getProperty("java.io.tmpdir")),
        WorkerSettings.parseMaxReceiveCount(maxReceiveCount.orElse(null)),
        WorkerSettings.parseStartReportDelay(startReportDelay.orElse(null)));
  }

  /**
   * The capability this worker runs: the one declaration on its class path ({@value
   * CapabilityDeclarations#RESOURCE}, owned by the worker module); a worker without exactly one
   * does not start.
   */
  @Produces
  @Singleton
  CapabilityDescriptor declaration() {
    return CapabilityDeclarations.ofThisWorker(Thread.currentThread().getContextClassLoader());
  }

  /**
   * The processor the worker's handler delegates to; it halts the JVM shortly after returning a
   * batch response once the process can no longer be trusted ({@link ProcessExit#halting()}).
   */
  @Produces
  @Singleton
  StepBatchProcessor stepBatchProcessor(
      CapabilityDescriptor declaration,
      StepTransformer transformer,
      S3Client s3,
      SqsClient sqs,
      WorkerSettings settings) {
    return new StepBatchProcessor(
        new StepWorker(
            declaration,
            transformer,
            new S3ObjectStore(s3),
            new SqsStepResultPublisher(sqs, settings.stepResultsQueueUrl()),
            settings,
            new StepLog(),
            Clock.systemUTC(),
            ProcessExit.halting()),
        new dev.derive.worker.runtime.aws.SqsStepRequeue(sqs));
  }
}
