package dev.derive.infra.local.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import software.amazon.awssdk.services.sqs.model.QueueAttributeName;
import software.amazon.awssdk.services.sqs.model.QueueDoesNotExistException;

/**
 * {@code events}: the completion events seen so far, one line each (when the job ended, {@code
 * Derivative Succeeded} or {@code Failed}, its {@code eventId}, the source key and the derivative's
 * key or the error), then how many callbacks are dead-lettered. The events come from the stack's
 * {@code <stack>-completion-events} queue (a rule copies every {@code dev.derive} event there when
 * {@code RecordCompletionEvents=true}, as {@code ./derive up} sets it), whose messages {@link
 * CompletionEventRecorder} moves into {@code completion-events.jsonl} beside the local cloud's
 * state ({@code ./derive up} runs one all along); each command moves what is left and prints that
 * journal, so every run shows every event, oldest first.
 */
public final class EventsCommand {
  private static final ObjectMapper JSON = new ObjectMapper();

  /** The journal's name in the state folder. */
  public static final String JOURNAL_NAME = "completion-events.jsonl";

  private final OperatorTarget target;
  private final Path journal;

  /**
   * @param journal where the events read are kept ({@code .derive/completion-events.jsonl})
   */
  public EventsCommand(OperatorTarget target, Path journal) {
    this.target = target;
    this.journal = journal;
  }

  /**
   * Moves the queued events into the journal and prints the journal.
   *
   * @return the number of events printed
   * @throws IllegalArgumentException if the stack records no completion events
   * @throws IOException if the journal cannot be written or read
   */
  public int print(PrintStream out) throws IOException {
    String queue;
    try {
      queue =
          target
              .sqs()
              .getQueueUrl(b -> b.queueName(target.queueName("completion-events")))
              .queueUrl();
    } catch (QueueDoesNotExistException e) {
      throw new IllegalArgumentException(
          "stack "
              + target.stackName()
              + " records no completion events: deploy it with RecordCompletionEvents=true, or"
              + " add a rule of your own on its bus (docs/completion-events.md)");
    }
    new CompletionEventRecorder(target.sqs(), queue, journal).drain();
    int printed = 0;
    if (Files.isRegularFile(journal)) {
      for (String line : Files.readAllLines(journal, StandardCharsets.UTF_8)) {
        if (!line.isBlank()) {
          out.println(summary(JSON.readTree(line)));
          printed++;
        }
      }
    }
    if (printed == 0) {
      out.println("no completion event yet");
    }
    deadLetteredCallbacks(out);
    return printed;
  }

  /** One event as a line: when, what, which job end, from which source, to what or why not. */
  static String summary(JsonNode event) {
    JsonNode detail = event.path("detail");
    String outcome =
        detail.has("error")
            ? detail.path("error").path("type").asText()
                + " at step "
                + detail.path("error").path("step").asText()
                + ": "
                + detail.path("error").path("detail").asText()
            : "-> " + detail.path("location").path("key").asText();
    return String.join(
        "  ",
        detail.path("endedAt").asText(),
        event.path("detail-type").asText(),
        detail.path("eventId").asText(),
        detail.path("source").path("key").asText(),
        outcome);
  }

  private void deadLetteredCallbacks(PrintStream out) {
    try {
      String dlq =
          target.sqs().getQueueUrl(b -> b.queueName(target.queueName("callbacks-dlq"))).queueUrl();
      String count =
          target
              .sqs()
              .getQueueAttributes(
                  b ->
                      b.queueUrl(dlq)
                          .attributeNames(QueueAttributeName.APPROXIMATE_NUMBER_OF_MESSAGES))
              .attributes()
              .get(QueueAttributeName.APPROXIMATE_NUMBER_OF_MESSAGES);
      out.println("callbacks dead-lettered: " + count);
    } catch (QueueDoesNotExistException e) {
      // a stack from before callbacks: nothing to say
    }
  }
}
