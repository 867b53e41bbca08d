package dev.derive.infra.local.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.derive.infra.endpoint.AwsClients;
import dev.derive.infra.endpoint.MotoServerEndpoint;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code ./derive events} on moto: the recorded events, kept across runs, and the callback DLQ. */
class EventsCommandTest {
  private static MotoServerEndpoint endpoint;

  @TempDir Path state;

  private final String stack = "s" + UUID.randomUUID().toString().substring(0, 8);

  @BeforeAll
  static void start() {
    endpoint = MotoServerEndpoint.start(Path.of("target/moto-events-command.log"));
  }

  @AfterAll
  static void stop() {
    endpoint.close();
  }

  private OperatorTarget target() {
    return new OperatorTarget(
        stack, AwsClients.sqs(endpoint), AwsClients.dynamoDb(endpoint), null, null);
  }

  private static final String SUCCEEDED =
      """
      {"detail-type":"Derivative Succeeded","source":"dev.derive","detail":{"eventId":"f1:e1",\
      "fingerprint":"f1","status":"SUCCEEDED","endedAt":"2030-01-01T00:00:00Z",\
      "source":{"key":"uploads/a/cat.jpg"},"location":{"key":"derivatives/f1"}}}""";

  private static final String FAILED =
      """
      {"detail-type":"Derivative Failed","source":"dev.derive","detail":{"eventId":"f2:e2",\
      "fingerprint":"f2","status":"FAILED","endedAt":"2030-01-01T00:00:01Z",\
      "source":{"key":"uploads/b/broken.jpg"},"error":{"type":"corrupt-input","step":1,\
      "detail":"not a JPEG","retryable":false}}}""";

  private String run() throws Exception {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (OperatorTarget target = target()) {
      new EventsCommand(target, state.resolve("completion-events.jsonl"))
          .print(new PrintStream(bytes, true, StandardCharsets.UTF_8));
    }
    return bytes.toString(StandardCharsets.UTF_8);
  }

  @Test
  void printsEveryEventSeenOneLineEachOldestFirstAndTheDeadLetteredCallbacks() throws Exception {
    var sqs = AwsClients.sqs(endpoint);
    String queue = sqs.createQueue(b -> b.queueName(stack + "-completion-events")).queueUrl();
    String dlq = sqs.createQueue(b -> b.queueName(stack + "-callbacks-dlq")).queueUrl();
    sqs.sendMessage(b -> b.queueUrl(queue).messageBody(SUCCEEDED));
    sqs.sendMessage(b -> b.queueUrl(dlq).messageBody("{}"));

    String first = run();
    sqs.sendMessage(b -> b.queueUrl(queue).messageBody(FAILED));
    String second = run();

    assertThat(first)
        .contains(
            "2030-01-01T00:00:00Z  Derivative Succeeded  f1:e1  uploads/a/cat.jpg  -> derivatives/f1")
        .contains("callbacks dead-lettered: 1");
    assertThat(second.lines().toList())
        .startsWith(
            "2030-01-01T00:00:00Z  Derivative Succeeded  f1:e1  uploads/a/cat.jpg  -> derivatives/f1",
            "2030-01-01T00:00:01Z  Derivative Failed  f2:e2  uploads/b/broken.jpg  corrupt-input at"
                + " step 1: not a JPEG");
  }

  @Test
  void aStackThatRecordsNoEventsSaysHowToRecordThem() {
    assertThatThrownBy(this::run).hasMessageContaining("RecordCompletionEvents=true");
  }
}
