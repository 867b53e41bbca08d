package dev.derive.worker.runtime.lambda;

import dev.derive.worker.runtime.QueuedMessage;
import dev.derive.worker.runtime.StepQueue;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/**
 * Keeps the messages of the batch an invocation holds hidden for a short visibility timeout at a
 * time, so that a step whose worker process dies is delivered again within that timeout instead of
 * its queue's (720–1800 s, which must be at least the function's timeout for an event source
 * mapping; docs/job-lifecycle.md, "Crashes and poison").
 *
 * <p>At once and then every third of the timeout, until the invocation ends ({@link Hold#close}) or
 * its deadline passes, each message of the batch (started, waiting or done: Lambda deletes the done
 * ones only once the invocation has answered) is made invisible for {@link #visibilitySeconds} from
 * then ({@code ChangeMessageVisibility}). A process that dies beats no more: its messages are
 * visible again within the timeout. A beat that fails (the process paused longer than two beats,
 * SQS throttled) lets a message reappear while its step still runs: a second delivery, which the
 * lifecycle tolerates as it tolerates SQS's own (the output is content-addressed; the results of
 * one step are applied once). A message whose receipt is no longer valid is no longer beaten for. A
 * message handed back at the end of an invocation is visible again within the timeout.
 */
public final class VisibilityHeartbeat {
  /** The environment variable holding {@link #visibilitySeconds}. */
  public static final String VISIBILITY_VARIABLE = "STEP_VISIBILITY_TIMEOUT_SECONDS";

  /** The default of {@link #visibilitySeconds}: a minute. */
  public static final int DEFAULT_VISIBILITY_SECONDS = 60;

  /** No heartbeat: messages keep their queue's visibility timeout. */
  public static final VisibilityHeartbeat NONE = new VisibilityHeartbeat(StepQueue.NONE, 0);

  private static final System.Logger LOG = System.getLogger(VisibilityHeartbeat.class.getName());

  private final StepQueue queue;
  private final int visibilitySeconds;
  private final ScheduledExecutorService beats;
  private final LongSupplier clockMillis;

  /**
   * @param queue where the visibility is changed
   * @param visibilitySeconds how long each beat hides a message; 0 for none
   */
  public VisibilityHeartbeat(StepQueue queue, int visibilitySeconds) {
    this(queue, visibilitySeconds, System::currentTimeMillis);
  }

  VisibilityHeartbeat(StepQueue queue, int visibilitySeconds, LongSupplier clockMillis) {
    if (visibilitySeconds < 0 || visibilitySeconds > 43_200) {
      throw new IllegalArgumentException(
          VISIBILITY_VARIABLE + " must be 0 to 43200 seconds: " + visibilitySeconds);
    }
    this.queue = Objects.requireNonNull(queue, "queue");
    this.visibilitySeconds = visibilitySeconds;
    this.clockMillis = clockMillis;
    this.beats =
        visibilitySeconds == 0
            ? null
            : Executors.newSingleThreadScheduledExecutor(
                Thread.ofPlatform().daemon().name("derive-visibility-heartbeat").factory());
  }

  /**
   * Parses a value of {@value #VISIBILITY_VARIABLE}: {@code null} or blank is the default.
   *
   * @throws IllegalArgumentException if it is not a whole number of seconds
   */
  public static int parseVisibilitySeconds(String value) {
    if (value == null || value.isBlank()) {
      return DEFAULT_VISIBILITY_SECONDS;
    }
    try {
      return Integer.parseInt(value.trim());
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(
          VISIBILITY_VARIABLE + " is not a number of seconds: " + value, e);
    }
  }

  /** How long each beat hides a message, in seconds (0: no heartbeat). */
  public int visibilitySeconds() {
    return visibilitySeconds;
  }

  /**
   * Starts beating for {@code messages}: the first beat at once, on the heartbeat's thread (the
   * batch does not wait for it).
   *
   * @param deadlineMillis epoch ms after which no beat is made (the invocation's deadline); {@link
   *     Long#MAX_VALUE} for none
   */
  public Hold hold(List<QueuedMessage> messages, long deadlineMillis) {
    return new Hold(messages, deadlineMillis);
  }

  /** The beats for one batch; closing it stops them. */
  public final class Hold implements AutoCloseable {
    private final List<QueuedMessage> held;
    private final long deadlineMillis;
    private final ScheduledFuture<?> schedule;

    private Hold(List<QueuedMessage> messages, long deadlineMillis) {
      this.held = new CopyOnWriteArrayList<>(messages);
      this.deadlineMillis = deadlineMillis;
      long period = Math.max(1_000L, visibilitySeconds * 1_000L / 3);
      this.schedule =
          beats == null || held.isEmpty()
              ? null
              : beats.scheduleWithFixedDelay(this::beat, 0, period, TimeUnit.MILLISECONDS);
    }

    /** One beat; never throws (a periodic task that throws is never run again). */
    private void beat() {
      try {
        if (held.isEmpty() || clockMillis.getAsLong() > deadlineMillis) {
          return;
        }
        Set<String> failed = queue.changeVisibility(List.copyOf(held), visibilitySeconds);
        if (!failed.isEmpty()) {
          LOG.log(
              System.Logger.Level.WARNING,
              "the visibility of "
                  + failed
                  + " could not be extended: each may be delivered again while this invocation"
                  + " holds it, and its step run twice (the same output)");
          held.removeIf(m -> failed.contains(m.messageId()));
        }
      } catch (Throwable t) { // the next beat tries again; a missed one costs a duplicate at most
        LOG.log(System.Logger.Level.WARNING, "visibility heartbeat failed: " + t);
      }
    }

    /** Stops the beats (waits for one under way, so no beat follows the invocation's answer). */
    @Override
    public void close() {
      if (schedule == null) {
        return;
      }
      schedule.cancel(false);
      try {
        beats.submit(() -> {}).get(5, TimeUnit.SECONDS);
      } catch (Exception e) {
        // a beat still under way only hides a message a little longer
        if (e instanceof InterruptedException) {
          Thread.currentThread().interrupt();
        }
      }
    }
  }
}
