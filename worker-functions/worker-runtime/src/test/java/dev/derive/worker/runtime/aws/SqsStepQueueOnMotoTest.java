package dev.derive.worker.runtime.aws;

import static org.assertj.core.api.Assertions.assertThat;

import dev.derive.infra.endpoint.AwsClients;
import dev.derive.infra.endpoint.AwsEndpoint;
import dev.derive.infra.endpoint.MotoServerEndpoint;
import dev.derive.worker.runtime.QueuedMessage;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.Message;
import software.amazon.awssdk.services.sqs.model.MessageSystemAttributeName;
import software.amazon.awssdk.services.sqs.model.QueueAttributeName;

/** The worker's own-queue calls against a real SQS API (moto), by the queue's ARN. */
class SqsStepQueueOnMotoTest {
  private static AwsEndpoint endpoint;
  private static SqsClient sqs;

  @BeforeAll
  static void startEndpoint() {
    endpoint = MotoServerEndpoint.start(Path.of("target", "moto-step-queue.log"));
    sqs = AwsClients.sqs(endpoint);
  }

  @AfterAll
  static void stopEndpoint() {
    if (sqs != null) {
      sqs.close();
    }
    if (endpoint != null) {
      endpoint.close();
    }
  }

  /** A new queue with a 720 s visibility timeout; answers its URL and ARN. */
  private static String[] queue(String name) {
    String url =
        sqs.createQueue(
                b ->
                    b.queueName(name + "-" + System.nanoTime())
                        .attributes(Map.of(QueueAttributeName.VISIBILITY_TIMEOUT, "720")))
            .queueUrl();
    String arn =
        sqs.getQueueAttributes(b -> b.queueUrl(url).attributeNames(QueueAttributeName.QUEUE_ARN))
            .attributes()
            .get(QueueAttributeName.QUEUE_ARN);
    return new String[] {url, arn};
  }

  private static List<Message> receive(String url, int max) {
    return sqs.receiveMessage(
            b ->
                b.queueUrl(url)
                    .maxNumberOfMessages(max)
                    .waitTimeSeconds(0)
                    .messageSystemAttributeNames(MessageSystemAttributeName.ALL))
        .messages();
  }

  private static QueuedMessage held(Message message, String arn) {
    return new QueuedMessage(message.messageId(), arn, message.receiptHandle());
  }

  @Test
  void aMessageReleasedAtOnceIsReceivedAgainAndADeletedOneNever() throws Exception {
    String[] queue = queue("release");
    SqsStepQueue steps = new SqsStepQueue(sqs);
    for (int i = 0; i < 12; i++) {
      String body = "step " + i;
      sqs.sendMessage(b -> b.queueUrl(queue[0]).messageBody(body));
    }
    List<Message> received = new ArrayList<>(receive(queue[0], 10));
    received.addAll(receive(queue[0], 10));
    assertThat(received).hasSize(12);
    assertThat(receive(queue[0], 10)).as("all hidden for the queue's 720 s").isEmpty();
    List<QueuedMessage> all = received.stream().map(m -> held(m, queue[1])).toList();

    assertThat(steps.changeVisibility(all.subList(0, 11), 0)).as("in batches of 10").isEmpty();
    assertThat(steps.delete(all.subList(11, 12))).isEmpty();

    List<Message> again = new ArrayList<>(receive(queue[0], 10));
    again.addAll(receive(queue[0], 10));
    assertThat(again)
        .extracting(Message::body)
        .containsExactlyInAnyOrderElementsOf(
            received.subList(0, 11).stream().map(Message::body).toList());
    assertThat(again)
        .allSatisfy(
            m ->
                assertThat(m.attributes().get(MessageSystemAttributeName.APPROXIMATE_RECEIVE_COUNT))
                    .isEqualTo("2"));
  }

  @Test
  void aHiddenMessageStaysHiddenForTheGivenTimeoutOnly() throws Exception {
    String[] queue = queue("hide");
    SqsStepQueue steps = new SqsStepQueue(sqs);
    sqs.sendMessage(b -> b.queueUrl(queue[0]).messageBody("step"));
    Message message = receive(queue[0], 1).getFirst();

    assertThat(steps.changeVisibility(List.of(held(message, queue[1])), 2)).isEmpty();

    assertThat(receive(queue[0], 1)).as("hidden for 2 s").isEmpty();
    Thread.sleep(3_200);
    assertThat(receive(queue[0], 1)).as("visible after 2 s, not 720").hasSize(1);
  }

  @Test
  void aRequeuedCopyIsANewMessageOnTheSameQueue() {
    String[] queue = queue("requeue");
    SqsStepQueue steps = new SqsStepQueue(sqs);

    steps.requeue(queue[1], "{\"step\":1}");

    Message copy = receive(queue[0], 1).getFirst();
    assertThat(copy.body()).isEqualTo("{\"step\":1}");
    assertThat(copy.attributes().get(MessageSystemAttributeName.APPROXIMATE_RECEIVE_COUNT))
        .isEqualTo("1");
  }

  @Test
  void aReceiptThatIsNoLongerValidIsNamedAsRefused() {
    String[] queue = queue("refused");
    SqsStepQueue steps = new SqsStepQueue(sqs);
    sqs.sendMessage(b -> b.queueUrl(queue[0]).messageBody("step"));
    Message message = receive(queue[0], 1).getFirst();
    QueuedMessage gone = new QueuedMessage("gone", queue[1], "not-a-receipt-handle");

    assertThat(steps.changeVisibility(List.of(held(message, queue[1]), gone), 30))
        .containsExactly("gone");
  }
}
