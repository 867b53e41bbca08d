package dev.derive.coordinator.api;

import static org.assertj.core.api.Assertions.assertThat;

import dev.derive.coordinator.claim.JobStoreException;
import dev.derive.coordinator.job.JobError;
import dev.derive.coordinator.job.JobFailedException;
import dev.derive.storage.ObjectStoreException;
import jakarta.ws.rs.core.Response;
import org.junit.jupiter.api.Test;

/** How AWS outages and failed jobs are answered (issue 9 items 7 and 11), without a server. */
class ProblemMappersTest {
  private final ProblemMappers mappers = new ProblemMappers();

  @Test
  void aJobsTableOutageIs503WithRetryAfter() {
    Response response = mappers.jobStore(new JobStoreException("GetItem timed out", null));

    assertThat(response.getStatus()).isEqualTo(503);
    assertThat(response.getHeaderString("Retry-After")).isEqualTo("5");
    assertThat(response.getMediaType().toString()).isEqualTo(Problems.MEDIA_TYPE);
    Problem problem = (Problem) response.getEntity();
    assertThat(problem.type()).isEqualTo(Problems.TYPE_BASE + "service-unavailable");
    assertThat(problem.detail()).doesNotContain("Exception").doesNotContain("GetItem");
  }

  @Test
  void anObjectStoreOutageIs503WithRetryAfter() {
    Response response = mappers.objectStore(new ObjectStoreException("HEAD timed out", null));

    assertThat(response.getStatus()).isEqualTo(503);
    assertThat(response.getHeaderString("Retry-After")).isEqualTo("5");
  }

  /**
   * Issue 30 item 11: one title per problem type, whichever way it is reached: a password-protected
   * PDF's failed job and a password-protected DOCX refused at once.
   */
  @Test
  void aProblemTypeHasOneTitle() {
    Problem job =
        (Problem)
            mappers
                .coordinator(
                    new JobFailedException(
                        "ab".repeat(32),
                        new JobError("password-required", "the PDF is encrypted", 0, false)))
                .getEntity();
    Problem refused =
        (Problem)
            mappers
                .coordinator(
                    new dev.derive.coordinator.identity.PasswordProtectedSourceException("a.docx"))
                .getEntity();
    Problem corrupt =
        (Problem)
            mappers
                .coordinator(
                    new JobFailedException(
                        "ab".repeat(32), new JobError("corrupt-input", "cut short", 0, false)))
                .getEntity();

    assertThat(job.type()).isEqualTo(refused.type());
    assertThat(job.title()).isEqualTo(refused.title()).isEqualTo("Password required");
    assertThat(corrupt.title()).isEqualTo("Corrupt input");
  }

  /** A job's problem names the job in an {@code id} member, not only inside its detail. */
  @Test
  void aJobsProblemCarriesTheJobId() {
    String id = "cd".repeat(32);
    JobError error = new JobError("corrupt-input", "cut short", 0, false);

    assertThat(((Problem) mappers.coordinator(new JobFailedException(id, error)).getEntity()).id())
        .isEqualTo(id);
    Response notReady =
        mappers.coordinator(
            new dev.derive.coordinator.job.DerivativeNotReadyException(
                id, dev.derive.protocol.JobStatus.RUNNING));
    assertThat(((Problem) notReady.getEntity()).id()).isEqualTo(id);
    assertThat(notReady.getStatus()).isEqualTo(409);
    assertThat(notReady.getHeaderString("Retry-After")).isEqualTo("2");
  }

  @Test
  void aJobThatFailedIs422WithTheStepsErrorTypeAndSentence() {
    Response response =
        mappers.coordinator(
            new JobFailedException(
                "ab".repeat(32), new JobError("corrupt-input", "the JPEG ends early", 0, false)));

    assertThat(response.getStatus()).isEqualTo(422);
    Problem problem = (Problem) response.getEntity();
    assertThat(problem.type()).isEqualTo(Problems.TYPE_BASE + "corrupt-input");
    assertThat(problem.detail())
        .contains("failed at step 1 (steps are numbered from 1): the JPEG ends early");
  }

  /** Issue 26 item 7: a retryable failure held by its backoff says when to ask again. */
  @Test
  void aRetryableFailureHeldByItsBackoffIs503WithRetryAfter() {
    Response response =
        mappers.coordinator(
            new JobFailedException(
                "ab".repeat(32),
                new JobError("timeout", "the step ran out of time", 0, true),
                java.time.Instant.now().plusSeconds(120)));

    assertThat(response.getStatus()).isEqualTo(503);
    assertThat(Long.parseLong(response.getHeaderString("Retry-After"))).isBetween(100L, 120L);
    Problem problem = (Problem) response.getEntity();
    assertThat(problem.type()).isEqualTo(Problems.TYPE_BASE + "timeout");
  }
}
