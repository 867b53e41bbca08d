package dev.derive.worker.markup;

import dev.derive.worker.runtime.StepBatchProcessor;
import dev.derive.worker.runtime.WorkerSettings;
import dev.derive.worker.runtime.aws.AwsClientFactory;
import dev.derive.worker.runtime.report.SqsStepResultPublisher;
import dev.derive.worker.runtime.store.S3ObjectStore;
import jakarta.enterprise.inject.Disposes;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;
import java.nio.file.Path;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.sqs.SqsClient;

/**
 * CDI wiring of the markup worker: the SDK clients, the S3 object store, the SQS step-result
 * publisher and the {@link MarkupTransformer}, assembled into the runtime's {@link
 * StepBatchProcessor}. Settings come from {@code application.properties}, which maps the
 * environment variables of {@code template.yaml}.
 */
@Singleton
public class MarkupWorkerProducers {

  /**
   * S3 client; path-style addressing iff {@code derive.s3.path-style} (env DERIVE_S3_PATH_STYLE).
   */
  @Produces
  @Singleton
  S3Client s3(@ConfigProperty(name = "derive.s3.path-style") boolean pathStyle) {
    return AwsClientFactory.s3(pathStyle);
  }

  @Produces
  @Singleton
  SqsClient sqs() {
    return AwsClientFactory.sqs();
  }

  void closeS3(@Disposes S3Client s3) {
    s3.close();
  }

  void closeSqs(@Disposes SqsClient sqs) {
    sqs.close();
  }

  @Produces
  @Singleton
  MarkupTransformer markupTransformer(
      @ConfigProperty(name = "derive.markup.max-output-bytes") long maxOutputBytes) {
    return new MarkupTransformer(maxOutputBytes);
  }

  @Produces
  @Singleton
  WorkerSettings workerSettings(
      @ConfigProperty(name = "derive.worker.step-results-queue-url") String stepResultsQueueUrl,
      @ConfigProperty(name = "derive.worker.max-source-bytes") long maxSourceBytes,
      @ConfigProperty(name = "derive.worker.deadline-margin-millis") long deadlineMarginMillis) {
    return new WorkerSettings(
        stepResultsQueueUrl,
        maxSourceBytes,
        deadlineMarginMillis,
        Path.of(System.getProperty("java.io.tmpdir")));
  }

  @Produces
  @Singleton
  StepBatchProcessor stepBatchProcessor(
      MarkupTransformer transformer, S3Client s3, SqsClient sqs, WorkerSettings settings) {
    return new StepBatchProcessor(
        transformer,
        new S3ObjectStore(s3),
        new SqsStepResultPublisher(sqs, settings.stepResultsQueueUrl()),
        settings);
  }
}
