package dev.derive.coordinator.claim;

import dev.derive.coordinator.job.Job;
import java.util.Optional;

/**
 * The outcome of a conditional step write that reads the record when it does not apply: either
 * recorded, or not with the job as it is now.
 *
 * @param recorded whether the write applied
 * @param current when not recorded, the job as the failed write found it (empty when there is no
 *     such job); empty when recorded
 */
public record StepWrite(boolean recorded, Optional<Job> current) {
  private static final StepWrite RECORDED = new StepWrite(true, Optional.empty());

  /** The write applied. */
  public static StepWrite applied() {
    return RECORDED;
  }

  /** The write did not apply; {@code current} is the record as it is (empty: no such job). */
  public static StepWrite notApplied(Optional<Job> current) {
    return new StepWrite(false, current);
  }
}
