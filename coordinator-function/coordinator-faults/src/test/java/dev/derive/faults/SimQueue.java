package dev.derive.faults;

import com.amazonaws.services.lambda.runtime.events.SQSEvent.SQSMessage;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.UUID;

/**
 * A queue with SQS's delivery semantics under the harness's clock: at-least-once, in no particular
 * order, a received message invisible for the visibility timeout and then delivered again with its
 * receive count raised, and moved to the dead-letter queue on the receive after {@code
 * maxReceiveCount} (the redrive policy). The harness decides who receives what and when, so a test
 * can deliver twice, out of order, late or never.
 */
final class SimQueue {
  /** One message in the queue. */
  static final class Entry {
    final String id = UUID.randomUUID().toString();
    final String body;
    final boolean duplicate;

    /** The message's kind attribute ({@code derive-message}), or {@code null}. */
    final String kind;

    int receives;
    Instant visibleAt;

    Entry(String body, Instant visibleAt, boolean duplicate) {
      this(body, visibleAt, duplicate, null);
    }

    Entry(String body, Instant visibleAt, boolean duplicate, String kind) {
      this.body = body;
      this.visibleAt = visibleAt;
      this.duplicate = duplicate;
      this.kind = kind;
    }

    /** The message as the event source mapping hands it to a function. */
    SQSMessage toSqsMessage(String arn) {
      SQSMessage message = new SQSMessage();
      message.setMessageId(id);
      message.setReceiptHandle("rh-" + id + "-" + receives);
      message.setBody(body);
      message.setEventSourceArn(arn);
      message.setAttributes(Map.of("ApproximateReceiveCount", Integer.toString(receives)));
      return message;
    }
  }

  final String name;
  private final int maxReceiveCount;
  private final Duration visibilityTimeout;
  private final SimQueue deadLetters;
  private final List<Entry> entries = new ArrayList<>();

  /**
   * @param deadLetters where a message goes after {@code maxReceiveCount} receives, or {@code null}
   *     for a queue without a redrive policy (a dead-letter queue itself)
   */
  SimQueue(String name, int maxReceiveCount, Duration visibilityTimeout, SimQueue deadLetters) {
    this.name = name;
    this.maxReceiveCount = maxReceiveCount;
    this.visibilityTimeout = visibilityTimeout;
    this.deadLetters = deadLetters;
  }

  /** The queue's ARN as Lambda reports it in {@code eventSourceARN}. */
  String arn() {
    return "arn:aws:sqs:us-east-1:123456789012:" + name;
  }

  synchronized void send(String body, Instant now) {
    entries.add(new Entry(body, now, false));
  }

  /** A message of {@code kind}, visible {@code delay} from {@code now} ({@code DelaySeconds}). */
  synchronized void send(String body, Instant now, Duration delay, String kind) {
    entries.add(new Entry(body, now.plus(delay), false, kind));
  }

  /** A second copy of a message already delivered (SQS delivers at least once). */
  synchronized void sendDuplicate(String body, Instant now) {
    entries.add(new Entry(body, now, true));
  }

  /** A second copy of {@code entry}, with its kind attribute (SQS delivers at least once). */
  synchronized void sendDuplicate(Entry entry, Instant now) {
    entries.add(new Entry(entry.body, now, true, entry.kind));
  }

  /**
   * Receives one visible message at random (SQS standard queues keep no order), making it invisible
   * for the visibility timeout; a message past its receive budget moves to the dead-letter queue.
   */
  synchronized Optional<Entry> receive(Random random, Instant now) {
    while (true) {
      List<Entry> visible = entries.stream().filter(e -> !e.visibleAt.isAfter(now)).toList();
      if (visible.isEmpty()) {
        return Optional.empty();
      }
      Entry entry = visible.get(random.nextInt(visible.size()));
      entry.receives++;
      if (deadLetters != null && entry.receives > maxReceiveCount) {
        entries.remove(entry);
        deadLetters.entries.add(new Entry(entry.body, now, false, entry.kind));
        continue;
      }
      entry.visibleAt = now.plus(visibilityTimeout);
      return Optional.of(entry);
    }
  }

  /** Deletes a received message (the function processed it). */
  synchronized void delete(Entry entry) {
    entries.remove(entry);
  }

  /** Makes a received message visible again at once (a batch item failure). */
  synchronized void release(Entry entry, Instant now) {
    // SQS keeps the visibility timeout for a failed batch item; the harness's clock moves anyway.
    entry.visibleAt = now.plus(visibilityTimeout);
  }

  /** What is left, for a failure's message: each entry's kind, receives and body's start. */
  synchronized String describe() {
    return name
        + ": "
        + entries.stream()
            .map(
                e ->
                    (e.kind == null ? "" : e.kind + " ")
                        + e.receives
                        + "x "
                        + e.body.substring(0, Math.min(160, e.body.length())))
            .toList();
  }

  synchronized boolean isEmpty() {
    return entries.isEmpty();
  }

  synchronized int size() {
    return entries.size();
  }

  /** When the next invisible message becomes visible, if any is invisible. */
  synchronized Optional<Instant> nextVisibleAfter(Instant now) {
    return entries.stream()
        .map(e -> e.visibleAt)
        .filter(t -> t.isAfter(now))
        .min(Instant::compareTo);
  }
}
