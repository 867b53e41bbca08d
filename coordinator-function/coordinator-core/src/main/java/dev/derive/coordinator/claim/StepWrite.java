package dev.derive.coordinator.claim;

import dev.derive.coordinator.job.Job;
import java.util.Optional;

/**
 * The outcome of a conditional step write that returns the record: recorded (with the job as
 * written, when the write returns it), or not with the job as the failed write found it.
 *
 * @param recorded whether the write applied
 * @param current the job as it is now: as written when recorded (empty if the write does not return
 *     it), as found when not (empty when there is no such job)
 */
public record StepWrite(boolean recorded, Optional<Job> current) {
  private static final StepWrite RECORDED = new StepWrite(true, Optional.empty());

  /** The write applied. */
  public static StepWrite applied() {
    return RECORDED;
  }

  /** The write applied and made {@code written}. */
  public static StepWrite applied(Job written) {
    return new StepWrite(true, Optional.of(written));
  }

  /** The write did not apply; {@code current} is the record as it is (empty: no such job). */
  public static StepWrite notApplied(Optional<Job> current) {
    return new StepWrite(false, current);
  }
}
