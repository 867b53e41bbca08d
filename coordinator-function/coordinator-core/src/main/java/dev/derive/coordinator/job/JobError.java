package dev.derive.coordinator.job;

/**
 * Why a job failed.
 *
 * @param type stable error kind, e.g. {@code corrupt-input} (see {@code StepErrorTypes})
 * @param detail human-readable explanation
 * @param step index of the step that failed
 * @param retryable whether a new request may take the job over and try again
 */
public record JobError(String type, String detail, int step, boolean retryable) {}
