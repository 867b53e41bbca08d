package dev.derive.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.derive.infra.endpoint.AwsClients;
import dev.derive.infra.local.LocalCloud;
import dev.derive.infra.local.cli.LogsCommand;
import dev.derive.infra.local.cli.OperatorTarget;
import dev.derive.infra.local.cli.RedriveCommand;
import dev.derive.infra.local.cli.StatusCommand;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.Message;
import software.amazon.awssdk.services.sqs.model.MessageAttributeValue;
import software.amazon.awssdk.services.sqs.model.QueueAttributeName;

/**
 * Derive's telemetry end to end on the local cloud: one Markdown document made into a JPEG
 * thumbnail (markup → pdf → image, so the API, three workers and the progress function all work on
 * one job), asked with a client's {@code X-Request-Id}; then the functions' captured output is read
 * as an operator would: every line naming the job is structured JSON with the correlation fields,
 * the client's id comes back on the workers' lines, the EMF documents parse and name Derive's
 * metrics, and no presigned URL's signature or credential is ever written (ImageUrlEndToEndTest
 * checks the URL signing key). The operator's commands ({@code ./derive status|logs|redrive}) run
 * against the same cloud.
 */
@ExtendWith(LocalCloudExtension.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ObservabilityEndToEndTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final List<String> FUNCTIONS =
      List.of(
          "CoordinatorApiFunction",
          "CoordinatorProgressFunction",
          "ImageWorkerFunction",
          "PdfWorkerFunction",
          "TextWorkerFunction",
          "MarkupWorkerFunction");
  private static final List<String> WORKERS =
      List.of("ImageWorkerFunction", "PdfWorkerFunction", "MarkupWorkerFunction");

  /** Every metric name Derive writes (dev.derive.protocol.telemetry.Metric). */
  private static final Set<String> METRIC_NAMES =
      Set.of(
          "Requests",
          "RejectedRequests",
          "Steps",
          "StepDuration",
          "StepInputBytes",
          "StepOutputBytes",
          "StepFailures",
          "StepDeliveries",
          "QueueAge",
          "JobDuration",
          "DeadLetteredSteps");

  private LocalCloud cloud;
  private Path samples;
  private DeriveApi api;
  private final String clientTraceId = "e2e-" + UUID.randomUUID();
  private String jobId;

  @BeforeEach
  void useTheSharedLocalCloud(SharedLocalCloud shared) {
    cloud = shared.cloud();
    samples = shared.samples();
    api = new DeriveApi(cloud.apiUri());
  }

  @BeforeAll
  void makeOneThreeStepJobWithAClientTraceId(SharedLocalCloud shared) throws Exception {
    useTheSharedLocalCloud(shared);
    String key = api.upload(samples.resolve("markdown-html/testMARKDOWN.md"));
    String body =
        "{\"source\":{\"key\":"
            + JSON.writeValueAsString(key)
            + "},\"target\":{\"mediaType\":\"image/jpeg\",\"width\":"
            + (100 + (int) (Math.random() * 50))
            + ",\"height\":90}}";
    HttpResponse<String> response =
        HttpClient.newHttpClient()
            .send(
                HttpRequest.newBuilder(cloud.apiUri().resolve("/v1/derivatives"))
                    .header("content-type", "application/json")
                    .header("X-Request-Id", clientTraceId)
                    .POST(HttpRequest.BodyPublishers.ofString(body))
                    .build(),
                HttpResponse.BodyHandlers.ofString());
    assertThat(response.statusCode()).as(response.body()).isIn(200, 202);
    jobId = api.id(response);
    api.download(api.awaitSucceeded(jobId)); // a presigned URL was handed out and used
    Thread.sleep(500); // the progress function's last lines
  }

  @Test
  void everyLogLineOfTheJobIsJsonWithTheFunctionLevelAndCorrelationFields() throws Exception {
    List<JsonNode> lines = new ArrayList<>();
    for (String function : FUNCTIONS) {
      for (String line : cloud.functionLog(function)) {
        if (!line.contains(jobId) || isRuntimeLine(line)) {
          continue;
        }
        JsonNode node = parse(function, line);
        if (node.has("_aws")) {
          continue; // an EMF document: the next test
        }
        assertThat(node.path("level").asText()).as(function + ": " + line).isNotBlank();
        assertThat(node.path("function").asText()).as(function + ": " + line).isNotBlank();
        JsonNode mdc = node.path("mdc");
        assertThat(mdc.path("jobId").asText()).as(function + ": " + line).isEqualTo(jobId);
        assertThat(mdc.path("traceId").asText())
            .as(function + ": " + line)
            .isEqualTo(clientTraceId);
        assertThat(mdc.path("coldStart").asText()).as(function + ": " + line).isIn("true", "false");
        if (!function.equals("CoordinatorApiFunction")) {
          assertThat(mdc.path("requestId").asText()).as(function + ": " + line).isNotBlank();
          assertThat(mdc.path("stepIndex").asText()).as(function + ": " + line).matches("[0-9]+");
          assertThat(mdc.path("capability").asText()).as(function + ": " + line).isNotBlank();
          assertThat(mdc.path("executionId").asText()).as(function + ": " + line).isNotBlank();
        }
        lines.add(node);
      }
    }
    assertThat(lines).as("log lines of job " + jobId).isNotEmpty();
  }

  @Test
  void theClientsTraceIdComesBackOnEachWorkersStepLine() throws Exception {
    for (String worker : WORKERS) {
      List<JsonNode> steps = new ArrayList<>();
      for (String line : cloud.functionLog(worker)) {
        if (line.contains(jobId) && line.contains("\"event\":\"step\"")) {
          steps.add(parse(worker, line));
        }
      }
      assertThat(steps).as(worker + " step lines of job " + jobId).hasSize(1);
      JsonNode mdc = steps.get(0).path("mdc");
      assertThat(mdc.path("traceId").asText()).isEqualTo(clientTraceId);
      assertThat(mdc.path("outcome").asText()).isEqualTo("succeeded");
      assertThat(mdc.path("durationMs").asLong()).isGreaterThanOrEqualTo(0);
    }
  }

  @Test
  void theFirstStepMessageCarriesTheApisXRayTraceHeaderToTheWorker() throws Exception {
    String apiTrace = null;
    for (String line : cloud.functionLog("CoordinatorApiFunction")) {
      if (line.contains("request starts job " + jobId)) {
        apiTrace = parse("CoordinatorApiFunction", line).path("mdc").path("xrayTrace").asText();
      }
    }
    assertThat(apiTrace).as("the API's X-Ray trace header").startsWith("Root=1-");
    String workerTrace = null;
    for (String line : cloud.functionLog("MarkupWorkerFunction")) {
      if (line.contains(jobId) && line.contains("\"event\":\"step\"")) {
        workerTrace = parse("MarkupWorkerFunction", line).path("mdc").path("xrayTrace").asText();
      }
    }
    assertThat(workerTrace).as("AWSTraceHeader of the markup step message").isEqualTo(apiTrace);
  }

  @Test
  void theEmfDocumentsParseAndNameDerivesMetricsWithTheirDimensions() throws Exception {
    Set<String> seen = new HashSet<>();
    for (String function : FUNCTIONS) {
      for (String line : cloud.functionLog(function)) {
        if (!line.startsWith("{\"_aws\"")) {
          continue;
        }
        JsonNode document = parse(function, line);
        JsonNode directives = document.path("_aws").path("CloudWatchMetrics");
        assertThat(document.path("_aws").path("Timestamp").asLong()).isPositive();
        assertThat(directives.isArray() && !directives.isEmpty()).as(line).isTrue();
        for (JsonNode directive : directives) {
          assertThat(directive.path("Namespace").asText()).isEqualTo("Derive");
          for (JsonNode dimension : directive.path("Dimensions").get(0)) {
            assertThat(document.path(dimension.asText()).asText()).as(line).isNotBlank();
          }
          for (JsonNode metric : directive.path("Metrics")) {
            String name = metric.path("Name").asText();
            assertThat(METRIC_NAMES).as(line).contains(name);
            assertThat(document.path(name).isNumber()).as(name + " in " + line).isTrue();
            seen.add(name);
          }
        }
      }
    }
    assertThat(seen)
        .contains(
            "Requests",
            "Steps",
            "StepDuration",
            "StepInputBytes",
            "StepOutputBytes",
            "StepDeliveries",
            "QueueAge");
  }

  @Test
  void noFunctionEverLogsAPresignedUrlSignature() {
    for (String function : FUNCTIONS) {
      for (String line : cloud.functionLog(function)) {
        assertThat(line).as(function).doesNotContain("X-Amz-Signature", "X-Amz-Credential");
        assertThat(line).as(function).doesNotContainIgnoringCase("x-amz-security-token=");
      }
    }
  }

  @Test
  void statusListsEveryQueueWithItsDeadLetterDepthAndTheJobsInFlight() throws Exception {
    try (OperatorTarget target = target("derive-local", null)) {
      String status = printed(out -> new StatusCommand(target).print(out));

      assertThat(status).contains("queue", "waiting", "in flight", "dead-lettered");
      for (String queue : List.of("image", "pdf", "text", "markup", "step-results")) {
        assertThat(status).containsPattern("(?m)^" + queue + " +[0-9]+ +[0-9]+ +[0-9]+$");
      }
      assertThat(status).containsPattern("jobs in flight: [0-9]+");
    }
  }

  @Test
  void logsPrintsTheJobsLinesOfEveryFunctionInOrder(@TempDir Path folder) throws Exception {
    Path log = folder.resolve("functions.log");
    List<String> all = new ArrayList<>();
    for (String function : FUNCTIONS) {
      cloud.functionLog(function).forEach(line -> all.add("[" + function + "] " + line));
    }
    Files.write(log, all);
    try (OperatorTarget target = target("derive-local", log)) {
      String lines = printed(out -> new LogsCommand(target).print(jobId, Duration.ZERO, out));

      assertThat(lines)
          .contains(
              "CoordinatorApiFunction request starts job",
              "MarkupWorkerFunction step succeeded",
              "PdfWorkerFunction step succeeded",
              "ImageWorkerFunction step succeeded",
              "trace=" + clientTraceId)
          .doesNotContain("\"_aws\"");
    }
  }

  @Test
  void redriveMovesEveryDeadLetteredMessageBackWithItsAttributes() throws Exception {
    String stack = "redrive-" + UUID.randomUUID().toString().substring(0, 8);
    try (OperatorTarget target = target(stack, null)) {
      SqsClient sqs = target.sqs();
      String queue = sqs.createQueue(b -> b.queueName(stack + "-image")).queueUrl();
      String dlq = sqs.createQueue(b -> b.queueName(stack + "-image-dlq")).queueUrl();
      for (int i = 0; i < 12; i++) {
        int n = i;
        sqs.sendMessage(
            b ->
                b.queueUrl(dlq)
                    .messageBody("{\"n\":" + n + "}")
                    .messageAttributes(
                        Map.of(
                            "jobId",
                            MessageAttributeValue.builder()
                                .dataType("String")
                                .stringValue("job-" + n)
                                .build())));
      }

      int moved =
          new RedriveCommand(target)
              .redrive("image", new PrintStream(OutputStream.nullOutputStream()));

      assertThat(moved).isEqualTo(12);
      Set<String> bodies = new HashSet<>();
      for (int tries = 0; tries < 10 && bodies.size() < 12; tries++) {
        for (Message m :
            sqs.receiveMessage(
                    b -> b.queueUrl(queue).maxNumberOfMessages(10).messageAttributeNames("All"))
                .messages()) {
          assertThat(m.messageAttributes().get("jobId").stringValue()).startsWith("job-");
          bodies.add(m.body());
        }
      }
      assertThat(bodies).hasSize(12);
      assertThat(
              sqs.getQueueAttributes(
                      b ->
                          b.queueUrl(dlq)
                              .attributeNames(QueueAttributeName.APPROXIMATE_NUMBER_OF_MESSAGES))
                  .attributes()
                  .get(QueueAttributeName.APPROXIMATE_NUMBER_OF_MESSAGES))
          .isEqualTo("0");
    }
  }

  private OperatorTarget target(String stack, Path log) {
    return new OperatorTarget(
        stack, AwsClients.sqs(cloud.endpoint()), AwsClients.dynamoDb(cloud.endpoint()), null, log);
  }

  /** What {@code command} printed. */
  private static String printed(PrintingCommand command) throws Exception {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    command.run(new PrintStream(bytes, true, StandardCharsets.UTF_8));
    return bytes.toString(StandardCharsets.UTF_8);
  }

  private interface PrintingCommand {
    void run(PrintStream out) throws Exception;
  }

  private static boolean isRuntimeLine(String line) {
    return line.startsWith("START ")
        || line.startsWith("END ")
        || line.startsWith("REPORT ")
        || line.startsWith("INIT_");
  }

  private static JsonNode parse(String function, String line) throws IOException {
    try {
      return JSON.readTree(line);
    } catch (IOException e) {
      throw new AssertionError(function + " wrote a line that is not JSON: " + line, e);
    }
  }
}
