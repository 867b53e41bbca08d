package dev.derive.infra.local.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.function.Consumer;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.Message;

/**
 * Moves the completion events of the {@code <stack>-completion-events} queue into the journal
 * {@code ./derive events} prints ({@code .derive/completion-events.jsonl}), one JSON line each,
 * deleting each message once its line is written: the queue is where the events arrive, the journal
 * where they are kept. {@code ./derive up} runs one for as long as the local cloud runs, so the
 * queue stays empty however many jobs end (it held every event of a session until {@code ./derive
 * events} was run: found by a newcomer's trial); {@code ./derive events} drains what is left (a
 * deployed stack's queue, the last seconds of a local one) before printing.
 *
 * <p>At least once: a process that dies between writing a line and deleting its message writes that
 * event again when the message comes back; {@code detail.eventId} tells the two apart.
 */
public final class CompletionEventRecorder implements AutoCloseable {
  private static final ObjectMapper JSON = new ObjectMapper();

  /** How long one receive waits for a message (SQS long polling), in seconds. */
  private static final int WAIT_SECONDS = 2;

  private final SqsClient sqs;
  private final String queueUrl;
  private final Path journal;
  private volatile boolean running;
  private Thread thread;

  /**
   * @param sqs the queue's SQS
   * @param queueUrl the completion-events queue
   * @param journal the file the events are appended to
   */
  public CompletionEventRecorder(SqsClient sqs, String queueUrl, Path journal) {
    this.sqs = sqs;
    this.queueUrl = queueUrl;
    this.journal = journal;
  }

  /**
   * Moves every message the queue holds now into the journal.
   *
   * @return how many were moved
   * @throws IOException if the journal cannot be written (the message then stays in the queue)
   */
  public int drain() throws IOException {
    int moved = 0;
    while (true) {
      int received = receiveOnce(1);
      if (received == 0) {
        return moved;
      }
      moved += received;
    }
  }

  /**
   * Starts moving events as they arrive, on a daemon thread, until {@link #close}; a failure is
   * reported to {@code problems} and the next receive tried a moment later.
   */
  public void start(Consumer<String> problems) {
    running = true;
    thread =
        Thread.ofPlatform()
            .daemon()
            .name("completion-event-recorder")
            .start(
                () -> {
                  while (running) {
                    try {
                      receiveOnce(WAIT_SECONDS);
                    } catch (IOException | RuntimeException e) {
                      if (!running) {
                        return;
                      }
                      problems.accept("recording completion events: " + e.getMessage());
                      sleep();
                    }
                  }
                });
  }

  private int receiveOnce(int waitSeconds) throws IOException {
    List<Message> messages =
        sqs.receiveMessage(
                b -> b.queueUrl(queueUrl).maxNumberOfMessages(10).waitTimeSeconds(waitSeconds))
            .messages();
    for (Message message : messages) {
      Files.createDirectories(journal.toAbsolutePath().getParent());
      String line = JSON.writeValueAsString(JSON.readTree(message.body())) + "\n";
      Files.writeString(
          journal,
          line,
          StandardCharsets.UTF_8,
          StandardOpenOption.CREATE,
          StandardOpenOption.APPEND);
      sqs.deleteMessage(b -> b.queueUrl(queueUrl).receiptHandle(message.receiptHandle()));
    }
    return messages.size();
  }

  private static void sleep() {
    try {
      Thread.sleep(1000);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** Stops the thread {@link #start} started, within one receive's wait. */
  @Override
  public void close() {
    running = false;
    if (thread != null) {
      try {
        thread.join((WAIT_SECONDS + 1) * 1000L);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }
}
