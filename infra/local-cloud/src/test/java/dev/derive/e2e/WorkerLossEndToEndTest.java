package dev.derive.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.derive.infra.endpoint.AwsClients;
import dev.derive.infra.local.LocalCloud;
import dev.derive.infra.local.LocalCloudOptions;
import java.awt.Color;
import java.awt.Graphics2D;
import java.awt.image.BufferedImage;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import java.util.stream.Stream;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.QueueAttributeName;

/**
 * Issue 9's two end-to-end faults on the local cloud: the image worker's JVM is killed (SIGKILL,
 * the way Lambda loses a sandbox) while it runs a step, once, and on every delivery.
 *
 * <p>The cloud runs the repository's {@code template.yaml} with the image queue's timers scaled
 * down, so a redelivery comes after seconds instead of the deployed 12 minutes: {@value
 * #VISIBILITY_TIMEOUT_SECONDS} s visibility timeout, a worker {@code Timeout} of {@value
 * #WORKER_TIMEOUT_SECONDS} s (a queue's visibility timeout may not be shorter, as on AWS) and the
 * image declaration's time budget following them (given to the coordinator as its
 * CapabilityDeclarations layer): that timeout, and the step lease of the lease rule, visibility
 * timeout × maxReceiveCount + 60 s. Everything else, {@code maxReceiveCount} and the dead-letter
 * queue mappings included, is the template's. The step is slow on purpose: a large PNG made by the
 * test, scaled to a large PNG, takes the worker seconds, so it is still running when the test has
 * seen its start and kills it.
 */
class WorkerLossEndToEndTest {
  private static final String WORKER = "ImageWorkerFunction";

  /** The image worker's {@code Timeout} here (template: 120 s); a step gets it minus 10 s. */
  static final int WORKER_TIMEOUT_SECONDS = 25;

  /** The image queue's {@code VisibilityTimeout} here (template: 720 s). */
  static final int VISIBILITY_TIMEOUT_SECONDS = 25;

  private static final int SOURCE_WIDTH = 3200;
  private static final int SOURCE_HEIGHT = 2400;
  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir static Path dir;
  private static LocalCloud cloud;
  private static DeriveApi api;
  private static String sourceKey;
  private static int maxReceiveCount;

  @BeforeAll
  static void startTheTemplateWithShortImageTimers() throws Exception {
    Path root = SharedLocalCloud.repositoryRoot();
    SharedLocalCloud.requireFunctionZips(root);
    Path source = dir.resolve("quadrants.png");
    ImageIO.write(quadrants(SOURCE_WIDTH, SOURCE_HEIGHT), "png", source.toFile());
    // maxReceiveCount is the template's (3); the lease follows the rule of docs/job-lifecycle.md.
    Path declarations =
        declarationsWithImageTimeBudget(
            root.resolve("target/capability-layer"),
            WORKER_TIMEOUT_SECONDS,
            VISIBILITY_TIMEOUT_SECONDS * 3 + 60);
    cloud =
        LocalCloud.start(
            LocalCloudOptions.builder(root.resolve("template.yaml"))
                .workDir(root.resolve("infra/local-cloud/target/e2e-worker-loss-cloud"))
                .httpPort(0)
                .pollWaitSeconds(1)
                .property("ImageQueue.VisibilityTimeout", "" + VISIBILITY_TIMEOUT_SECONDS)
                .property(WORKER + ".Timeout", "" + WORKER_TIMEOUT_SECONDS)
                .property("CapabilityDeclarationsLayer.ContentUri", declarations.toString())
                .build());
    maxReceiveCount = maxReceiveCount("ImageQueue");
    assertThat(maxReceiveCount)
        .as("the template's maxReceiveCount of the image queue")
        .isEqualTo(3);
    api = new DeriveApi(cloud.apiUri());
    sourceKey = api.upload(source);
  }

  /**
   * A copy of the build's declarations layer in which the image declaration has this time budget.
   */
  private static Path declarationsWithImageTimeBudget(
      Path layer, int timeoutSeconds, int leaseSeconds) throws IOException {
    Path copy = dir.resolve("capability-layer");
    try (Stream<Path> files = Files.walk(layer)) {
      for (Path file : files.toList()) {
        Path target = copy.resolve(layer.relativize(file).toString());
        if (Files.isDirectory(file)) {
          Files.createDirectories(target);
        } else {
          Files.copy(file, target);
        }
      }
    }
    Path image = copy.resolve("derive/capabilities/image-worker/capability.json");
    ObjectNode declaration = (ObjectNode) JSON.readTree(image.toFile());
    declaration
        .putObject("timeBudget")
        .put("timeoutSeconds", timeoutSeconds)
        .put("leaseSeconds", leaseSeconds);
    JSON.writeValue(image.toFile(), declaration);
    return copy;
  }

  @AfterAll
  static void stop() {
    if (cloud != null) {
      cloud.close();
    }
  }

  @Test
  void aWorkerKilledMidStepIsReplacedAndTheJobSucceedsOnTheRedelivery() throws Exception {
    long deliveredBefore = cloud.deliveredMessages(WORKER);
    long started = System.nanoTime();
    String id = api.id(requestPng(1600));

    JsonNode running = killWhileRunning(id, 1);
    JsonNode done = api.awaitSucceeded(id);

    assertThat(running.path("status").asText()).isEqualTo("RUNNING");
    JsonNode step = done.path("steps").get(0);
    assertThat(step.path("status").asText()).isEqualTo("SUCCEEDED");
    assertThat(step.path("attempts").asInt()).as("the redelivery's attempt").isEqualTo(2);
    assertQuadrants(api.download(done), 1600, 1200);
    assertThat(cloud.deliveredMessages(WORKER) - deliveredBefore).isEqualTo(2);
    assertThat(stepLogLines(id))
        .as("one step log line: the killed delivery never finished")
        .singleElement()
        .satisfies(line -> assertThat(line).contains("\"outcome\":\"succeeded\""));
    System.out.printf(
        "worker loss: job %s killed at attempt 1, SUCCEEDED at attempt 2 after %d s%n",
        id.substring(0, 12), secondsSince(started));
  }

  @Test
  void aStepWhoseWorkerDiesOnEveryDeliveryFailsAsDeadLetteredAndAnIdenticalRequestRunsItAgain()
      throws Exception {
    long started = System.nanoTime();
    String id = api.id(requestPng(1200));
    String firstExecution = executionId(id);

    for (int attempt = 1; attempt <= maxReceiveCount; attempt++) {
      killWhileRunning(id, attempt);
    }
    JsonNode failed = api.awaitTerminal(id);

    assertThat(failed.path("status").asText()).as(failed.toString()).isEqualTo("FAILED");
    JsonNode error = failed.path("error");
    assertThat(error.path("type").asText()).endsWith("/dead-lettered");
    assertThat(error.path("retryable").asBoolean()).isTrue();
    assertThat(error.path("step").asInt()).as("numbered from 1").isEqualTo(1);
    assertThat(error.path("detail").asText()).contains("step 1 of 1 (image)");
    assertThat(failed.path("steps").get(0).path("status").asText()).isEqualTo("FAILED");

    long failedAfter = secondsSince(started);

    // The cause is gone (nothing kills the worker any more): the same request runs it again.
    long again0 = System.nanoTime();
    HttpResponse<String> again = requestPng(1200);

    assertThat(again.statusCode()).as(again.body()).isEqualTo(202);
    assertThat(api.id(again)).isEqualTo(id);
    assertThat(executionId(id)).as("a new execution").isNotEqualTo(firstExecution);
    JsonNode done = api.awaitSucceeded(id);
    assertThat(done.path("steps").get(0).path("attempts").asInt()).isEqualTo(1);
    assertQuadrants(api.download(done), 1200, 900);
    System.out.printf(
        "dead letter: job %s killed at attempts 1..%d, FAILED after %d s (%s), the identical"
            + " request SUCCEEDED in a new execution after %d s%n",
        id.substring(0, 12),
        maxReceiveCount,
        failedAfter,
        error.path("detail").asText(),
        secondsSince(again0));
  }

  private static long secondsSince(long nanos) {
    return TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - nanos);
  }

  // ------------------------------------------------------------------ helpers

  /**
   * Waits until GET shows the job's only step RUNNING with {@code attempt} (the worker's started
   * report), then SIGKILLs the one worker process running an invocation, and checks the job did not
   * move on meanwhile. Returns the job as GET showed it before the kill.
   */
  private static JsonNode killWhileRunning(String id, int attempt) throws Exception {
    JsonNode seen =
        awaitJob(
            id,
            job ->
                job.path("steps").get(0).path("status").asText().equals("RUNNING")
                    && job.path("steps").get(0).path("attempts").asInt() == attempt,
            "step 1 RUNNING with attempt " + attempt);
    List<Long> busy = cloud.busyProcessIds(WORKER);
    assertThat(busy).as("image worker processes running an invocation").hasSize(1);
    ProcessHandle worker = ProcessHandle.of(busy.get(0)).orElseThrow();
    assertThat(worker.destroyForcibly()).as("SIGKILL sent").isTrue();
    worker.onExit().get(10, TimeUnit.SECONDS);

    JsonNode after = job(id);
    assertThat(after.path("status").asText()).as("killed mid-step: " + after).isEqualTo("RUNNING");
    assertThat(after.path("steps").get(0).path("attempts").asInt()).isEqualTo(attempt);
    assertThat(cloud.functionLog(WORKER))
        .anyMatch(line -> line.endsWith("Error: Runtime exited with signal: killed"));
    return seen;
  }

  private static HttpResponse<String> requestPng(int width) throws Exception {
    return api.post(
        "/v1/derivatives",
        "{\"source\":{\"key\":"
            + JSON.writeValueAsString(sourceKey)
            + "},\"target\":{\"mediaType\":\"image/png\",\"width\":"
            + width
            + ",\"height\":"
            + width
            + ",\"fit\":\"inside\"}}");
  }

  private static JsonNode job(String id) throws Exception {
    HttpResponse<String> response = api.get("/v1/derivatives/" + id);
    assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
    return JSON.readTree(response.body());
  }

  /** Polls GET every 50 ms until {@code until} holds; fails if the job ends first. */
  private static JsonNode awaitJob(String id, Predicate<JsonNode> until, String what)
      throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
    JsonNode job = null;
    while (System.nanoTime() < deadline) {
      job = job(id);
      if (until.test(job)) {
        return job;
      }
      String status = job.path("status").asText();
      if (status.equals("SUCCEEDED") || status.equals("FAILED")) {
        return fail("job " + id + " ended before " + what + ": " + job);
      }
      Thread.sleep(50);
    }
    return fail("job " + id + " did not reach " + what + " within 90 s; last seen " + job);
  }

  /** The worker's one-per-record step log lines of job {@code id}. */
  private static List<String> stepLogLines(String id) {
    return cloud.functionLog(WORKER).stream()
        .filter(line -> line.contains("\"event\":\"step\"") && line.contains(id))
        .toList();
  }

  /** The job record's current execution, read from the jobs table. */
  private static String executionId(String id) {
    try (DynamoDbClient dynamoDb = AwsClients.dynamoDb(cloud.endpoint())) {
      Map<String, AttributeValue> item =
          dynamoDb
              .getItem(
                  b ->
                      b.tableName(cloud.tableName("JobsTable"))
                          .key(Map.of("jobId", AttributeValue.fromS(id)))
                          .consistentRead(true))
              .item();
      assertThat(item).as("job " + id + " in the jobs table").containsKey("executionId");
      return item.get("executionId").s();
    }
  }

  private static int maxReceiveCount(String queue) throws IOException {
    try (SqsClient sqs = AwsClients.sqs(cloud.endpoint())) {
      String policy =
          sqs.getQueueAttributes(
                  b ->
                      b.queueUrl(cloud.queueUrl(queue))
                          .attributeNames(QueueAttributeName.REDRIVE_POLICY))
              .attributes()
              .get(QueueAttributeName.REDRIVE_POLICY);
      return JSON.readTree(policy).path("maxReceiveCount").asInt();
    }
  }

  /** Four flat quadrants: red, green / blue, yellow. */
  private static BufferedImage quadrants(int width, int height) {
    BufferedImage image = new BufferedImage(width, height, BufferedImage.TYPE_INT_RGB);
    Graphics2D g = image.createGraphics();
    List<Color> colours =
        new ArrayList<>(List.of(Color.RED, Color.GREEN, Color.BLUE, Color.YELLOW));
    for (int i = 0; i < 4; i++) {
      g.setColor(colours.get(i));
      g.fillRect((i % 2) * width / 2, (i / 2) * height / 2, width / 2, height / 2);
    }
    g.dispose();
    return image;
  }

  /** The derivative is a {@code width}×{@code height} PNG with the source's four quadrants. */
  private static void assertQuadrants(byte[] png, int width, int height) throws IOException {
    assertThat(png).startsWith(0x89, 'P', 'N', 'G');
    BufferedImage image = ImageIO.read(new ByteArrayInputStream(png));
    assertThat(image).as("a decodable PNG").isNotNull();
    assertThat(image.getWidth()).isEqualTo(width);
    assertThat(image.getHeight()).isEqualTo(height);
    int[][] centres = {
      {width / 4, height / 4}, {3 * width / 4, height / 4},
      {width / 4, 3 * height / 4}, {3 * width / 4, 3 * height / 4}
    };
    int[] expected = {0xFF0000, 0x00FF00, 0x0000FF, 0xFFFF00};
    for (int i = 0; i < 4; i++) {
      assertThat(image.getRGB(centres[i][0], centres[i][1]) & 0xFFFFFF)
          .as("quadrant " + i)
          .isEqualTo(expected[i]);
    }
  }
}
