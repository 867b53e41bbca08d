package dev.derive.worker.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import com.amazonaws.services.lambda.runtime.events.SQSBatchResponse;
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
import dev.derive.worker.runtime.aws.SqsStepResultPublisher;
import dev.derive.worker.runtime.lambda.StepBatchProcessor;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.Message;

/**
 * The runtime against a real moto server: a step pinned to the source's ETag, a source overwritten
 * after the coordinator identified it, the started and finished reports on a real SQS step-results
 * queue, the summary a summarising step's success carries, and another object of the source bucket
 * a step reads beside its input (a watermark), pinned to its ETag too.
 */
class PinnedSourceOnMotoTest {
  private static final String SOURCE = "derive-source";
  private static final String DERIVATIVES = "derive-derivatives";
  private static final ObjectMapper JSON = new ObjectMapper();

  private static AwsEndpoint endpoint;
  private static S3Client s3;
  private static SqsClient sqs;
  private static String resultsQueue;

  @TempDir Path tempDir;

  private final List<String> exitReasons = new ArrayList<>();

  private final StepTransformer upper =
      new StepTransformer() {
        @Override
        public void transform(DeclaredStep step, Path input, Path output) throws IOException {
          Files.writeString(output, Files.readString(input).toUpperCase());
        }

        @Override
        public void probe(Path scratch) {
          throw new UnsupportedOperationException();
        }
      };

  @BeforeAll
  static void startEndpoint() {
    endpoint = MotoServerEndpoint.start(Path.of("target", "moto-worker-runtime-steps.log"));
    s3 = AwsClients.s3(endpoint);
    sqs = AwsClients.sqs(endpoint);
    s3.createBucket(b -> b.bucket(SOURCE));
    s3.createBucket(b -> b.bucket(DERIVATIVES));
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
  void aSourceStillAsIdentifiedIsTransformedAndReportedStartedThenSucceeded() {
    ObjectRef source = ObjectRef.of(SOURCE, "uploads/kept.txt");
    String etag = put(source, "hello");
    StepMessage step = step("kept", source, etag);

    SQSBatchResponse response = processor().process(event(step), null);

    assertThat(response.getBatchItemFailures()).isEmpty();
    assertThat(
            s3.getObjectAsBytes(b -> b.bucket(DERIVATIVES).key(step.output().key())).asUtf8String())
        .isEqualTo("HELLO");
    assertThat(results(2))
        .extracting(
            r -> r.path("report").asText(),
            r -> r.path("succeeded").asBoolean(),
            r -> r.path("executionId").asText(),
            r -> r.path("attempt").asInt())
        .containsExactly(
            tuple("STARTED", false, "exec-kept", 1), tuple("FINISHED", true, "exec-kept", 1));
  }

  @Test
  void aSourceOverwrittenAfterItWasIdentifiedFailsTheStepWithARetryableSourceChanged() {
    ObjectRef source = ObjectRef.of(SOURCE, "uploads/overwritten.txt");
    String identified = put(source, "the bytes the coordinator saw");
    put(source, "bytes uploaded afterwards");
    StepMessage step = step("overwritten", source, identified);

    SQSBatchResponse response = processor().process(event(step), null);

    assertThat(response.getBatchItemFailures()).isEmpty();
    assertThat(s3.listObjectsV2(l -> l.bucket(DERIVATIVES).prefix(step.output().key())).keyCount())
        .as("no new bytes under the old fingerprint")
        .isZero();
    List<JsonNode> results = results(2);
    assertThat(results.get(0).path("report").asText()).isEqualTo("STARTED");
    JsonNode failed = results.get(1);
    assertThat(failed.path("report").asText()).isEqualTo("FINISHED");
    assertThat(failed.path("succeeded").asBoolean()).isFalse();
    assertThat(failed.path("executionId").asText()).isEqualTo("exec-overwritten");
    assertThat(failed.path("error").path("type").asText()).isEqualTo(StepErrorTypes.SOURCE_CHANGED);
    assertThat(failed.path("error").path("retryable").asBoolean()).isTrue();
    assertThat(failed.path("error").path("detail").asText())
        .isEqualTo(
            "the source uploads/overwritten.txt changed after the request was accepted; request"
                + " the derivative again");
    assertThat(exitReasons).isEmpty();
  }

  /**
   * A step whose operation declares a summary reports its JSON output in its success, made now or
   * found in the bucket (a redelivery after the output landed); an output over the bound is still a
   * success, without a summary.
   */
  @Test
  void aSummarisingStepCarriesItsOutputAsItsSummaryMadeOrFound() {
    ObjectRef source = ObjectRef.of(SOURCE, "uploads/counted.txt");
    StepMessage made =
        step("made", source, put(source, "hello"), "count", MediaTypes.APPLICATION_JSON);
    StepMessage found =
        step("found", source, put(source, "hello"), "count", MediaTypes.APPLICATION_JSON);
    s3.putObject(
        b -> b.bucket(DERIVATIVES).key(found.output().key()),
        RequestBody.fromString("{\"characters\":99,\"exif\":{\"camera\":null}}"));
    ObjectRef longer = ObjectRef.of(SOURCE, "uploads/long.txt");
    StepMessage large =
        step("large", longer, put(longer, "x".repeat(9000)), "count", MediaTypes.APPLICATION_JSON);

    assertThat(processor("count", counter).process(event(made), null).getBatchItemFailures())
        .isEmpty();
    JsonNode madeResult = results(2).get(1);
    assertThat(madeResult.path("summary").toString()).isEqualTo("{\"characters\":5}");
    assertThat(MessageCodec.decode(madeResult.toString(), StepResult.class).summary())
        .isEqualTo(Map.of("characters", 5));

    processor("count", counter).process(event(found), null);
    JsonNode foundResult = results(1).get(0);
    assertThat(foundResult.path("reused").asBoolean()).isTrue();
    assertThat(foundResult.path("summary").toString())
        .isEqualTo("{\"characters\":99,\"exif\":{\"camera\":null}}");

    processor("count", counter).process(event(large), null);
    JsonNode largeResult = results(2).get(1);
    assertThat(largeResult.path("succeeded").asBoolean()).isTrue();
    assertThat(largeResult.has("summary")).isFalse();
  }

  /**
   * The object a {@code sourceObject} parameter names is fetched beside the input and handed to the
   * transformer; gone, or changed since the coordinator pinned it, it fails the step as the input
   * would.
   */
  @Test
  void anObjectTheStepNamesIsFetchedBesideTheInputPinnedToItsEtag() {
    ObjectRef source = ObjectRef.of(SOURCE, "uploads/stamped.txt");
    String etag = put(source, "hello");
    ObjectRef mark = ObjectRef.of(SOURCE, "marks/mark.txt");
    String markEtag = put(mark, "(c) derive");

    processor("stamp", stamper)
        .process(event(stamped("stamped", source, etag, mark, markEtag)), null);
    assertThat(
            s3.getObjectAsBytes(b -> b.bucket(DERIVATIVES).key("derivatives/stamped"))
                .asUtf8String())
        .isEqualTo("hello|(c) derive");
    assertThat(results(2).get(1).path("succeeded").asBoolean()).isTrue();

    put(mark, "another mark");
    processor("stamp", stamper)
        .process(event(stamped("changed", source, etag, mark, markEtag)), null);
    assertThat(results(2).get(1).path("error").path("type").asText())
        .isEqualTo(StepErrorTypes.SOURCE_CHANGED);

    ObjectRef gone = ObjectRef.of(SOURCE, "marks/gone.txt");
    processor("stamp", stamper).process(event(stamped("gone", source, etag, gone, "\"x\"")), null);
    JsonNode missing = results(2).get(1);
    assertThat(missing.path("error").path("type").asText()).isEqualTo(StepErrorTypes.INPUT_MISSING);
    assertThat(missing.path("error").path("detail").asText())
        .isEqualTo("the object marks/gone.txt that mark names is gone");
  }

  private static StepMessage stamped(
      String name, ObjectRef source, String etag, ObjectRef mark, String markEtag) {
    StepMessage plain = step(name, source, etag, "stamp", MediaTypes.TEXT_PLAIN);
    return new StepMessage(
        plain.jobId(),
        0,
        1,
        "stamp",
        List.of(new Operation("stamp", Map.of("mark", mark.key()))),
        source,
        MediaTypes.TEXT_PLAIN,
        plain.output(),
        MediaTypes.TEXT_PLAIN,
        plain.traceId(),
        plain.executionId(),
        etag,
        Map.of("mark", new PinnedObject(mark, markEtag)));
  }

  /** Writes the input, a bar and the mark. */
  private final StepTransformer stamper =
      new StepTransformer() {
        @Override
        public void transform(DeclaredStep step, Path input, Path output) throws IOException {
          Files.writeString(
              output,
              Files.readString(input) + "|" + Files.readString(step.object("mark").orElseThrow()));
        }

        @Override
        public void probe(Path scratch) {
          throw new UnsupportedOperationException();
        }
      };

  /** Writes {"characters": n} padded with the input itself when it is long. */
  private final StepTransformer counter =
      new StepTransformer() {
        @Override
        public void transform(DeclaredStep step, Path input, Path output) throws IOException {
          String text = Files.readString(input);
          Files.writeString(
              output,
              text.length() > 100
                  ? "{\"characters\":" + text.length() + ",\"text\":\"" + text + "\"}"
                  : "{\"characters\":" + text.length() + "}");
        }

        @Override
        public void probe(Path scratch) {
          throw new UnsupportedOperationException();
        }
      };

  private StepBatchProcessor processor() {
    return processor("upper", upper);
  }

  private StepBatchProcessor processor(String capability, StepTransformer transformer) {
    return new StepBatchProcessor(
        new StepWorker(
            switch (capability) {
              case "upper" -> TestDeclarations.plainText(capability);
              case "stamp" -> TestDeclarations.stamping(capability);
              default -> TestDeclarations.summarising(capability);
            },
            transformer,
            new S3ObjectStore(s3),
            new SqsStepResultPublisher(sqs, resultsQueue),
            new WorkerSettings(resultsQueue, 1_000_000, 1_000, tempDir, 3),
            new StepLog(new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8)),
            Clock.systemUTC(),
            exitReasons::add));
  }

  private static StepMessage step(String name, ObjectRef source, String etag) {
    return step(name, source, etag, "upper", MediaTypes.TEXT_PLAIN);
  }

  private static StepMessage step(
      String name, ObjectRef source, String etag, String capability, String outputMediaType) {
    return new StepMessage(
        (name + "0".repeat(64)).substring(0, 64),
        0,
        1,
        capability,
        List.of(),
        source,
        MediaTypes.TEXT_PLAIN,
        ObjectRef.of(DERIVATIVES, "derivatives/" + name),
        outputMediaType,
        "trace-" + name,
        "exec-" + name,
        etag,
        Map.of());
  }

  private static SQSEvent event(StepMessage step) {
    SQSMessage record = new SQSMessage();
    record.setMessageId("m-" + step.jobId().substring(0, 8));
    record.setBody(MessageCodec.encode(step));
    record.setAttributes(Map.of("ApproximateReceiveCount", "1"));
    SQSEvent event = new SQSEvent();
    event.setRecords(List.of(record));
    return event;
  }

  /** Puts {@code text} at {@code ref}; its ETag as S3 reports it. */
  private static String put(ObjectRef ref, String text) {
    return s3.putObject(
            b -> b.bucket(ref.bucket()).key(ref.key()).contentType(MediaTypes.TEXT_PLAIN),
            RequestBody.fromString(text, StandardCharsets.UTF_8))
        .eTag();
  }

  /**
   * Receives {@code count} results from the step-results queue, started reports first, as JSON
   * trees (what the worker put on the queue), each checked to decode with the protocol's codec.
   */
  private static List<JsonNode> results(int count) {
    List<JsonNode> results = new ArrayList<>();
    for (int polls = 0; polls < 10 && results.size() < count; polls++) {
      for (Message m :
          sqs.receiveMessage(
                  r -> r.queueUrl(resultsQueue).maxNumberOfMessages(10).waitTimeSeconds(1))
              .messages()) {
        // the coordinator must be able to read it with the protocol's strict codec
        assertThat(MessageCodec.decode(m.body(), StepResult.class).jobId()).isNotBlank();
        try {
          results.add(JSON.readTree(m.body()));
        } catch (IOException e) {
          throw new AssertionError("not JSON: " + m.body(), e);
        }
      }
    }
    assertThat(results).hasSize(count);
    results.sort(
        Comparator.comparing((JsonNode r) -> r.path("report").asText().equals("STARTED") ? 0 : 1));
    return results;
  }
}
