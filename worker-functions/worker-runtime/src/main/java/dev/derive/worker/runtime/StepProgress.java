package dev.derive.worker.runtime;

import dev.derive.protocol.message.StepResult;

/**
 * How far a delivery's step got, for its log line and its last word: the bytes read and written
 * and, once its output exists, the success to report. A value: each stage returns a new one.
 *
 * @param inputBytes bytes read from the input, or {@code null} if not read
 * @param outputBytes bytes of the output, or {@code null} if none
 * @param success the success result once the output exists (sent, or about to be), else {@code
 *     null}; if sending it fails on the last delivery it is what is sent again, never a failure of
 *     a step whose output exists
 * @param successOutcome how the delivery ends once {@code success} is sent ({@link
 *     StepOutcome#REUSED} or {@link StepOutcome#SUCCEEDED}), else {@code null}
 */
record StepProgress(
    Long inputBytes, Long outputBytes, StepResult success, StepOutcome successOutcome) {
  /** Nothing read, nothing written. */
  static final StepProgress NONE = new StepProgress(null, null, null, null);

  /** This progress with the input read, {@code bytes} long ({@code null}: not read). */
  StepProgress read(Long bytes) {
    return new StepProgress(bytes, outputBytes, success, successOutcome);
  }

  /** This progress with an output of {@code bytes} made (not yet stored). */
  StepProgress written(long bytes) {
    return new StepProgress(inputBytes, bytes, success, successOutcome);
  }

  /**
   * This progress with an output of {@code bytes} existing and {@code success} to be reported.
   *
   * @param reused whether the output existed before this delivery
   */
  StepProgress succeeded(long bytes, StepResult success, boolean reused) {
    return new StepProgress(
        inputBytes, bytes, success, reused ? StepOutcome.REUSED : StepOutcome.SUCCEEDED);
  }
}
