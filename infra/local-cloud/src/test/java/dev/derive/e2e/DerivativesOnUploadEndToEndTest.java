package dev.derive.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.derive.infra.endpoint.AwsClients;
import dev.derive.infra.local.LocalCloud;
import dev.derive.infra.local.LocalCloudOptions;
import java.awt.image.BufferedImage;
import java.io.ByteArrayInputStream;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.BooleanSupplier;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.ChecksumAlgorithm;
import software.amazon.awssdk.services.s3.model.S3Object;
import software.amazon.awssdk.services.sqs.SqsClient;

/**
 * Derivatives on upload (docs/derivatives-on-upload.md) end to end on the local cloud: the
 * repository's {@code template.yaml} with {@code UploadPresets=uploads/=thumb,preview}, so the
 * source bucket's EventBridge notification, the upload-events rule, its queue and the upload-events
 * function exist. A photo uploaded through a presigned upload gets its {@code thumb} and {@code
 * preview} in the derivatives bucket without any derivative request; a JSON request for the preset
 * afterwards is a cache hit on the very object; the same bytes uploaded again to the key start no
 * execution; a key under no configured prefix gets nothing; a duplicate event starts nothing and a
 * message that is no S3 event is dropped, not retried.
 */
class DerivativesOnUploadEndToEndTest {
  private static final String WORKER = "ImageWorkerFunction";
  private static final String UPLOAD_EVENTS = "CoordinatorUploadEventsFunction";
  private static final Duration PATIENCE = Duration.ofSeconds(120);

  private static LocalCloud cloud;
  private static DeriveApi api;
  private static S3Client s3;
  private static Path photo;
  private static String derivatives;
  private static String source;

  @BeforeAll
  static void startTheTemplateWithUploadPresets() {
    Path root = SharedLocalCloud.repositoryRoot();
    SharedLocalCloud.requireFunctionZips(root);
    photo =
        Path.of(System.getProperty("derive.samples", root + "/../shared/samples"))
            .toAbsolutePath()
            .resolve("exif/Landscape_1.jpg");
    cloud =
        LocalCloud.start(
            LocalCloudOptions.builder(root.resolve("template.yaml"))
                .workDir(root.resolve("infra/local-cloud/target/e2e-upload-presets-cloud"))
                .httpPort(0)
                .parameter("UploadPresets", "uploads/=thumb,preview")
                .build());
    api = new DeriveApi(cloud.apiUri());
    s3 = AwsClients.s3(cloud.endpoint());
    derivatives = cloud.bucketName("DerivativesBucket");
    source = cloud.bucketName("SourceBucket");
  }

  @AfterAll
  static void stop() {
    if (s3 != null) {
      s3.close();
    }
    if (cloud != null) {
      cloud.close();
    }
  }

  @Test
  void anUploadGetsItsPresetsWithoutARequestAndTheSameBytesAgainStartNothing() throws Exception {
    Map<String, S3Object> before = derivativeObjects();
    long eventsBefore = cloud.deliveredMessages(UPLOAD_EVENTS);

    String key = api.upload(photo);

    assertThat(key).startsWith("uploads/");
    Map<String, S3Object> made = awaitNewDerivatives(before, 2);
    assertThat(made).hasSize(2);
    assertThat(cloud.deliveredMessages(UPLOAD_EVENTS) - eventsBefore).isEqualTo(1);
    List<Integer> longSides =
        made.keySet().stream().map(DerivativesOnUploadEndToEndTest::longSide).sorted().toList();
    assertThat(longSides).containsExactly(256, 1024);

    HttpResponse thumb = request(key, "thumb");
    assertThat(thumb.status()).as(thumb.body().toString()).isEqualTo(200);
    assertThat(thumb.body().path("outcome").asText("cached")).isEqualTo("cached");
    assertThat(made).containsKey("derivatives/" + thumb.body().path("id").asText());

    long workerBefore = cloud.deliveredMessages(WORKER);
    long eventsBeforeAgain = cloud.deliveredMessages(UPLOAD_EVENTS);
    // with their SHA-256, which S3 checks and keeps, as POST /v1/uploads had it signed: the same
    // bytes are then known as the same source (another version without it, and made again)
    s3.putObject(
        b -> b.bucket(source).key(key).checksumAlgorithm(ChecksumAlgorithm.SHA256),
        RequestBody.fromFile(photo));
    s3.putObject(
        b ->
            b.bucket(source)
                .key("elsewhere/" + photo.getFileName())
                .checksumAlgorithm(ChecksumAlgorithm.SHA256),
        RequestBody.fromFile(photo));

    await(() -> cloud.deliveredMessages(UPLOAD_EVENTS) - eventsBeforeAgain >= 2);
    await(
        () ->
            cloud.functionLog(UPLOAD_EVENTS).stream()
                    .filter(l -> l.contains("upload " + key) && l.contains("(cached)"))
                    .count()
                >= 2);
    Thread.sleep(1_000); // a step queued by mistake would reach the worker within this
    assertThat(cloud.deliveredMessages(WORKER)).as("no new execution").isEqualTo(workerBefore);
    Map<String, S3Object> expected = new TreeMap<>(before);
    expected.putAll(made);
    assertThat(derivativeObjects().keySet()).isEqualTo(expected.keySet());

    // The same event delivered again (SQS and EventBridge deliver at least once) and a message
    // that is no S3 event: neither starts anything, neither is retried into the dead-letter queue.
    long eventsBeforeDuplicate = cloud.deliveredMessages(UPLOAD_EVENTS);
    String queue = cloud.queueUrl("UploadEventsQueue");
    try (SqsClient sqs = AwsClients.sqs(cloud.endpoint())) {
      sqs.sendMessage(b -> b.queueUrl(queue).messageBody(objectCreated(source, key)));
      sqs.sendMessage(b -> b.queueUrl(queue).messageBody("{\"not\":\"an event\"}"));
      await(() -> cloud.deliveredMessages(UPLOAD_EVENTS) - eventsBeforeDuplicate >= 2);
      Thread.sleep(1_000);
      assertThat(cloud.deliveredMessages(WORKER))
          .as("no execution for a duplicate")
          .isEqualTo(workerBefore);
      assertThat(cloud.deliveredMessages(UPLOAD_EVENTS) - eventsBeforeDuplicate)
          .as("both acknowledged, none delivered again")
          .isEqualTo(2);
      String dlq = cloud.queueUrl("UploadEventsDeadLetterQueue");
      assertThat(sqs.receiveMessage(b -> b.queueUrl(dlq).waitTimeSeconds(1)).messages()).isEmpty();
    }
  }

  /** An S3 {@code Object Created} event as EventBridge puts it on the queue. */
  private static String objectCreated(String bucket, String key) {
    return "{\"version\":\"0\",\"id\":\"duplicate\",\"detail-type\":\"Object Created\","
        + "\"source\":\"aws.s3\",\"detail\":{\"bucket\":{\"name\":\""
        + bucket
        + "\"},\"object\":{\"key\":\""
        + key
        + "\"}}}";
  }

  private record HttpResponse(int status, JsonNode body) {}

  private static HttpResponse request(String key, String preset) throws Exception {
    var response =
        api.post(
            "/v1/derivatives",
            "{\"source\":{\"key\":"
                + api.json.writeValueAsString(key)
                + "},\"preset\":\""
                + preset
                + "\"}");
    return new HttpResponse(response.statusCode(), api.json.readTree(response.body()));
  }

  private static Map<String, S3Object> derivativeObjects() {
    Map<String, S3Object> objects = new TreeMap<>();
    s3.listObjectsV2Paginator(b -> b.bucket(derivatives).prefix("derivatives/"))
        .contents()
        .forEach(o -> objects.put(o.key(), o));
    return objects;
  }

  private static Map<String, S3Object> awaitNewDerivatives(Map<String, S3Object> before, int count)
      throws InterruptedException {
    Instant deadline = Instant.now().plus(PATIENCE);
    Map<String, S3Object> made = new TreeMap<>();
    while (Instant.now().isBefore(deadline)) {
      made = new TreeMap<>(derivativeObjects());
      made.keySet().removeAll(before.keySet());
      if (made.size() >= count) {
        return made;
      }
      Thread.sleep(250);
    }
    return made;
  }

  private static void await(BooleanSupplier condition) throws InterruptedException {
    Instant deadline = Instant.now().plus(PATIENCE);
    while (!condition.getAsBoolean()) {
      assertThat(Instant.now()).as("waited %s", PATIENCE).isBefore(deadline);
      Thread.sleep(250);
    }
  }

  private static int longSide(String key) {
    try {
      byte[] bytes = s3.getObjectAsBytes(b -> b.bucket(derivatives).key(key)).asByteArray();
      BufferedImage image = ImageIO.read(new ByteArrayInputStream(bytes));
      assertThat(image).as(key + " is a JPEG").isNotNull();
      return Math.max(image.getWidth(), image.getHeight());
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }
}
