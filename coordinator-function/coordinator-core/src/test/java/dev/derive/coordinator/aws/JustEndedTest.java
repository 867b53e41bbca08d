package dev.derive.coordinator.aws;

import static org.assertj.core.api.Assertions.assertThat;

import dev.derive.coordinator.Jobs;
import dev.derive.coordinator.LocalAws;
import dev.derive.coordinator.claim.StepSuccess;
import dev.derive.coordinator.completion.Callback;
import dev.derive.coordinator.completion.CompletionOutbox.PendingCompletion;
import dev.derive.coordinator.job.Job;
import dev.derive.coordinator.job.JobError;
import dev.derive.coordinator.job.StepRecord;
import dev.derive.protocol.JobStatus;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.GetItemRequest;
import software.amazon.awssdk.services.dynamodb.model.GetItemResponse;
import software.amazon.awssdk.services.dynamodb.model.PutItemRequest;
import software.amazon.awssdk.services.dynamodb.model.PutItemResponse;
import software.amazon.awssdk.services.dynamodb.model.UpdateItemRequest;
import software.amazon.awssdk.services.dynamodb.model.UpdateItemResponse;

/**
 * Issue 32 item 3: the notifier right after a write that ended a job publishes from the item that
 * write returned, with no read of its own (moto, reads counted at the client).
 */
class JustEndedTest {
  private static final Instant T0 = Instant.parse("2030-01-01T00:00:00Z");
  private static final AtomicInteger READS = new AtomicInteger();

  private static DynamoDbClient moto;
  private static DynamoDbJobStore store;
  private static DynamoDbCompletionOutbox outbox;

  @BeforeAll
  static void createTable() {
    moto = LocalAws.dynamoDb();
    String table = LocalAws.createJobsTable(moto);
    DynamoDbClient counted =
        new DynamoDbClient() {
          @Override
          public GetItemResponse getItem(GetItemRequest request) {
            READS.incrementAndGet();
            return moto.getItem(request);
          }

          @Override
          public PutItemResponse putItem(PutItemRequest request) {
            return moto.putItem(request);
          }

          @Override
          public UpdateItemResponse updateItem(UpdateItemRequest request) {
            return moto.updateItem(request);
          }

          @Override
          public String serviceName() {
            return SERVICE_NAME;
          }

          @Override
          public void close() {}
        };
    store = new DynamoDbJobStore(counted, table);
    outbox = new DynamoDbCompletionOutbox(counted, table);
  }

  @AfterAll
  static void closeClient() {
    moto.close();
  }

  @Test
  void theLastSuccessHandsItsRecordToTheNotifier() {
    Job job = running();
    StepRecord done = new StepRecord("image", StepRecord.SUCCEEDED, T0, T0, 42, false, 1);
    assertThat(
            store
                .recordSuccess(StepSuccess.last(job.jobId(), job.executionId(), 0, done, T0))
                .recorded())
        .isTrue();

    int before = READS.get();
    Optional<PendingCompletion> pending = outbox.pending(job.jobId());

    assertThat(READS.get()).isEqualTo(before);
    assertThat(pending).isPresent();
    assertThat(pending.get().job().status()).isEqualTo(JobStatus.SUCCEEDED);
    assertThat(pending.get().job().steps()).containsExactly(done);
    assertThat(pending.get().callbacks()).extracting(Callback::id).containsExactly("cb-1");
    // taken once: the next look reads the record, which says the same
    assertThat(outbox.pending(job.jobId())).isEqualTo(pending);
    assertThat(READS.get()).isEqualTo(before + 1);
  }

  @Test
  void aFailureHandsItsRecordToTheNotifier() {
    Job job = running();
    StepRecord failed = new StepRecord("image", StepRecord.FAILED, T0, T0, 0, false, 1);
    JobError error = new JobError("decode", "not an image", 0, false);
    assertThat(store.recordFailure(job.jobId(), job.executionId(), 0, failed, error, T0, 0, null))
        .isTrue();

    int before = READS.get();
    Optional<PendingCompletion> pending = outbox.pending(job.jobId());

    assertThat(READS.get()).isEqualTo(before);
    assertThat(pending.orElseThrow().job().error()).isEqualTo(error);
  }

  /**
   * What one thread's write returned is not another thread's, nor another job's: those read the
   * record (the notice marked sent meanwhile is then seen).
   */
  @Test
  void onlyTheWritingThreadsNextLookAtThatJobUsesIt() throws Exception {
    Job job = running();
    StepRecord done = new StepRecord("image", StepRecord.SUCCEEDED, T0, T0, 42, false, 1);
    store.recordSuccess(StepSuccess.last(job.jobId(), job.executionId(), 0, done, T0));
    assertThat(outbox.markSent(job.jobId(), job.executionId())).isTrue();

    int before = READS.get();
    assertThat(CompletableFuture.supplyAsync(() -> outbox.pending(job.jobId())).get()).isEmpty();
    assertThat(READS.get()).isEqualTo(before + 1);

    Job other = running();
    assertThat(outbox.pending(other.jobId())).isEmpty();
    assertThat(outbox.pending(job.jobId())).isEmpty();
    assertThat(READS.get()).isEqualTo(before + 3);
  }

  /** A job claimed, its step queued, one callback registered. */
  private static Job running() {
    Job job = Jobs.claimed(Jobs.newId(), 1, T0, Duration.ofMinutes(5));
    assertThat(store.claim(job, T0, Instant.EPOCH).won()).isTrue();
    assertThat(store.markDispatched(job.jobId(), job.executionId(), 0, T0.plusSeconds(300)))
        .isTrue();
    outbox.register(
        job.jobId(), new Callback("cb-1", "https://example.com/hook", Map.of("width", 256)));
    return job;
  }
}
