package dev.derive.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.derive.infra.endpoint.AwsClients;
import dev.derive.infra.local.LocalCloud;
import java.awt.image.BufferedImage;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.QueueAttributeName;

/**
 * Derive end to end on the local cloud: the packaged function.zip artifacts run from {@code
 * template.yaml} against a real moto server, and this test talks to them over HTTP only (the API,
 * and the presigned S3 URLs the API hands out).
 */
@ExtendWith(LocalCloudExtension.class)
class ThumbnailEndToEndTest {
  private static final String WORKER = "ImageWorkerFunction";

  private LocalCloud cloud;
  private Path samples;
  private DeriveApi api;

  @BeforeEach
  void useTheSharedLocalCloud(SharedLocalCloud shared) {
    cloud = shared.cloud();
    samples = shared.samples();
    api = new DeriveApi(cloud.apiUri());
  }

  @Test
  void everyExifPhotoBecomesAnUprightThumbnailWithLongestSide256() throws Exception {
    List<Path> photos;
    try (Stream<Path> files = Files.list(samples.resolve("exif"))) {
      photos = files.filter(p -> p.toString().endsWith(".jpg")).sorted().toList();
    }
    assertThat(photos).hasSize(8);

    Map<Path, String> jobs = new LinkedHashMap<>();
    for (Path photo : photos) {
      String key = api.upload(photo);
      HttpResponse<String> response = requestThumbnail(key, 256);
      assertThat(response.statusCode()).as(photo + ": " + response.body()).isEqualTo(202);
      String id = api.id(response);
      assertThat(response.headers().firstValue("location"))
          .hasValueSatisfying(location -> assertThat(location).endsWith("/v1/derivatives/" + id));
      jobs.put(photo, id);
    }

    for (Map.Entry<Path, String> job : jobs.entrySet()) {
      JsonNode done = api.awaitSucceeded(job.getValue());
      BufferedImage thumbnail = thumbnail(done);
      String name = job.getKey().getFileName().toString();
      assertThat(Math.max(thumbnail.getWidth(), thumbnail.getHeight())).as(name).isEqualTo(256);
      assertThat(thumbnail.getWidth() > thumbnail.getHeight())
          .as(name + " is " + thumbnail.getWidth() + "x" + thumbnail.getHeight())
          .isEqualTo(name.startsWith("Landscape"));
    }
  }

  @Test
  void aRepeatedRequestIsAnsweredFromTheCacheWithoutQueueingWork() throws Exception {
    String key = api.upload(samples.resolve("exif/Portrait_5.jpg"));
    String id = api.id(requestThumbnail(key, 128));
    api.awaitSucceeded(id);
    long deliveredBefore = cloud.deliveredMessages(WORKER);

    HttpResponse<String> again = requestThumbnail(key, 128);

    assertThat(again.statusCode()).as(again.body()).isEqualTo(200);
    JsonNode body = api.json.readTree(again.body());
    assertThat(body.path("id").asText()).isEqualTo(id);
    assertThat(body.path("status").asText()).isEqualTo("SUCCEEDED");
    assertThat(thumbnail(body).getHeight()).isEqualTo(128);
    Thread.sleep(1500); // a message, had one been sent, would have been received by now
    assertThat(cloud.deliveredMessages(WORKER)).isEqualTo(deliveredBefore);
    assertThat(messagesIn("ImageQueue")).isZero();
  }

  @Test
  void twentyConcurrentIdenticalRequestsShareOneJobAndOneExecution() throws Exception {
    String key = api.upload(samples.resolve("exif/Landscape_3.jpg"));
    long deliveredBefore = cloud.deliveredMessages(WORKER);
    int clients = 20;
    CountDownLatch start = new CountDownLatch(1);
    ExecutorService pool = Executors.newFixedThreadPool(clients);
    List<Future<HttpResponse<String>>> responses = new ArrayList<>();
    try {
      for (int i = 0; i < clients; i++) {
        Callable<HttpResponse<String>> call =
            () -> {
              start.await();
              return requestThumbnail(key, 200);
            };
        responses.add(pool.submit(call));
      }
      start.countDown();
      Set<String> ids = new java.util.HashSet<>();
      for (Future<HttpResponse<String>> response : responses) {
        HttpResponse<String> r = response.get();
        assertThat(r.statusCode()).as(r.body()).isIn(200, 202);
        ids.add(api.id(r));
      }
      assertThat(ids).hasSize(1);
      String id = ids.iterator().next();
      api.awaitSucceeded(id);

      List<String> executions =
          cloud.functionLog(WORKER).stream()
              .filter(line -> line.contains("\"event\":\"step\"") && line.contains(id))
              .toList();
      assertThat(executions).as("worker step log lines for job " + id).hasSize(1);
      assertThat(executions.get(0)).contains("\"outcome\":\"succeeded\"");
      assertThat(cloud.deliveredMessages(WORKER) - deliveredBefore).isEqualTo(1);
    } finally {
      pool.shutdownNow();
    }
  }

  @Test
  void aMissingSourceIsA404ProblemNamingTheKey() throws Exception {
    HttpResponse<String> response = requestThumbnail("no/such/photo.jpg", 256);
    assertProblem(response, 404, "/source/key");
  }

  @Test
  void malformedJsonIsA400Problem() throws Exception {
    HttpResponse<String> response = api.post("/v1/derivatives", "{\"source\":{\"key\":");
    assertThat(response.statusCode()).isEqualTo(400);
    assertThat(response.headers().firstValue("content-type"))
        .hasValueSatisfying(v -> assertThat(v).startsWith("application/problem+json"));
    assertThat(api.json.readTree(response.body()).path("type").asText()).isNotBlank();
  }

  @Test
  void aWidthOfZeroOrAHundredThousandIsA400ProblemNamingTheField() throws Exception {
    String key = api.upload(samples.resolve("exif/Landscape_1.jpg"));
    assertProblem(requestThumbnail(key, 0), 400, "/target/width");
    assertProblem(requestThumbnail(key, 100_000), 400, "/target/width");
  }

  // ------------------------------------------------------------------ helpers

  private HttpResponse<String> requestThumbnail(String key, int size)
      throws IOException, InterruptedException {
    return api.post(
        "/v1/derivatives",
        "{\"source\":{\"key\":"
            + api.json.writeValueAsString(key)
            + "},\"target\":{\"mediaType\":\"image/jpeg\",\"width\":"
            + size
            + ",\"height\":"
            + size
            + ",\"fit\":\"inside\"}}");
  }

  private BufferedImage thumbnail(JsonNode succeeded) throws IOException, InterruptedException {
    byte[] bytes = api.download(succeeded);
    assertThat(bytes).startsWith((byte) 0xFF, (byte) 0xD8, (byte) 0xFF);
    BufferedImage image = ImageIO.read(new ByteArrayInputStream(bytes));
    assertThat(image).as("a decodable JPEG").isNotNull();
    return image;
  }

  private void assertProblem(HttpResponse<String> response, int status, String pointer)
      throws IOException {
    assertThat(response.statusCode()).as(response.body()).isEqualTo(status);
    assertThat(response.headers().firstValue("content-type"))
        .hasValueSatisfying(v -> assertThat(v).startsWith("application/problem+json"));
    JsonNode problem = api.json.readTree(response.body());
    assertThat(problem.path("status").asInt()).isEqualTo(status);
    assertThat(problem.path("type").asText()).isNotBlank();
    assertThat(response.body()).contains(pointer);
  }

  private int messagesIn(String queueLogicalId) {
    try (SqsClient sqs = AwsClients.sqs(cloud.endpoint())) {
      Map<QueueAttributeName, String> attributes =
          sqs.getQueueAttributes(
                  b ->
                      b.queueUrl(cloud.queueUrl(queueLogicalId))
                          .attributeNames(
                              QueueAttributeName.APPROXIMATE_NUMBER_OF_MESSAGES,
                              QueueAttributeName.APPROXIMATE_NUMBER_OF_MESSAGES_NOT_VISIBLE))
              .attributes();
      return attributes.values().stream().collect(Collectors.summingInt(Integer::parseInt));
    }
  }
}
