package dev.derive.coordinator.lifecycle;

import dev.derive.coordinator.dispatch.DispatchFailedException;
import dev.derive.coordinator.dispatch.StepDispatcher;
import dev.derive.protocol.message.StepMessage;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * A {@link StepDispatcher} that keeps what it was sent, can be told to fail the next sends (an SQS
 * outage), and can run a hook on each send (a worker that answers before the sender returns).
 */
public final class RecordingDispatcher implements StepDispatcher {
  private final List<StepMessage> sent = new ArrayList<>();
  private int failuresToCome;
  private Consumer<StepMessage> onSend = m -> {};

  @Override
  public synchronized void dispatch(StepMessage step) {
    if (failuresToCome > 0) {
      failuresToCome--;
      throw new DispatchFailedException(
          "SendMessage of step " + step.stepIndex() + " failed (injected)", null);
    }
    sent.add(step);
    onSend.accept(step);
  }

  /** Makes the next {@code count} sends fail. */
  public synchronized void failNext(int count) {
    failuresToCome = count;
  }

  /** Runs {@code hook} on every successful send, after it is recorded. */
  public synchronized void onSend(Consumer<StepMessage> hook) {
    onSend = hook;
  }

  /** Everything sent so far, in order. */
  public synchronized List<StepMessage> sent() {
    return List.copyOf(sent);
  }

  /** The last message sent. */
  public synchronized StepMessage last() {
    return sent.get(sent.size() - 1);
  }
}
