package dev.derive.coordinator.progress;

import static org.assertj.core.api.Assertions.assertThat;

import dev.derive.coordinator.Jobs;
import dev.derive.coordinator.LocalAws;
import dev.derive.coordinator.claim.DynamoDbJobStore;
import dev.derive.coordinator.claim.JobStore;
import dev.derive.coordinator.dispatch.SqsStepDispatcher;
import dev.derive.coordinator.dispatch.StepMessages;
import dev.derive.coordinator.job.Job;
import dev.derive.coordinator.job.JobError;
import dev.derive.coordinator.job.StepRun;
import dev.derive.protocol.JobStatus;
import dev.derive.protocol.message.MessageCodec;
import dev.derive.protocol.message.StepError;
import dev.derive.protocol.message.StepMessage;
import dev.derive.protocol.message.StepResult;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.Message;

class ProgressTrackerTest {
  private static final Duration LEASE = Duration.ofSeconds(60);
  private static final Instant T0 = Instant.parse("2030-01-01T00:00:00Z");
  private static final Instant NOW = T0.plusSeconds(10);

  private static DynamoDbClient dynamoDb;
  private static SqsClient sqs;
  private static JobStore store;
  private static String queueUrl;
  private static ProgressTracker tracker;

  @BeforeAll
  static void createTableAndQueue() {
    dynamoDb = LocalAws.dynamoDb();
    sqs = LocalAws.sqs();
    store = new DynamoDbJobStore(dynamoDb, LocalAws.createJobsTable(dynamoDb));
    queueUrl = LocalAws.createQueue(sqs);
    tracker =
        new ProgressTracker(
            store,
            new SqsStepDispatcher(sqs, Map.of("IMAGE_QUEUE_URL", queueUrl)::get),
            LEASE,
            Clock.fixed(NOW, ZoneOffset.UTC));
  }

  @AfterAll
  static void closeClients() {
    dynamoDb.close();
    sqs.close();
  }

  @BeforeEach
  void emptyQueue() {
    sqs.purgeQueue(b -> b.queueUrl(queueUrl));
  }

  private static Job claim(int steps) {
    Job job = Jobs.claimed(Jobs.newId(), steps, T0, LEASE);
    assertThat(store.claim(job, T0).won()).isTrue();
    return job;
  }

  private static StepResult success(Job job, int index) {
    StepMessage step = StepMessages.of(job, index, job.source().ref());
    return StepResult.success(step, 99, 1000, 2000, false);
  }

  private static List<Message> queued() {
    return sqs.receiveMessage(
            b -> b.queueUrl(queueUrl).maxNumberOfMessages(10).messageAttributeNames("All"))
        .messages();
  }

  @Test
  void successOfTheLastStepMakesTheJobSucceeded() {
    Job job = claim(1);

    assertThat(tracker.apply(success(job, 0))).isEqualTo(ProgressOutcome.SUCCEEDED);

    Job done = store.find(job.jobId()).orElseThrow();
    assertThat(done.status()).isEqualTo(JobStatus.SUCCEEDED);
    assertThat(done.steps().get(0))
        .isEqualTo(
            new StepRun(
                "image",
                StepRun.SUCCEEDED,
                Instant.ofEpochMilli(1000),
                Instant.ofEpochMilli(2000),
                99,
                false));
    assertThat(queued()).isEmpty();
  }

  @Test
  void successOfAnEarlierStepAdvancesAndDispatchesTheNextStepReadingItsOutput() {
    Job job = claim(2);

    assertThat(tracker.apply(success(job, 0))).isEqualTo(ProgressOutcome.ADVANCED);

    Job running = store.find(job.jobId()).orElseThrow();
    assertThat(running.status()).isEqualTo(JobStatus.RUNNING);
    assertThat(running.currentStep()).isEqualTo(1);
    assertThat(running.leaseExpiresAt()).isEqualTo(NOW.plus(LEASE));
    List<Message> messages = queued();
    assertThat(messages).hasSize(1);
    StepMessage next = MessageCodec.decode(messages.get(0).body(), StepMessage.class);
    assertThat(next.stepIndex()).isEqualTo(1);
    assertThat(next.input()).isEqualTo(job.plan().step(0).output());
    assertThat(next.output()).isEqualTo(job.plan().step(1).output());
    assertThat(messages.get(0).messageAttributes().get("jobId").stringValue())
        .isEqualTo(job.jobId());
    assertThat(messages.get(0).messageAttributes().get("stepIndex").stringValue()).isEqualTo("1");

    assertThat(tracker.apply(success(job, 1))).isEqualTo(ProgressOutcome.SUCCEEDED);
    assertThat(store.find(job.jobId()).orElseThrow().status()).isEqualTo(JobStatus.SUCCEEDED);
  }

  @Test
  void aDuplicateResultChangesNothing() {
    Job job = claim(2);
    tracker.apply(success(job, 0));
    Job afterFirst = store.find(job.jobId()).orElseThrow();
    queued();
    sqs.purgeQueue(b -> b.queueUrl(queueUrl));

    assertThat(tracker.apply(success(job, 0))).isEqualTo(ProgressOutcome.IGNORED);

    assertThat(store.find(job.jobId())).hasValue(afterFirst);
    assertThat(queued()).isEmpty();
  }

  @Test
  void aStaleResultWritesNothingEvenWhenItRacesPastTheRead() {
    Job job = claim(2);
    tracker.apply(success(job, 0));
    Job afterFirst = store.find(job.jobId()).orElseThrow();

    boolean changed =
        store.recordSuccess(
            job.jobId(), 0, StepRun.pending("image"), false, NOW.plusSeconds(1), NOW);

    assertThat(changed).isFalse();
    assertThat(store.find(job.jobId())).hasValue(afterFirst);
  }

  @Test
  void aResultAfterTheJobEndedChangesNothing() {
    Job job = claim(1);
    tracker.apply(success(job, 0));
    Job done = store.find(job.jobId()).orElseThrow();

    StepResult lateFailure =
        StepResult.failure(
            StepMessages.first(job), new StepError("timeout", "late", true), 1000, 3000);

    assertThat(tracker.apply(lateFailure)).isEqualTo(ProgressOutcome.IGNORED);
    assertThat(store.find(job.jobId())).hasValue(done);
  }

  @Test
  void aFailedStepFailsTheJobWithItsError() {
    Job job = claim(2);

    StepResult failure =
        StepResult.failure(
            StepMessages.first(job), new StepError("corrupt-input", "bad huffman", false), 5, 6);

    assertThat(tracker.apply(failure)).isEqualTo(ProgressOutcome.FAILED);
    Job failed = store.find(job.jobId()).orElseThrow();
    assertThat(failed.status()).isEqualTo(JobStatus.FAILED);
    assertThat(failed.error()).isEqualTo(new JobError("corrupt-input", "bad huffman", 0, false));
    assertThat(failed.steps().get(0).status()).isEqualTo(StepRun.FAILED);
    assertThat(queued()).isEmpty();
  }

  @Test
  void aResultForAnUnknownJobIsDropped() {
    Job never = Jobs.claimed(Jobs.newId(), 1, T0, LEASE);

    assertThat(tracker.apply(success(never, 0))).isEqualTo(ProgressOutcome.UNKNOWN_JOB);
  }
}
