package dev.derive.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.derive.infra.endpoint.AwsClients;
import dev.derive.infra.local.LocalCloud;
import dev.derive.infra.local.LocalCloudOptions;
import java.awt.image.BufferedImage;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
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
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.QueueAttributeName;

/**
 * Derive end to end on the local cloud: the packaged function.zip artifacts run from {@code
 * template.yaml} against a real moto server, and this test talks to them over HTTP only (the API,
 * and the presigned S3 URLs the API hands out).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ThumbnailEndToEndTest {
  private static final String WORKER = "ImageWorkerFunction";
  private static final Duration JOB_TIMEOUT = Duration.ofSeconds(120);

  private final ObjectMapper json = new ObjectMapper();
  private final HttpClient http =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
  private final Map<String, String> sourceKeys = new LinkedHashMap<>();
  private LocalCloud cloud;
  private Path samples;

  @BeforeAll
  void startTheLocalCloud() throws Exception {
    Path root = Path.of(System.getProperty("derive.root", "../..")).toAbsolutePath().normalize();
    samples = Path.of(System.getProperty("derive.samples", root + "/../shared/samples"));
    if (!Files.isDirectory(samples.resolve("exif"))) {
      fail(
          "The sample corpus is missing at "
              + samples
              + ": put ../shared/samples beside the clone or pass -Dderive.samples=/path");
    }
    for (String zip :
        List.of(
            "coordinator-function/coordinator-api/target/function.zip",
            "coordinator-function/coordinator-progress/target/function.zip",
            "worker-functions/image-worker/target/function.zip")) {
      if (!Files.isRegularFile(root.resolve(zip))) {
        fail(root.resolve(zip) + " is missing: run the tests from the root with ./derive test");
      }
    }
    cloud =
        LocalCloud.start(
            LocalCloudOptions.builder(root.resolve("template.yaml"))
                .workDir(root.resolve("infra/local-cloud/target/e2e-cloud"))
                .httpPort(0)
                .build());
  }

  @AfterAll
  void stopTheLocalCloud() {
    if (cloud != null) {
      cloud.close();
    }
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
      String key = upload(photo);
      HttpResponse<String> response = requestThumbnail(key, 256);
      assertThat(response.statusCode()).as(photo + ": " + response.body()).isEqualTo(202);
      String id = id(response);
      assertThat(response.headers().firstValue("location"))
          .hasValueSatisfying(location -> assertThat(location).endsWith("/v1/derivatives/" + id));
      jobs.put(photo, id);
    }

    for (Map.Entry<Path, String> job : jobs.entrySet()) {
      JsonNode done = awaitSucceeded(job.getValue());
      BufferedImage thumbnail = download(done);
      String name = job.getKey().getFileName().toString();
      assertThat(Math.max(thumbnail.getWidth(), thumbnail.getHeight())).as(name).isEqualTo(256);
      assertThat(thumbnail.getWidth() > thumbnail.getHeight())
          .as(name + " is " + thumbnail.getWidth() + "x" + thumbnail.getHeight())
          .isEqualTo(name.startsWith("Landscape"));
    }
  }

  @Test
  void aRepeatedRequestIsAnsweredFromTheCacheWithoutQueueingWork() throws Exception {
    String key = upload(samples.resolve("exif/Portrait_5.jpg"));
    String id = id(requestThumbnail(key, 128));
    awaitSucceeded(id);
    long deliveredBefore = cloud.deliveredMessages(WORKER);

    HttpResponse<String> again = requestThumbnail(key, 128);

    assertThat(again.statusCode()).as(again.body()).isEqualTo(200);
    JsonNode body = json.readTree(again.body());
    assertThat(body.path("id").asText()).isEqualTo(id);
    assertThat(body.path("status").asText()).isEqualTo("SUCCEEDED");
    assertThat(download(body).getHeight()).isEqualTo(128);
    Thread.sleep(1500); // a message, had one been sent, would have been received by now
    assertThat(cloud.deliveredMessages(WORKER)).isEqualTo(deliveredBefore);
    assertThat(messagesIn("ImageQueue")).isZero();
  }

  @Test
  void twentyConcurrentIdenticalRequestsShareOneJobAndOneExecution() throws Exception {
    String key = upload(samples.resolve("exif/Landscape_3.jpg"));
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
        ids.add(id(r));
      }
      assertThat(ids).hasSize(1);
      String id = ids.iterator().next();
      awaitSucceeded(id);

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
    HttpResponse<String> response = post("/v1/derivatives", "{\"source\":{\"key\":");
    assertThat(response.statusCode()).isEqualTo(400);
    assertThat(response.headers().firstValue("content-type"))
        .hasValueSatisfying(v -> assertThat(v).startsWith("application/problem+json"));
    assertThat(json.readTree(response.body()).path("type").asText()).isNotBlank();
  }

  @Test
  void aWidthOfZeroOrAHundredThousandIsA400ProblemNamingTheField() throws Exception {
    String key = upload(samples.resolve("exif/Landscape_1.jpg"));
    assertProblem(requestThumbnail(key, 0), 400, "/target/width");
    assertProblem(requestThumbnail(key, 100_000), 400, "/target/width");
  }

  // ------------------------------------------------------------------ helpers

  /** Uploads a file through the API's presigned upload and returns its source key. */
  private String upload(Path file) throws IOException, InterruptedException {
    String cached = sourceKeys.get(file.toString());
    if (cached != null) {
      return cached;
    }
    byte[] bytes = Files.readAllBytes(file);
    HttpResponse<String> created =
        post(
            "/v1/uploads",
            json.writeValueAsString(
                Map.of(
                    "fileName",
                    file.getFileName().toString(),
                    "contentType",
                    "image/jpeg",
                    "size",
                    bytes.length)));
    assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
    JsonNode upload = json.readTree(created.body());
    HttpRequest.Builder put =
        HttpRequest.newBuilder(URI.create(upload.path("upload").path("url").asText()))
            .PUT(HttpRequest.BodyPublishers.ofByteArray(bytes));
    upload
        .path("upload")
        .path("headers")
        .fields()
        .forEachRemaining(h -> put.header(h.getKey(), h.getValue().asText()));
    HttpResponse<String> stored = http.send(put.build(), HttpResponse.BodyHandlers.ofString());
    assertThat(stored.statusCode()).as(stored.body()).isEqualTo(200);
    String key = upload.path("key").asText();
    sourceKeys.put(file.toString(), key);
    return key;
  }

  private HttpResponse<String> requestThumbnail(String key, int size)
      throws IOException, InterruptedException {
    return post(
        "/v1/derivatives",
        "{\"source\":{\"key\":"
            + json.writeValueAsString(key)
            + "},\"target\":{\"mediaType\":\"image/jpeg\",\"width\":"
            + size
            + ",\"height\":"
            + size
            + ",\"fit\":\"inside\"}}");
  }

  private HttpResponse<String> post(String path, String body)
      throws IOException, InterruptedException {
    return http.send(
        HttpRequest.newBuilder(cloud.apiUri().resolve(path))
            .header("content-type", "application/json")
            .POST(HttpRequest.BodyPublishers.ofString(body))
            .build(),
        HttpResponse.BodyHandlers.ofString());
  }

  private JsonNode awaitSucceeded(String id) throws IOException, InterruptedException {
    long deadline = System.nanoTime() + JOB_TIMEOUT.toNanos();
    JsonNode job = null;
    while (System.nanoTime() < deadline) {
      HttpResponse<String> response =
          http.send(
              HttpRequest.newBuilder(cloud.apiUri().resolve("/v1/derivatives/" + id)).build(),
              HttpResponse.BodyHandlers.ofString());
      assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
      job = json.readTree(response.body());
      String status = job.path("status").asText();
      if (status.equals("SUCCEEDED")) {
        return job;
      }
      assertThat(status).as(response.body()).isIn("PENDING", "RUNNING");
      Thread.sleep(250);
    }
    return fail("job " + id + " did not succeed within " + JOB_TIMEOUT + "; last seen " + job);
  }

  private BufferedImage download(JsonNode succeeded) throws IOException, InterruptedException {
    String url = succeeded.path("download").path("url").asText();
    assertThat(url).as(succeeded.toString()).startsWith("http");
    HttpResponse<byte[]> response =
        http.send(
            HttpRequest.newBuilder(URI.create(url)).build(),
            HttpResponse.BodyHandlers.ofByteArray());
    assertThat(response.statusCode()).isEqualTo(200);
    byte[] bytes = response.body();
    assertThat(bytes).startsWith((byte) 0xFF, (byte) 0xD8, (byte) 0xFF);
    BufferedImage image = ImageIO.read(new ByteArrayInputStream(bytes));
    assertThat(image).as("a decodable JPEG").isNotNull();
    return image;
  }

  private String id(HttpResponse<String> response) throws IOException {
    return json.readTree(response.body()).path("id").asText();
  }

  private void assertProblem(HttpResponse<String> response, int status, String pointer)
      throws IOException {
    assertThat(response.statusCode()).as(response.body()).isEqualTo(status);
    assertThat(response.headers().firstValue("content-type"))
        .hasValueSatisfying(v -> assertThat(v).startsWith("application/problem+json"));
    JsonNode problem = json.readTree(response.body());
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
