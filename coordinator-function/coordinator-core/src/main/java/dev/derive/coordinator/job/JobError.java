package dev.derive.coordinator.job;

/**
 * Why a job failed.
 *
 * @param type stable error kind, e.g. {@code corrupt-input} (see {@code StepErrorTypes})
 * @param detail human-readable explanation
 * @param step index of the step that failed in the plan, from 0 (stored so); whatever a user reads
 *     numbers steps from 1 ({@code error.step} of the API, details, the CLI)
 * @param retryable whether a new request may take the job over and try again
 */
public record JobError(String type, String detail, int step, boolean retryable) {}
