package dev.derive.worker.runtime;

import java.util.Objects;

/**
 * A step that ended in a throw: its cause is what it threw ({@link StepFailures} classifies it),
 * {@link #progress} what the delivery had made by then. No stack trace of its own: it only carries
 * the two from the {@link StepExecutor} to the {@link StepRunner}.
 */
final class StepFailedException extends Exception {
  private final transient StepProgress progress;

  StepFailedException(StepProgress progress, Throwable cause) {
    super(Objects.requireNonNull(cause, "cause").toString(), cause, false, false);
    this.progress = progress;
  }

  /** What the delivery had read, written and was about to report when its step threw. */
  StepProgress progress() {
    return progress;
  }
}
