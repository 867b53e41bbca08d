package dev.derive.worker.image;

import static org.assertj.core.api.Assertions.assertThat;

import com.amazonaws.services.lambda.runtime.events.SQSBatchResponse;
import com.amazonaws.services.lambda.runtime.events.SQSBatchResponse.BatchItemFailure;
import com.amazonaws.services.lambda.runtime.events.SQSEvent;
import com.amazonaws.services.lambda.runtime.events.SQSEvent.SQSMessage;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.derive.aws.s3.S3ObjectStore;
import dev.derive.infra.endpoint.AwsClients;
import dev.derive.infra.endpoint.AwsEndpoint;
import dev.derive.infra.endpoint.MotoServerEndpoint;
import dev.derive.protocol.MediaTypes;
import dev.derive.protocol.message.MessageCodec;
import dev.derive.protocol.message.ObjectRef;
import dev.derive.protocol.message.Operation;
import dev.derive.protocol.message.PinnedObject;
import dev.derive.protocol.message.StepErrorTypes;
import dev.derive.protocol.message.StepMessage;
import dev.derive.protocol.message.StepResult;
import dev.derive.worker.runtime.DeclaredStep;
import dev.derive.worker.runtime.StepLog;
import dev.derive.worker.runtime.StepTransformer;
import dev.derive.worker.runtime.StepWorker;
import dev.derive.worker.runtime.WorkerSettings;
import dev.derive.worker.runtime.aws.SqsStepResultPublisher;
import dev.derive.worker.runtime.lambda.StepBatchProcessor;
import dev.derive.worker.runtime.report.StepResultPublisher;
import java.awt.Color;
import java.awt.image.BufferedImage;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.core.ResponseBytes;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.GetObjectResponse;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.Message;

/**
 * The worker runtime with the image transformer against a real moto server over the real SDK: S3 in
 * and out, step messages through a real SQS queue, step results on the step-results queue.
 */
class ImageStepsOnMotoTest {
  private static final String SOURCE = "derive-source";
  private static final String DERIVATIVES = "derive-derivatives";
  private static final ObjectMapper JSON = new ObjectMapper();

  private static AwsEndpoint endpoint;
  private static S3Client s3;
  private static SqsClient sqs;
  private static String imageQueue;
  private static String resultsQueue;

  @TempDir Path tempDir;

  private final AtomicInteger transforms = new AtomicInteger();
  private final ByteArrayOutputStream logBytes = new ByteArrayOutputStream();

  @BeforeAll
  static void startEndpoint() {
    endpoint = MotoServerEndpoint.start(Path.of("target", "moto-image-worker.log"));
    s3 = AwsClients.s3(endpoint);
    sqs = AwsClients.sqs(endpoint);
    s3.createBucket(b -> b.bucket(SOURCE));
    s3.createBucket(b -> b.bucket(DERIVATIVES));
    imageQueue = sqs.createQueue(q -> q.queueName("image")).queueUrl();
    resultsQueue = sqs.createQueue(q -> q.queueName("step-results")).queueUrl();
  }

  @AfterAll
  static void stopEndpoint() {
    if (s3 != null) {
      s3.close();
      sqs.close();
    }
    if (endpoint != null) {
      endpoint.close();
    }
  }

  @BeforeEach
  void emptyResults() {
    sqs.purgeQueue(p -> p.queueUrl(resultsQueue));
  }

  @Test
  void batchWritesOutputsReportsPoisonAsFailedAndReusesExistingOutputs() throws IOException {
    ObjectRef photo = ObjectRef.of(SOURCE, "photos/photo.jpg");
    ObjectRef corrupt = ObjectRef.of(SOURCE, "photos/corrupt.jpg");
    put(photo, TestImages.encode(TestImages.quadrants(800, 600), "jpg"), MediaTypes.IMAGE_JPEG);
    put(corrupt, TestImages.corruptJpeg(), MediaTypes.IMAGE_JPEG);
    ObjectRef existing = ObjectRef.of(DERIVATIVES, "derivatives/existing");
    put(existing, TestImages.encode(TestImages.quadrants(64, 48), "jpg"), MediaTypes.IMAGE_JPEG);

    StepMessage jpeg =
        TestImages.step(
            "jpeg",
            photo,
            ObjectRef.of(DERIVATIVES, "derivatives/jpeg"),
            TestImages.resize(256, 256),
            TestImages.encode(MediaTypes.IMAGE_JPEG, 80));
    StepMessage png =
        TestImages.step(
            "png",
            photo,
            ObjectRef.of(DERIVATIVES, "derivatives/png"),
            TestImages.resize(100, 100),
            TestImages.encode(MediaTypes.IMAGE_PNG, 85));
    StepMessage poison =
        TestImages.step(
            "poison",
            corrupt,
            ObjectRef.of(DERIVATIVES, "derivatives/poison"),
            TestImages.resize(100, 100));
    StepMessage duplicate =
        TestImages.step("duplicate", photo, existing, TestImages.resize(64, 64));

    SQSEvent event = receive(jpeg, png, poison, duplicate);
    SQSBatchResponse response =
        processor(new SqsStepResultPublisher(sqs, resultsQueue)).process(event, null);

    assertThat(response.getBatchItemFailures()).isEmpty();
    assertThat(transforms).as("the duplicate is not transformed").hasValue(3);

    BufferedImage jpegOut = readImage(jpeg.output(), MediaTypes.IMAGE_JPEG);
    assertThat(jpegOut.getWidth()).isEqualTo(256);
    assertThat(jpegOut.getHeight()).isEqualTo(192);
    BufferedImage pngOut = readImage(png.output(), MediaTypes.IMAGE_PNG);
    assertThat(pngOut.getWidth()).isEqualTo(100);
    assertThat(pngOut.getHeight()).isEqualTo(75);
    assertThat(s3.listObjectsV2(l -> l.bucket(DERIVATIVES).prefix("derivatives/poison")).keyCount())
        .isZero();

    Map<String, StepResult> results = results(4);
    assertThat(results.get(jpeg.jobId()).succeeded()).isTrue();
    assertThat(results.get(jpeg.jobId()).reused()).isFalse();
    assertThat(results.get(png.jobId()).succeeded()).isTrue();
    StepResult failed = results.get(poison.jobId());
    assertThat(failed.succeeded()).isFalse();
    assertThat(failed.error().type()).isEqualTo(StepErrorTypes.CORRUPT_INPUT);
    assertThat(results.get(duplicate.jobId()).succeeded()).isTrue();
    assertThat(results.get(duplicate.jobId()).reused()).isTrue();

    Map<String, String> outcomes =
        logLines().stream()
            .collect(
                Collectors.toMap(l -> l.get("jobId").asText(), l -> l.get("outcome").asText()));
    assertThat(outcomes)
        .containsExactlyInAnyOrderEntriesOf(
            Map.of(
                jpeg.jobId(), "succeeded",
                png.jobId(), "succeeded",
                poison.jobId(), "failed",
                duplicate.jobId(), "reused"));
  }

  /** The scenario: five steps, two of them poison, in one batch. */
  @Test
  void batchOfFiveWithTwoPoisonWritesThreeOutputsAndTwoFailedResultsWithoutRetries()
      throws IOException {
    ObjectRef photo = ObjectRef.of(SOURCE, "five/photo.jpg");
    ObjectRef corrupt = ObjectRef.of(SOURCE, "five/corrupt.jpg");
    ObjectRef notAnImage = ObjectRef.of(SOURCE, "five/notes.jpg");
    put(photo, TestImages.encode(TestImages.quadrants(640, 480), "jpg"), MediaTypes.IMAGE_JPEG);
    put(corrupt, TestImages.corruptJpeg(), MediaTypes.IMAGE_JPEG);
    put(notAnImage, "plain text, not a picture".getBytes(StandardCharsets.UTF_8), "image/jpeg");
    List<StepMessage> good = new ArrayList<>();
    for (int size : new int[] {64, 128, 256}) {
      good.add(
          TestImages.step(
              "five-" + size,
              photo,
              ObjectRef.of(DERIVATIVES, "derivatives/five-" + size),
              TestImages.resize(size, size)));
    }
    StepMessage poisonCorrupt =
        TestImages.step(
            "five-corrupt",
            corrupt,
            ObjectRef.of(DERIVATIVES, "derivatives/five-corrupt"),
            TestImages.resize(64, 64));
    StepMessage poisonUnsupported =
        TestImages.step(
            "five-unsupported",
            notAnImage,
            ObjectRef.of(DERIVATIVES, "derivatives/five-unsupported"),
            TestImages.resize(64, 64));

    SQSBatchResponse response =
        processor(new SqsStepResultPublisher(sqs, resultsQueue))
            .process(
                receive(good.get(0), poisonCorrupt, good.get(1), poisonUnsupported, good.get(2)),
                null);

    assertThat(response.getBatchItemFailures()).as("records handed back for a retry").isEmpty();
    for (StepMessage step : good) {
      assertThat(readImage(step.output(), MediaTypes.IMAGE_JPEG)).isNotNull();
    }
    assertThat(s3.listObjectsV2(l -> l.bucket(DERIVATIVES).prefix("derivatives/five-")).keyCount())
        .as("outputs written")
        .isEqualTo(3);
    Map<String, StepResult> results = results(5);
    assertThat(results.values().stream().filter(StepResult::succeeded)).hasSize(3);
    assertThat(results.get(poisonCorrupt.jobId()).error().type())
        .isEqualTo(StepErrorTypes.CORRUPT_INPUT);
    assertThat(results.get(poisonUnsupported.jobId()).error().type())
        .isEqualTo(StepErrorTypes.UNSUPPORTED_INPUT);
    assertThat(results.get(poisonCorrupt.jobId()).error().retryable()).isFalse();
  }

  /** The scenario: the S3 endpoint is down for a moment, SQS redelivers, the step ends. */
  @Test
  void stepFailingWhileTheEndpointIsDownIsRetriedAndCompletes() throws IOException {
    ObjectRef photo = ObjectRef.of(SOURCE, "outage/photo.jpg");
    put(photo, TestImages.encode(TestImages.quadrants(300, 200), "jpg"), MediaTypes.IMAGE_JPEG);
    StepMessage step =
        TestImages.step(
            "outage",
            photo,
            ObjectRef.of(DERIVATIVES, "derivatives/outage"),
            TestImages.resize(30, 30));
    sqs.sendMessage(s -> s.queueUrl(imageQueue).messageBody(MessageCodec.encode(step)));

    // First delivery: the endpoint is down (nothing listens where the clients point).
    Message first = receiveOne();
    AwsEndpoint stopped = new StoppedEndpoint(URI.create("http://127.0.0.1:" + freePort()));
    try (S3Client deadS3 = AwsClients.s3(stopped);
        SqsClient deadSqs = AwsClients.sqs(stopped)) {
      SQSBatchResponse response =
          new StepBatchProcessor(
                  new StepWorker(
                      TestImages.DECLARATION,
                      counting(new ImageTransformer(100_000_000)),
                      new S3ObjectStore(deadS3),
                      new SqsStepResultPublisher(deadSqs, stopped.uri() + "/000000000000/results"),
                      settings(),
                      new StepLog(new PrintStream(logBytes, true, StandardCharsets.UTF_8)),
                      Clock.systemUTC()))
              .process(event(first), null);
      assertThat(response.getBatchItemFailures())
          .extracting(BatchItemFailure::getItemIdentifier)
          .containsExactly(first.messageId());
    }
    // As Lambda's event source mapping does for a batch item failure: the message stays in the
    // queue; its visibility timeout is cut short here instead of waited for.
    sqs.changeMessageVisibility(
        c -> c.queueUrl(imageQueue).receiptHandle(first.receiptHandle()).visibilityTimeout(0));

    // Second delivery: the endpoint is back.
    Message second = receiveOne();
    assertThat(second.messageId()).isEqualTo(first.messageId());
    SQSBatchResponse response =
        processor(new SqsStepResultPublisher(sqs, resultsQueue)).process(event(second), null);
    sqs.deleteMessage(d -> d.queueUrl(imageQueue).receiptHandle(second.receiptHandle()));

    assertThat(response.getBatchItemFailures()).isEmpty();
    assertThat(readImage(step.output(), MediaTypes.IMAGE_JPEG).getWidth()).isEqualTo(30);
    assertThat(results(1).get(step.jobId()).succeeded()).isTrue();
    assertThat(logLines())
        .extracting(l -> l.get("outcome").asText())
        .containsExactly("retry", "succeeded");
  }

  /** The scenario: SQS delivers the same step message twice (at-least-once delivery). */
  @Test
  void duplicateDeliveryOfOneStepTransformsOnce() throws IOException {
    ObjectRef photo = ObjectRef.of(SOURCE, "twice/photo.jpg");
    put(photo, TestImages.encode(TestImages.quadrants(200, 200), "jpg"), MediaTypes.IMAGE_JPEG);
    StepMessage step =
        TestImages.step(
            "twice",
            photo,
            ObjectRef.of(DERIVATIVES, "derivatives/twice"),
            TestImages.resize(20, 20));

    SQSBatchResponse response =
        processor(new SqsStepResultPublisher(sqs, resultsQueue)).process(receive(step, step), null);

    assertThat(response.getBatchItemFailures()).isEmpty();
    assertThat(transforms).as("transformations").hasValue(1);
    assertThat(logLines())
        .extracting(l -> l.get("outcome").asText())
        .containsExactly("succeeded", "reused");
  }

  /**
   * A watermark step on the real SDK: the mark, another object of the source bucket pinned to its
   * ETag, is fetched beside the input and laid over the picture (measured on the decoded output); a
   * mark that is no image fails the step with a stable type.
   */
  @Test
  void aWatermarkIsFetchedFromTheSourceBucketAndLaidOverThePicture() throws IOException {
    ObjectRef picture = ObjectRef.of(SOURCE, "photos/red.png");
    put(
        picture,
        TestImages.encode(TestImages.bands(200, 100, new Color(200, 0, 0)), "png"),
        "image/png");
    ObjectRef mark = ObjectRef.of(SOURCE, "marks/blue.png");
    put(
        mark,
        TestImages.encode(TestImages.bands(20, 10, new Color(0, 0, 200)), "png"),
        "image/png");
    ObjectRef text = ObjectRef.of(SOURCE, "marks/text.png");
    put(text, "no image".getBytes(java.nio.charset.StandardCharsets.UTF_8), "image/png");
    StepMessage marked = watermarked("marked", picture, mark);
    StepMessage unreadable = watermarked("unreadable", picture, text);

    processor(new SqsStepResultPublisher(sqs, resultsQueue))
        .process(receive(marked, unreadable), null);

    Map<String, StepResult> results = results(2);
    assertThat(results.get(marked.jobId()).succeeded()).isTrue();
    BufferedImage out =
        javax.imageio.ImageIO.read(
            new java.io.ByteArrayInputStream(
                s3.getObjectAsBytes(b -> b.bucket(DERIVATIVES).key(marked.output().key()))
                    .asByteArray()));
    Color inMark = new Color(out.getRGB(20, 15)); // northwest, 10 px in: x 10..29, y 10..19
    assertThat(inMark.getRed()).isBetween(95, 105);
    assertThat(inMark.getBlue()).isBetween(95, 105);
    assertThat(new Color(out.getRGB(31, 15))).isEqualTo(new Color(200, 0, 0));
    assertThat(results.get(unreadable.jobId()).error().type()).isEqualTo(Watermark.UNREADABLE);
  }

  @Test
  void aJpegSourceDecodedByLibvipsGetsItsWatermarkInTheStages() throws IOException {
    ObjectRef picture = ObjectRef.of(SOURCE, "photos/red.jpg");
    put(
        picture,
        TestImages.encode(TestImages.bands(200, 100, new Color(200, 0, 0)), "jpeg"),
        "image/jpeg");
    ObjectRef mark = ObjectRef.of(SOURCE, "marks/blue-for-jpeg.png");
    put(
        mark,
        TestImages.encode(TestImages.bands(20, 10, new Color(0, 0, 200)), "png"),
        "image/png");
    StepMessage marked = watermarked("marked-jpeg", picture, "image/jpeg", mark);

    processor(new SqsStepResultPublisher(sqs, resultsQueue)).process(receive(marked), null);

    assertThat(results(1).get(marked.jobId()).succeeded()).isTrue();
    BufferedImage out =
        javax.imageio.ImageIO.read(
            new java.io.ByteArrayInputStream(
                s3.getObjectAsBytes(b -> b.bucket(DERIVATIVES).key(marked.output().key()))
                    .asByteArray()));
    Color inMark = new Color(out.getRGB(20, 15)); // half the mark's blue over the JPEG's red
    assertThat(inMark.getRed()).isBetween(90, 110);
    assertThat(inMark.getBlue()).isBetween(90, 110);
    Color beside = new Color(out.getRGB(40, 15));
    assertThat(beside.getRed()).isBetween(190, 210);
    assertThat(beside.getBlue()).isLessThan(15);
  }

  private static StepMessage watermarked(String name, ObjectRef input, ObjectRef mark) {
    return watermarked(name, input, "image/png", mark);
  }

  private static StepMessage watermarked(
      String name, ObjectRef input, String inputType, ObjectRef mark) {
    StepMessage plain =
        TestImages.step(
            name,
            input,
            ObjectRef.of(DERIVATIVES, "derivatives/" + name),
            new Operation(
                Watermark.OPERATION,
                Map.of(
                    "watermark",
                    mark.key(),
                    "watermarkOpacity",
                    50,
                    "watermarkGravity",
                    "northwest",
                    "watermarkMargin",
                    10)),
            TestImages.encode("image/png", 90));
    return new StepMessage(
        plain.jobId(),
        0,
        1,
        plain.capability(),
        plain.operations(),
        input,
        inputType,
        plain.output(),
        "image/png",
        plain.traceId(),
        "exec-" + name,
        null,
        Map.of(
            Watermark.OPERATION,
            new PinnedObject(mark, s3.headObject(b -> b.bucket(SOURCE).key(mark.key())).eTag())));
  }

  @Test
  void missingInputIsReportedAsInputMissing() {
    StepMessage gone =
        TestImages.step(
            "gone",
            ObjectRef.of(SOURCE, "photos/deleted.jpg"),
            ObjectRef.of(DERIVATIVES, "derivatives/gone"),
            TestImages.resize(10, 10));

    SQSBatchResponse response =
        processor(new SqsStepResultPublisher(sqs, resultsQueue)).process(receive(gone), null);

    assertThat(response.getBatchItemFailures()).isEmpty();
    assertThat(results(1).get(gone.jobId()).error().type()).isEqualTo(StepErrorTypes.INPUT_MISSING);
  }

  @Test
  void unknownResultsQueueIsATransientFailureRetriedBySqs() throws IOException {
    ObjectRef photo = ObjectRef.of(SOURCE, "photos/retry.jpg");
    put(photo, TestImages.encode(TestImages.quadrants(200, 100), "jpg"), MediaTypes.IMAGE_JPEG);
    StepMessage step =
        TestImages.step(
            "retry",
            photo,
            ObjectRef.of(DERIVATIVES, "derivatives/retry"),
            TestImages.resize(50, 50));
    String noSuchQueue = endpoint.uri() + "/000000000000/no-such-queue";

    SQSEvent event = receive(step);
    SQSBatchResponse response =
        processor(new SqsStepResultPublisher(sqs, noSuchQueue)).process(event, null);

    assertThat(response.getBatchItemFailures())
        .extracting(BatchItemFailure::getItemIdentifier)
        .containsExactly(event.getRecords().get(0).getMessageId());
    assertThat(logLines())
        .singleElement()
        .satisfies(l -> assertThat(l.get("outcome").asText()).isEqualTo("retry"));
  }

  @Test
  void unreachableEndpointIsATransientFailureRetriedBySqs() throws IOException {
    AwsEndpoint stopped = new StoppedEndpoint(URI.create("http://127.0.0.1:" + freePort()));
    StepMessage step =
        TestImages.step(
            "stopped",
            ObjectRef.of(SOURCE, "photos/photo.jpg"),
            ObjectRef.of(DERIVATIVES, "derivatives/stopped"),
            TestImages.resize(50, 50));
    SQSEvent event = receive(step);

    try (S3Client deadS3 = AwsClients.s3(stopped);
        SqsClient deadSqs = AwsClients.sqs(stopped)) {
      StepBatchProcessor processor =
          new StepBatchProcessor(
              new StepWorker(
                  TestImages.DECLARATION,
                  counting(new ImageTransformer(100_000_000)),
                  new S3ObjectStore(deadS3),
                  new SqsStepResultPublisher(deadSqs, stopped.uri() + "/000000000000/step-results"),
                  settings(),
                  new StepLog(new PrintStream(logBytes, true, StandardCharsets.UTF_8)),
                  Clock.systemUTC()));

      SQSBatchResponse response = processor.process(event, null);

      assertThat(response.getBatchItemFailures())
          .extracting(BatchItemFailure::getItemIdentifier)
          .containsExactly(event.getRecords().get(0).getMessageId());
    }
  }

  private StepBatchProcessor processor(StepResultPublisher publisher) {
    return new StepBatchProcessor(
        new StepWorker(
            TestImages.DECLARATION,
            counting(new ImageTransformer(100_000_000)),
            new S3ObjectStore(s3),
            publisher,
            settings(),
            new StepLog(new PrintStream(logBytes, true, StandardCharsets.UTF_8)),
            Clock.systemUTC()));
  }

  private WorkerSettings settings() {
    return new WorkerSettings(resultsQueue, 10 * 1024 * 1024, 1_000, tempDir);
  }

  /** Counts transformations, to prove that reused outputs skip them. */
  private StepTransformer counting(StepTransformer delegate) {
    return new StepTransformer() {
      @Override
      public void transform(DeclaredStep step, Path input, Path output) throws IOException {
        transforms.incrementAndGet();
        delegate.transform(step, input, output);
      }

      @Override
      public void probe(Path scratch) throws IOException {
        delegate.probe(scratch);
      }
    };
  }

  private static void put(ObjectRef ref, byte[] bytes, String contentType) {
    s3.putObject(
        p -> p.bucket(ref.bucket()).key(ref.key()).contentType(contentType),
        RequestBody.fromBytes(bytes));
  }

  private static BufferedImage readImage(ObjectRef ref, String contentType) throws IOException {
    ResponseBytes<GetObjectResponse> object =
        s3.getObjectAsBytes(g -> g.bucket(ref.bucket()).key(ref.key()));
    assertThat(object.response().contentType()).isEqualTo(contentType);
    return ImageIO.read(new ByteArrayInputStream(object.asByteArray()));
  }

  /** Sends the steps to the image queue and receives them back as Lambda's SQS event. */
  private static SQSEvent receive(StepMessage... steps) {
    for (StepMessage step : steps) {
      sqs.sendMessage(s -> s.queueUrl(imageQueue).messageBody(MessageCodec.encode(step)));
    }
    List<SQSMessage> records = new ArrayList<>();
    while (records.size() < steps.length) {
      for (Message message :
          sqs.receiveMessage(r -> r.queueUrl(imageQueue).maxNumberOfMessages(10).waitTimeSeconds(1))
              .messages()) {
        SQSMessage record = new SQSMessage();
        record.setMessageId(message.messageId());
        record.setReceiptHandle(message.receiptHandle());
        record.setBody(message.body());
        record.setEventSource("aws:sqs");
        records.add(record);
        // The test plays Lambda's event source mapping: the batch is now owned by this invocation.
        sqs.deleteMessage(d -> d.queueUrl(imageQueue).receiptHandle(message.receiptHandle()));
      }
    }
    SQSEvent event = new SQSEvent();
    event.setRecords(records);
    return event;
  }

  /** Receives one message of the image queue without deleting it, as the event source does. */
  private static Message receiveOne() {
    for (int attempt = 0; attempt < 10; attempt++) {
      List<Message> messages =
          sqs.receiveMessage(r -> r.queueUrl(imageQueue).maxNumberOfMessages(1).waitTimeSeconds(1))
              .messages();
      if (!messages.isEmpty()) {
        return messages.get(0);
      }
    }
    throw new AssertionError("no message arrived in the image queue");
  }

  private static SQSEvent event(Message message) {
    SQSMessage record = new SQSMessage();
    record.setMessageId(message.messageId());
    record.setReceiptHandle(message.receiptHandle());
    record.setBody(message.body());
    record.setEventSource("aws:sqs");
    SQSEvent event = new SQSEvent();
    event.setRecords(List.of(record));
    return event;
  }

  /**
   * Receives {@code count} finished step results, keyed by job id; the started reports the runtime
   * sends before each step are consumed and left out.
   */
  private static Map<String, StepResult> results(int count) {
    List<StepResult> results = new ArrayList<>();
    for (int attempt = 0; attempt < 10 && results.size() < count; attempt++) {
      for (Message message :
          sqs.receiveMessage(
                  r -> r.queueUrl(resultsQueue).maxNumberOfMessages(10).waitTimeSeconds(1))
              .messages()) {
        StepResult result = MessageCodec.decode(message.body(), StepResult.class);
        if (!result.isStarted()) {
          results.add(result);
        }
        sqs.deleteMessage(d -> d.queueUrl(resultsQueue).receiptHandle(message.receiptHandle()));
      }
    }
    assertThat(results).hasSize(count);
    return results.stream().collect(Collectors.toMap(StepResult::jobId, r -> r));
  }

  private List<JsonNode> logLines() {
    return logBytes
        .toString(StandardCharsets.UTF_8)
        .lines()
        .map(
            line -> {
              try {
                return JSON.readTree(line);
              } catch (IOException e) {
                throw new AssertionError("not a JSON line: " + line, e);
              }
            })
        .toList();
  }

  private static int freePort() throws IOException {
    try (java.net.ServerSocket socket =
        new java.net.ServerSocket(0, 0, java.net.InetAddress.getLoopbackAddress())) {
      return socket.getLocalPort();
    }
  }

  /** An endpoint where nothing listens, as when the AWS endpoint is down. */
  private record StoppedEndpoint(URI uri) implements AwsEndpoint {
    @Override
    public String describe() {
      return "nothing at " + uri;
    }

    @Override
    public void close() {}
  }
}
