package dev.derive.worker.image;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.derive.worker.runtime.WorkerArtifactContract;
import dev.derive.worker.runtime.WorkerSettings;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import org.eclipse.microprofile.config.ConfigProvider;
import org.junit.jupiter.api.Test;

/** The Quarkus wiring: the handler, its processor and the settings from application.properties. */
@QuarkusTest
class ImageStepHandlerTest extends WorkerArtifactContract {
  @Inject WorkerSettings settings;

  ImageStepHandlerTest() {
    super("image", ImageTransformer.class);
  }

  @Test
  void settingsComeFromApplicationPropertiesDefaults() {
    assertThat(settings.maxSourceBytes()).isEqualTo(WorkerSettings.DEFAULT_MAX_SOURCE_BYTES);
    assertThat(settings.deadlineMarginMillis())
        .isEqualTo(WorkerSettings.DEFAULT_DEADLINE_MARGIN_MILLIS);
  }

  /**
   * A real Lambda SQS event (the JSON Lambda sends, AWS Lambda developer guide, "Using Lambda with
   * Amazon SQS") through Quarkus's Lambda runtime loop, answered with a partial batch response.
   */
  @Test
  void realSqsEventJsonIsAnsweredWithAPartialBatchResponse() throws Exception {
    String event =
        """
        {"Records":[{
          "messageId":"059f36b4-87a3-44ab-83d2-661975830a7d",
          "receiptHandle":"AQEBwJnKyrHigUMZj6rYigCgxlaS3SLy0a",
          "body":"not a step message",
          "attributes":{"ApproximateReceiveCount":"1","SentTimestamp":"1545082649183",
            "SenderId":"AIDAIENQZJOLO23YVJ4VO","ApproximateFirstReceiveTimestamp":"1545082649185"},
          "messageAttributes":{},
          "md5OfBody":"e4e68fb7bd0e697a0ae8f1bb342846b3",
          "eventSource":"aws:sqs",
          "eventSourceARN":"arn:aws:sqs:us-east-1:111122223333:derive-image",
          "awsRegion":"us-east-1"}]}
        """;
    String api =
        ConfigProvider.getConfig().getValue("quarkus-internal.aws-lambda.test-api", String.class);
    HttpResponse<String> response =
        HttpClient.newHttpClient()
            .send(
                HttpRequest.newBuilder(URI.create("http://" + api))
                    .header("Content-Type", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofString(event))
                    .build(),
                HttpResponse.BodyHandlers.ofString());

    assertThat(response.statusCode()).isEqualTo(200);
    assertThat(new ObjectMapper().readTree(response.body()).get("batchItemFailures").isEmpty())
        .as(response.body())
        .isTrue();
  }
}
