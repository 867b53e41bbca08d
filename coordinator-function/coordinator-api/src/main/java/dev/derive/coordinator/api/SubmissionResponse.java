package dev.derive.coordinator.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import dev.derive.protocol.JobStatus;

/**
 * The body of a {@code POST /v1/derivatives} response.
 *
 * @param id the derivative's fingerprint, which is also the job id
 * @param status SUCCEEDED on a cache hit, else the job's status
 * @param download the derivative, on a cache hit
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record SubmissionResponse(String id, JobStatus status, DownloadResponse download) {}
