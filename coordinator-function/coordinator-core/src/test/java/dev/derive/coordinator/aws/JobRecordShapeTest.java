package dev.derive.coordinator.aws;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import dev.derive.coordinator.LocalAws;
import dev.derive.coordinator.claim.JobStore;
import dev.derive.coordinator.claim.StepSuccess;
import dev.derive.coordinator.identity.SourceIdentity;
import dev.derive.coordinator.job.Job;
import dev.derive.coordinator.job.StepRecord;
import dev.derive.coordinator.plan.Plan;
import dev.derive.coordinator.plan.PlannedStep;
import dev.derive.protocol.JobStatus;
import dev.derive.protocol.message.ObjectRef;
import dev.derive.protocol.message.Operation;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * The job record's two shapes ({@link JobRecordShape}) across a deploy: what each writes, what its
 * size is, and that instances writing either shape carry one job between them (moto).
 */
class JobRecordShapeTest {
  private static final Instant T0 = Instant.parse("2030-01-01T00:00:00Z");
  private static final String BUCKET = "derive-prod-derivatives-123456789012";
  private static final Duration LEASE = Duration.ofMinutes(5);

  private static DynamoDbClient dynamoDb;
  private static String table;
  private static JobStore full;
  private static JobStore compact;

  @BeforeAll
  static void createTable() {
    dynamoDb = LocalAws.dynamoDb();
    table = LocalAws.createJobsTable(dynamoDb);
    full = new DynamoDbJobStore(dynamoDb, table, JobRecordShape.FULL);
    compact = new DynamoDbJobStore(dynamoDb, table, JobRecordShape.COMPACT);
  }

  @AfterAll
  static void closeClient() {
    dynamoDb.close();
  }

  /**
   * Issue 32 item 3: a thumbnail's record, as it is once SUCCEEDED with its notice pending, fits
   * one write unit (1 KB) in the compact shape; a 3-step chain's fits two. Sizes as DynamoDB counts
   * them (names plus values), printed for docs/cost.md.
   */
  @Test
  void aCompactThumbnailRecordFitsOneWriteUnit() {
    Job thumbnail = succeeded(chain(1));
    Job threeSteps = succeeded(chain(3));

    long fullThumbnail = size(withNotice(JobItems.toItem(thumbnail, JobRecordShape.FULL)));
    long compactThumbnail = size(withNotice(JobItems.toItem(thumbnail, JobRecordShape.COMPACT)));
    long fullChain = size(withNotice(JobItems.toItem(threeSteps, JobRecordShape.FULL)));
    long compactChain = size(withNotice(JobItems.toItem(threeSteps, JobRecordShape.COMPACT)));
    System.out.printf(
        "job record bytes: thumbnail %d full, %d compact; 3 steps %d full, %d compact%n",
        fullThumbnail, compactThumbnail, fullChain, compactChain);

    assertThat(compactThumbnail).isLessThan(1024);
    assertThat(compactChain).isLessThan(2048);
    assertThat(JobItems.fromItem(JobItems.toItem(thumbnail, JobRecordShape.COMPACT)))
        .isEqualTo(thumbnail);
    assertThat(JobItems.fromItem(JobItems.toItem(threeSteps, JobRecordShape.COMPACT)))
        .isEqualTo(threeSteps);
  }

  /**
   * The full shape is still what the release before the compact reader reads: an {@code output}
   * map, and a plan whose JSON is the whole plan as that release parsed it ({@code readValue} into
   * {@link Plan}, every output with its bucket and key).
   */
  @Test
  void theFullShapeHoldsEverythingTheReleaseBeforeReads() throws Exception {
    Job job = succeeded(chain(3));
    Map<String, AttributeValue> item = JobItems.toItem(job, JobRecordShape.FULL);
    ObjectMapper previousReader = JsonMapper.builder().build();

    assertThat(previousReader.readValue(item.get(JobItems.PLAN).s(), Plan.class))
        .isEqualTo(job.plan());
    assertThat(item.get(JobItems.OUTPUT).m())
        .containsEntry("bucket", AttributeValue.fromS(BUCKET))
        .containsEntry("key", AttributeValue.fromS("derivatives/" + job.jobId()));
  }

  /**
   * A record written by the release before this one (every attribute, {@code stepCount}, default
   * step values written out) reads as the job it was.
   */
  @Test
  void aRecordOfTheReleaseBeforeIsRead() throws Exception {
    Job job = succeeded(chain(2));
    Map<String, AttributeValue> item = new HashMap<>(JobItems.toItem(job, JobRecordShape.FULL));
    item.put(JobItems.STEP_COUNT, JobItems.n(2));
    List<AttributeValue> runs = new ArrayList<>();
    for (AttributeValue run : item.get(JobItems.STEPS).l()) {
      Map<String, AttributeValue> m = new HashMap<>(run.m());
      m.putIfAbsent("reused", AttributeValue.fromBool(false));
      m.putIfAbsent("attempts", JobItems.n(0));
      m.putIfAbsent("outputBytes", JobItems.n(0));
      runs.add(AttributeValue.fromM(m));
    }
    item.put(JobItems.STEPS, AttributeValue.fromL(runs));

    assertThat(JobItems.fromItem(item)).isEqualTo(job);
  }

  /**
   * During a deploy that turns the compact shape on, a job claimed by an instance writing one shape
   * is carried on by instances writing the other, in both directions, and every instance reads it
   * whole.
   */
  @Test
  void instancesWritingEitherShapeCarryOneJobBetweenThem() {
    for (JobStore[] order :
        List.of(new JobStore[] {full, compact}, new JobStore[] {compact, full})) {
      Job job = chain(2);
      JobStore claimer = order[0];
      JobStore other = order[1];
      assertThat(claimer.claim(job, T0, Instant.EPOCH).won()).isTrue();
      assertThat(other.find(job.jobId())).contains(job);

      assertThat(other.markDispatched(job.jobId(), job.executionId(), 0, T0.plus(LEASE))).isTrue();
      StepRecord first = new StepRecord("markup", StepRecord.SUCCEEDED, T0, T0, 100, false, 1);
      assertThat(
              other
                  .recordSuccess(
                      StepSuccess.advance(
                          job.jobId(), job.executionId(), 0, first, T0, T0.plus(LEASE)))
                  .recorded())
          .isTrue();
      StepRecord last = new StepRecord("image", StepRecord.SUCCEEDED, T0, T0, 42, false, 1);
      Job ended =
          claimer
              .recordSuccess(StepSuccess.last(job.jobId(), job.executionId(), 1, last, T0))
              .current()
              .orElseThrow();

      assertThat(ended.status()).isEqualTo(JobStatus.SUCCEEDED);
      assertThat(ended.plan()).isEqualTo(job.plan());
      assertThat(ended.output()).isEqualTo(job.output());
      assertThat(ended.steps()).containsExactly(first, last);
      assertThat(full.find(job.jobId())).contains(ended);
      assertThat(compact.find(job.jobId())).contains(ended);
    }
  }

  /**
   * A compact take-over of a lost full record leaves no attribute of the full shape behind that
   * would disagree with it ({@code output}, {@code stepCount}).
   */
  @Test
  void aCompactTakeOverOfAFullRecordReadsAsTheCandidate() {
    Job lost = chain(1);
    full.claim(lost, T0, Instant.EPOCH);
    // as the release before wrote it
    dynamoDb.updateItem(
        b ->
            b.tableName(table)
                .key(Map.of(JobItems.JOB_ID, AttributeValue.fromS(lost.jobId())))
                .updateExpression("SET stepCount = :one")
                .expressionAttributeValues(Map.of(":one", JobItems.n(1))));
    Job candidate = lost.withExecution("next");
    Instant later = T0.plus(LEASE).plusSeconds(1);

    assertThat(compact.takeOver(candidate, lost.executionId(), later).won()).isTrue();

    Map<String, AttributeValue> item =
        dynamoDb
            .getItem(
                b ->
                    b.tableName(table)
                        .key(Map.of(JobItems.JOB_ID, AttributeValue.fromS(lost.jobId())))
                        .consistentRead(true))
            .item();
    assertThat(item).doesNotContainKeys(JobItems.OUTPUT, JobItems.STEP_COUNT);
    assertThat(full.find(lost.jobId())).contains(candidate);
  }

  /** A claimed job of a chain as the planner makes one: intermediates, then the derivative. */
  private static Job chain(int steps) {
    String id = dev.derive.coordinator.Jobs.newId();
    List<PlannedStep> planned = new ArrayList<>();
    for (int i = 0; i < steps; i++) {
      boolean last = i == steps - 1;
      planned.add(
          new PlannedStep(
              last ? "image" : i == 0 ? "markup" : "pdf",
              last
                  ? List.of(
                      new Operation(
                          "resize",
                          Map.of(
                              "fit",
                              "inside",
                              "height",
                              256,
                              "width",
                              256,
                              "withoutEnlargement",
                              true)),
                      new Operation("encode", Map.of("mediaType", "image/jpeg", "quality", 85)))
                  : List.of(new Operation("render", Map.of("dpi", 150, "page", 1))),
              "image/jpeg",
              "image/jpeg",
              ObjectRef.of(
                  BUCKET,
                  last
                      ? "derivatives/" + id
                      : "intermediates/" + dev.derive.coordinator.Jobs.newId())));
    }
    SourceIdentity source =
        new SourceIdentity(
            "derive-prod-source-123456789012",
            "uploads/226e5c0f-0da3-41f7-a171-8f911fcc956a/photo-12mp.jpg",
            "a6101c5a-7fcc-476f-b737-e8edeae23fb8",
            "\"84df6599c2bd01a5da5a53cf6df58846\"",
            2_283_057,
            "image/jpeg",
            "ZbfFcI9CLHeYjAnAuF/4+FTmg+WItoIl31TwnvS/J50=");
    return Job.claimed(
        new Plan(id, planned),
        source,
        T0,
        LEASE,
        Duration.ofDays(7),
        "Root=1-6757a1b2-0123456789abcdef01234567");
  }

  /** {@code job} SUCCEEDED at its last step, every step with its timings. */
  private static Job succeeded(Job job) {
    List<StepRecord> runs = new ArrayList<>();
    for (StepRecord run : job.steps()) {
      runs.add(
          new StepRecord(
              run.capability(),
              StepRecord.SUCCEEDED,
              T0.plusMillis(1_796_516_490_504L),
              T0.plusMillis(1_796_516_490_894L),
              24_746,
              false,
              1));
    }
    return new Job(
        job.jobId(),
        JobStatus.SUCCEEDED,
        job.plan(),
        job.plan().size(),
        job.source(),
        job.output(),
        runs,
        null,
        job.createdAt(),
        job.createdAt().plusMillis(400),
        job.createdAt(),
        job.expiresAt(),
        job.traceId(),
        job.executionId(),
        0,
        null);
  }

  private static Map<String, AttributeValue> withNotice(Map<String, AttributeValue> item) {
    Map<String, AttributeValue> noticed = new HashMap<>(item);
    noticed.put(JobItems.COMPLETION, AttributeValue.fromS(JobItems.COMPLETION_PENDING));
    return noticed;
  }

  /** An item's size as DynamoDB bills it: each name's UTF-8 bytes plus its value's. */
  static long size(Map<String, AttributeValue> item) {
    long bytes = 0;
    for (Map.Entry<String, AttributeValue> e : item.entrySet()) {
      bytes += utf8(e.getKey()) + size(e.getValue());
    }
    return bytes;
  }

  private static long size(AttributeValue value) {
    if (value.s() != null) {
      return utf8(value.s());
    }
    if (value.n() != null) {
      String digits = value.n().replace("-", "").replace(".", "").replaceFirst("^0+", "");
      return (digits.length() + 1) / 2 + 1;
    }
    if (value.bool() != null) {
      return 1;
    }
    if (value.hasM()) {
      long bytes = 3;
      for (Map.Entry<String, AttributeValue> e : value.m().entrySet()) {
        bytes += utf8(e.getKey()) + size(e.getValue()) + 1;
      }
      return bytes;
    }
    if (value.hasL()) {
      long bytes = 3;
      for (AttributeValue element : value.l()) {
        bytes += size(element) + 1;
      }
      return bytes;
    }
    return 1;
  }

  private static long utf8(String text) {
    return text.getBytes(StandardCharsets.UTF_8).length;
  }
}
