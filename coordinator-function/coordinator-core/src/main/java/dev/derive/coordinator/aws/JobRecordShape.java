package dev.derive.coordinator.aws;

/**
 * Which attributes a job record is written with. Every release since this enum reads both shapes;
 * the writers switch to {@link #COMPACT} only in a later release, once no instance of a release
 * before it can read the table any more ({@code docs/job-lifecycle.md}, "The record's shape across
 * a deploy").
 */
public enum JobRecordShape {
  /** Every attribute the releases before 2026-12-06 read (thumbnail ~1.3 KB: 2 write units). */
  FULL,

  /**
   * Without what the item says twice: the {@code output} attribute (the plan's last step output),
   * the plan's fingerprint (the {@code jobId}), the last output's key ({@code derivatives/<jobId>})
   * each earlier output's bucket when it is the last one's, and each step's capability in its
   * {@code steps} entry (the plan's step names it). Read only by releases since 2026-12-06
   * (thumbnail ~1.0 KB: 1 write unit).
   */
  COMPACT
}
