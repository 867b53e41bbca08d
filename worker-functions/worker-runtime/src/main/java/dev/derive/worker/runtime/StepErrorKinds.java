package dev.derive.worker.runtime;

import dev.derive.protocol.message.StepErrorTypes;
import java.util.Set;

/**
 * The one place that decides whether a step error is retryable, i.e. whether a new request for the
 * same derivative may succeed, so the coordinator lets it reclaim the FAILED job (issue 9, item 7).
 *
 * <ul>
 *   <li>Retryable: the failure belongs to this execution, not to the input or the operations:
 *       {@code timeout}, {@code input-missing} (an intermediate deleted by the lifecycle rule
 *       between the coordinator's check and the worker's read; a new execution makes it again),
 *       {@code source-changed} (the next request gets the new source's fingerprint), {@code
 *       worker-failed} and {@code dead-lettered} (the worker, not the input, gave out).
 *   <li>Permanent: the same input with the same operations fails the same way: {@code
 *       corrupt-input}, {@code unsupported-input}, {@code password-required}, {@code
 *       input-too-large}, {@code output-too-large}, {@code invalid-step}, and any kind not listed
 *       here (a capability's own kind is about its input unless it is added to this table).
 * </ul>
 */
public final class StepErrorKinds {
  private static final Set<String> RETRYABLE =
      Set.of(
          StepErrorTypes.TIMEOUT,
          StepErrorTypes.INPUT_MISSING,
          StepErrorTypes.SOURCE_CHANGED,
          StepErrorTypes.WORKER_FAILED,
          StepErrorTypes.DEAD_LETTERED);

  private StepErrorKinds() {}

  /**
   * Whether an error of kind {@code type} (one of {@link StepErrorTypes}) may go away on a new
   * request; {@code false} for {@code null} and unknown kinds.
   */
  public static boolean retryable(String type) {
    return type != null && RETRYABLE.contains(type);
  }
}
