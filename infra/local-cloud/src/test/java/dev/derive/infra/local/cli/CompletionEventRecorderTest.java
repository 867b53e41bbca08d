package dev.derive.infra.local.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.derive.infra.endpoint.AwsClients;
import dev.derive.infra.endpoint.MotoServerEndpoint;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.QueueAttributeName;

/**
 * The recorder {@code ./derive up} runs: the completion-events queue is emptied into the journal
 * {@code ./derive events} prints as events arrive, so the queue does not pile up over a session
 * (found by a newcomer's trial: 82 messages after one, nothing consuming them).
 */
class CompletionEventRecorderTest {
  private static MotoServerEndpoint endpoint;

  @TempDir Path state;

  @BeforeAll
  static void start() {
    endpoint = MotoServerEndpoint.start(Path.of("target/moto-event-recorder.log"));
  }

  @AfterAll
  static void stop() {
    endpoint.close();
  }

  @Test
  void eventsAreMovedIntoTheJournalAndDeletedFromTheQueueAsTheyArrive() throws Exception {
    try (SqsClient sqs = AwsClients.sqs(endpoint)) {
      String queue =
          sqs.createQueue(
                  b -> b.queueName("r" + UUID.randomUUID().toString().substring(0, 8) + "-ce"))
              .queueUrl();
      Path journal = state.resolve(EventsCommand.JOURNAL_NAME);
      try (CompletionEventRecorder recorder = new CompletionEventRecorder(sqs, queue, journal)) {
        recorder.start(problem -> {});
        for (int i = 0; i < 12; i++) {
          int n = i;
          sqs.sendMessage(
              b -> b.queueUrl(queue).messageBody("{\"detail\":{\"eventId\":\"f" + n + ":e\"}}"));
        }

        long deadline = System.nanoTime() + 20_000_000_000L;
        while (lines(journal) < 12 && System.nanoTime() < deadline) {
          Thread.sleep(100);
        }
      }

      assertThat(lines(journal)).isEqualTo(12);
      assertThat(Files.readString(journal))
          .contains("\"eventId\":\"f0:e\"", "\"eventId\":\"f11:e\"");
      var attributes =
          sqs.getQueueAttributes(
                  b ->
                      b.queueUrl(queue)
                          .attributeNames(
                              QueueAttributeName.APPROXIMATE_NUMBER_OF_MESSAGES,
                              QueueAttributeName.APPROXIMATE_NUMBER_OF_MESSAGES_NOT_VISIBLE))
              .attributes();
      assertThat(attributes.get(QueueAttributeName.APPROXIMATE_NUMBER_OF_MESSAGES)).isEqualTo("0");
      assertThat(attributes.get(QueueAttributeName.APPROXIMATE_NUMBER_OF_MESSAGES_NOT_VISIBLE))
          .isEqualTo("0");
    }
  }

  private static long lines(Path journal) throws Exception {
    return Files.isRegularFile(journal) ? Files.readAllLines(journal).size() : 0;
  }
}
