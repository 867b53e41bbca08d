package dev.derive.worker.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import com.amazonaws.services.lambda.runtime.ClientContext;
import com.amazonaws.services.lambda.runtime.CognitoIdentity;
import com.amazonaws.services.lambda.runtime.Context;
import com.amazonaws.services.lambda.runtime.LambdaLogger;
import com.amazonaws.services.lambda.runtime.events.SQSBatchResponse;
import com.amazonaws.services.lambda.runtime.events.SQSBatchResponse.BatchItemFailure;
import com.amazonaws.services.lambda.runtime.events.SQSEvent;
import com.amazonaws.services.lambda.runtime.events.SQSEvent.SQSMessage;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.derive.protocol.MediaTypes;
import dev.derive.protocol.message.MessageCodec;
import dev.derive.protocol.message.ObjectRef;
import dev.derive.protocol.message.StepErrorTypes;
import dev.derive.protocol.message.StepMessage;
import dev.derive.protocol.message.StepResult;
import dev.derive.worker.runtime.lambda.StepBatchProcessor;
import dev.derive.worker.runtime.lambda.VisibilityHeartbeat;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Predicate;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** The batch processor's classification of outcomes, with in-memory seams. */
class StepBatchProcessorTest {
  private static final String CAPABILITY = "upper";
  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir Path tempDir;

  private final InMemoryObjectStore store = new InMemoryObjectStore();
  private final List<StepResult> published = new ArrayList<>();
  private final AtomicInteger transforms = new AtomicInteger();
  private final ByteArrayOutputStream logBytes = new ByteArrayOutputStream();
  private RuntimeException publishFailure;

  /**
   * When set, publishing a start report first waits (up to 10 s) until this holds, and records in
   * {@link #startReportSawItHold} whether it did.
   */
  private volatile java.util.function.BooleanSupplier startReportWaitsFor;

  private volatile Boolean startReportSawItHold;

  /** Publishing fails with {@link #publishFailure} only for results this accepts (all if null). */
  private Predicate<StepResult> failPublishOf;

  /** The reasons the processor asked the process to exit for, and how much was published then. */
  private final List<String> exitReasons = new ArrayList<>();

  private final List<Integer> publishedAtExit = new ArrayList<>();

  /** Lets a "spin" transformation end; until then it ignores interrupts. */
  private volatile boolean released;

  private final CountDownLatch spinEnded = new CountDownLatch(1);
  private final CountDownLatch sleepInterrupted = new CountDownLatch(1);

  /**
   * Upper-cases ASCII; input "corrupt" fails permanently ("leaky" too, its detail naming a Java
   * class); "spin" loops ignoring interrupts until {@link #released}, then writes its output;
   * "sleep" sleeps a minute (interruptibly); "oom" and "deep" throw {@link OutOfMemoryError} and
   * {@link StackOverflowError}; "wrapped-oom" reports corrupt input caused by an {@link
   * OutOfMemoryError}.
   */
  private final StepTransformer upper =
      new StepTransformer() {
        @Override
        public void transform(DeclaredStep step, Path input, Path output) throws IOException {
          transforms.incrementAndGet();
          String text = Files.readString(input);
          if (text.equals("spin")) {
            try {
              while (!released) {
                Thread.interrupted();
                LockSupport.parkNanos(1_000_000);
              }
              Files.writeString(output, "LATE");
            } finally {
              spinEnded.countDown();
            }
            return;
          }
          if (text.equals("sleep")) {
            try {
              Thread.sleep(60_000);
            } catch (InterruptedException e) {
              sleepInterrupted.countDown();
              throw new InterruptedIOException("interrupted");
            }
          }
          if (text.equals("corrupt")) {
            throw new PermanentStepFailure(StepErrorTypes.CORRUPT_INPUT, "cannot read it");
          }
          if (text.equals("leaky")) {
            // as a capability that lets its library's message into the detail
            throw new PermanentStepFailure(
                StepErrorTypes.CORRUPT_INPUT,
                "cannot read the jpeg header: javax.imageio.IIOException: No SOF segment",
                new IOException("No SOF segment"));
          }
          if (text.equals("oom")) {
            throw new OutOfMemoryError("Java heap space");
          }
          if (text.equals("deep")) {
            throw new StackOverflowError();
          }
          if (text.equals("wrapped-oom")) {
            // as a decoder that catches what its library throws and blames the input
            throw new PermanentStepFailure(
                StepErrorTypes.CORRUPT_INPUT,
                "cannot decode the JPEG image: javax.imageio.IIOException: read failed",
                new IOException("read failed", new OutOfMemoryError("Java heap space")));
          }
          Files.writeString(output, text.toUpperCase());
        }

        @Override
        public void probe(Path scratch) throws IOException {
          throw new UnsupportedOperationException("the batch processor never probes");
        }
      };

  private StepBatchProcessor processor;

  @BeforeEach
  void setUp() {
    processor = processor(10_000);
  }

  @AfterEach
  void releaseSpinningTransformations() {
    released = true;
  }

  private StepBatchProcessor processor(long maxSourceBytes) {
    return processor(new WorkerSettings("http://queue", maxSourceBytes, 1_000, tempDir));
  }

  private StepBatchProcessor processor(WorkerSettings settings) {
    return new StepBatchProcessor(
        new StepWorker(
            TestDeclarations.plainText(CAPABILITY),
            upper,
            store,
            result -> {
              if (result.isStarted() && startReportWaitsFor != null) {
                startReportSawItHold = Polling.until(startReportWaitsFor);
              }
              if (publishFailure != null && (failPublishOf == null || failPublishOf.test(result))) {
                throw publishFailure;
              }
              published.add(result);
            },
            settings,
            new StepLog(new PrintStream(logBytes, true, StandardCharsets.UTF_8)),
            Clock.systemUTC(),
            reason -> {
              exitReasons.add(reason);
              publishedAtExit.add(published.size());
            }));
  }

  /** A processor whose steps report their start once they have run {@code delayMillis}. */
  private StepBatchProcessor processorReportingStartsAfter(long delayMillis) {
    return processor(
        new WorkerSettings("http://queue", 10_000, 1_000, tempDir)
            .withStartReportDelayMillis(delayMillis));
  }

  /** The finished results published (started reports left out). */
  private List<StepResult> finished() {
    return published.stream().filter(r -> !r.isStarted()).toList();
  }

  /** The started reports published. */
  private List<StepResult> started() {
    return published.stream().filter(StepResult::isStarted).toList();
  }

  @Test
  void transformsTheInputWritesTheOutputAndReportsSuccess() {
    store.put(input("a"), "hello".getBytes(StandardCharsets.UTF_8));

    SQSBatchResponse response = processor.process(event(record("m1", step("a"))), null);

    assertThat(response.getBatchItemFailures()).isEmpty();
    assertThat(new String(store.get(output("a")), StandardCharsets.UTF_8)).isEqualTo("HELLO");
    assertThat(store.contentTypes.get(output("a").toString())).isEqualTo(MediaTypes.TEXT_PLAIN);
    assertThat(finished())
        .singleElement()
        .satisfies(
            r -> {
              assertThat(r.succeeded()).isTrue();
              assertThat(r.reused()).isFalse();
              assertThat(r.outputBytes()).isEqualTo(5);
              assertThat(r.output()).isEqualTo(output("a"));
            });
    assertThat(logLines())
        .singleElement()
        .satisfies(
            line -> {
              assertThat(line.get("event").asText()).isEqualTo("step");
              assertThat(line.get("jobId").asText()).isEqualTo(jobId("a"));
              assertThat(line.get("outcome").asText()).isEqualTo("succeeded");
              assertThat(line.get("inputBytes").asLong()).isEqualTo(5);
              assertThat(line.get("outputBytes").asLong()).isEqualTo(5);
            });
  }

  @Test
  void resultsCarryTheDeliveryAttemptFromApproximateReceiveCount() {
    store.put(input("a"), "hello".getBytes(StandardCharsets.UTF_8));
    SQSMessage third = record("m1", step("a"));
    third.setAttributes(java.util.Map.of("ApproximateReceiveCount", "3"));

    processor.process(event(third), null);

    assertThat(published).hasSize(2).extracting(StepResult::attempt).containsOnly(3);
  }

  @Test
  void aRecordWithoutReceiveCountIsTheFirstAttempt() {
    store.put(input("a"), "hello".getBytes(StandardCharsets.UTF_8));

    processor.process(event(record("m1", step("a"))), null);

    assertThat(published).hasSize(2).extracting(StepResult::attempt).containsOnly(1);
  }

  @Test
  void reusesAnExistingOutputWithoutTransforming() {
    store.put(input("a"), "hello".getBytes(StandardCharsets.UTF_8));
    store.put(output("a"), "EXISTING".getBytes(StandardCharsets.UTF_8));

    SQSBatchResponse response = processor.process(event(record("m1", step("a"))), null);

    assertThat(response.getBatchItemFailures()).isEmpty();
    assertThat(transforms).hasValue(0);
    assertThat(published)
        .singleElement()
        .satisfies(
            r -> {
              assertThat(r.succeeded()).isTrue();
              assertThat(r.reused()).isTrue();
              assertThat(r.outputBytes()).isEqualTo(8);
            });
    assertThat(logLines())
        .singleElement()
        .satisfies(line -> assertThat(line.get("outcome").asText()).isEqualTo("reused"));
  }

  @Test
  void permanentFailureIsReportedAndNotRetried() {
    store.put(input("bad"), "corrupt".getBytes(StandardCharsets.UTF_8));
    store.put(input("good"), "fine".getBytes(StandardCharsets.UTF_8));

    SQSBatchResponse response =
        processor.process(event(record("m1", step("bad")), record("m2", step("good"))), null);

    assertThat(response.getBatchItemFailures()).isEmpty();
    List<StepResult> finished = finished();
    assertThat(finished).hasSize(2);
    assertThat(finished.get(0).succeeded()).isFalse();
    assertThat(finished.get(0).error().type()).isEqualTo(StepErrorTypes.CORRUPT_INPUT);
    assertThat(finished.get(0).error().retryable()).isFalse();
    assertThat(finished.get(1).succeeded()).isTrue();
    assertThat(logLines())
        .extracting(l -> l.get("outcome").asText())
        .containsExactly("failed", "succeeded");
  }

  @Test
  void missingInputIsReportedAsARetryableInputMissing() {
    SQSBatchResponse response = processor.process(event(record("m1", step("gone"))), null);

    assertThat(response.getBatchItemFailures()).isEmpty();
    assertThat(finished())
        .singleElement()
        .satisfies(
            r -> {
              assertThat(r.error().type()).isEqualTo(StepErrorTypes.INPUT_MISSING);
              assertThat(r.error().retryable())
                  .as("an intermediate deleted by the lifecycle rule is made again")
                  .isTrue();
            });
  }

  @Test
  void inputOverTheSourceLimitFailsPermanentlyWithoutTransforming() {
    processor = processor(4);
    store.put(input("big"), "12345".getBytes(StandardCharsets.UTF_8));

    processor.process(event(record("m1", step("big"))), null);

    assertThat(transforms).hasValue(0);
    assertThat(finished())
        .singleElement()
        .satisfies(
            r -> {
              assertThat(r.error().type()).isEqualTo(StepErrorTypes.INPUT_TOO_LARGE);
              assertThat(r.error().retryable()).isFalse();
            });
  }

  @Test
  void transientStoreFailureBecomesABatchItemFailureOnlyForThatRecord() {
    store.put(input("a"), "one".getBytes(StandardCharsets.UTF_8));
    store.put(input("b"), "two".getBytes(StandardCharsets.UTF_8));
    store.nextHeadFailure = new IOException("connection reset");

    SQSBatchResponse response =
        processor.process(event(record("m1", step("a")), record("m2", step("b"))), null);

    assertThat(response.getBatchItemFailures())
        .extracting(BatchItemFailure::getItemIdentifier)
        .containsExactly("m1");
    assertThat(finished())
        .singleElement()
        .satisfies(r -> assertThat(r.jobId()).isEqualTo(jobId("b")));
    assertThat(logLines())
        .extracting(l -> l.get("outcome").asText())
        .containsExactly("retry", "succeeded");
    assertThat(exitReasons).as("I/O trouble does not spoil the process").isEmpty();
  }

  @Test
  void failureToReportAPermanentFailureIsRetried() {
    store.put(input("bad"), "corrupt".getBytes(StandardCharsets.UTF_8));
    publishFailure = new IllegalStateException("queue unavailable");

    SQSBatchResponse response = processor.process(event(record("m1", step("bad"))), null);

    assertThat(response.getBatchItemFailures())
        .extracting(BatchItemFailure::getItemIdentifier)
        .containsExactly("m1");
  }

  @Test
  void malformedMessageIsDroppedNotRetried() {
    SQSBatchResponse response =
        processor.process(event(record("m1", "{not json"), record("m2", "{\"jobId\":1}")), null);

    assertThat(response.getBatchItemFailures()).isEmpty();
    assertThat(published).isEmpty();
    assertThat(logLines())
        .extracting(l -> l.get("errorType").asText())
        .containsExactly(StepErrorTypes.INVALID_STEP, StepErrorTypes.INVALID_STEP);
  }

  @Test
  void stepForAnotherCapabilityFailsAsInvalidStep() {
    store.put(input("a"), "x".getBytes(StandardCharsets.UTF_8));
    StepMessage other =
        new StepMessage(
            jobId("a"),
            0,
            1,
            "pdf",
            List.of(),
            input("a"),
            MediaTypes.TEXT_PLAIN,
            output("a"),
            MediaTypes.TEXT_PLAIN,
            "t");

    processor.process(event(record("m1", MessageCodec.encode(other))), null);

    assertThat(transforms).hasValue(0);
    assertThat(published)
        .as("no started report for a step that never starts")
        .singleElement()
        .satisfies(
            r -> {
              assertThat(r.error().type()).isEqualTo(StepErrorTypes.INVALID_STEP);
              assertThat(r.error().retryable()).isFalse();
            });
  }

  @Test
  void recordsNotStartedBeforeTheDeadlineMarginAreHandedBack() {
    store.put(input("a"), "one".getBytes(StandardCharsets.UTF_8));
    store.put(input("b"), "two".getBytes(StandardCharsets.UTF_8));
    // 1 500 ms left for the first record, then below the 1 000 ms margin.
    int[] calls = {0};
    Context context = new DeadlineContext(() -> calls[0]++ == 0 ? 1_500 : 900);

    SQSBatchResponse response =
        processor.process(event(record("m1", step("a")), record("m2", step("b"))), context);

    assertThat(response.getBatchItemFailures())
        .extracting(BatchItemFailure::getItemIdentifier)
        .containsExactly("m2");
    assertThat(transforms).hasValue(1);
    assertThat(logLines())
        .extracting(l -> l.get("outcome").asText())
        .containsExactly("succeeded", "retry");
    assertThat(logLines().get(1).get("errorType").asText()).isEqualTo(StepErrorTypes.TIMEOUT);
  }

  @Test
  @Timeout(30)
  void aStepOverrunningTheWholeInvocationFailsWithARetryableTimeoutAndCannotWriteItsOutputLater()
      throws Exception {
    store.put(input("slow"), "spin".getBytes(StandardCharsets.UTF_8));
    store.put(input("b"), "two".getBytes(StandardCharsets.UTF_8));
    // The first record may take 1 500 - 1 000 = 500 ms, the whole invocation's budget; then the
    // margin is reached.
    int[] calls = {0};
    Context context = new DeadlineContext(() -> calls[0]++ == 0 ? 1_500 : 900);

    SQSBatchResponse response =
        processor.process(event(record("m1", step("slow")), record("m2", step("b"))), context);

    assertThat(spinEnded.getCount()).as("the transformation is still running").isEqualTo(1);
    assertThat(response.getBatchItemFailures())
        .extracting(BatchItemFailure::getItemIdentifier)
        .containsExactly("m2");
    assertThat(finished())
        .singleElement()
        .satisfies(
            r -> {
              assertThat(r.succeeded()).isFalse();
              assertThat(r.jobId()).isEqualTo(jobId("slow"));
              assertThat(r.error().type()).isEqualTo(StepErrorTypes.TIMEOUT);
              assertThat(r.error().detail()).startsWith("did not finish within the function's");
              assertThat(r.error().retryable()).isTrue();
            });
    assertThat(logLines())
        .as("the step that would not stop spoilt the process: the next record is handed back")
        .extracting(l -> l.get("outcome").asText(), l -> l.get("errorType").asText())
        .containsExactly(
            tuple("failed", StepErrorTypes.TIMEOUT), tuple("retry", StepErrorTypes.WORKER_FAILED));
    assertThat(exitReasons)
        .as("the process exits after the response, the timeout being reported")
        .singleElement()
        .asString()
        .contains("ignored the interrupt");
    assertThat(publishedAtExit).containsExactly(published.size());
    assertNoTempFiles();

    released = true;
    assertThat(spinEnded.await(10, TimeUnit.SECONDS)).isTrue();
    assertThat(store.get(output("slow"))).isNull();
    assertNoTempFiles();
  }

  @Test
  @Timeout(30)
  void aStepStartedLateThatOverrunsIsHandedBackForARetry() throws Exception {
    store.put(input("a"), "one".getBytes(StandardCharsets.UTF_8));
    store.put(input("late"), "sleep".getBytes(StandardCharsets.UTF_8));
    store.put(input("b"), "two".getBytes(StandardCharsets.UTF_8));
    // The invocation's budget is 9 000 ms; the second record starts with only 500 ms of it.
    int[] remaining = {10_000, 1_500, 900};
    int[] calls = {0};
    Context context = new DeadlineContext(() -> remaining[Math.min(calls[0]++, 2)]);

    SQSBatchResponse response =
        processor.process(
            event(record("m1", step("a")), record("m2", step("late")), record("m3", step("b"))),
            context);

    assertThat(response.getBatchItemFailures())
        .extracting(BatchItemFailure::getItemIdentifier)
        .containsExactly("m2", "m3");
    assertThat(sleepInterrupted.await(10, TimeUnit.SECONDS)).isTrue();
    assertThat(finished())
        .singleElement()
        .satisfies(r -> assertThat(r.jobId()).isEqualTo(jobId("a")));
    assertThat(exitReasons).as("the interrupted step stopped: the process is fine").isEmpty();
    assertThat(store.get(output("late"))).isNull();
    assertThat(logLines())
        .extracting(l -> l.get("outcome").asText(), l -> l.get("errorType").asText(null))
        .containsExactly(
            tuple("succeeded", null),
            tuple("retry", StepErrorTypes.TIMEOUT),
            tuple("retry", StepErrorTypes.TIMEOUT));
    assertNoTempFiles();
  }

  @Test
  void aFastStepUnderADeadlineIsUnaffected() {
    store.put(input("a"), "hello".getBytes(StandardCharsets.UTF_8));

    SQSBatchResponse response =
        processor.process(event(record("m1", step("a"))), new DeadlineContext(() -> 60_000));

    assertThat(response.getBatchItemFailures()).isEmpty();
    assertThat(new String(store.get(output("a")), StandardCharsets.UTF_8)).isEqualTo("HELLO");
    assertThat(finished()).singleElement().satisfies(r -> assertThat(r.succeeded()).isTrue());
  }

  private void assertNoTempFiles() throws IOException {
    try (Stream<Path> left = Files.list(tempDir)) {
      assertThat(left).isEmpty();
    }
  }

  @Test
  void aContextWithoutAPlausibleDeadlineImposesNone() {
    store.put(input("a"), "one".getBytes(StandardCharsets.UTF_8));
    store.put(input("b"), "two".getBytes(StandardCharsets.UTF_8));

    SQSBatchResponse noDeadline =
        processor.process(event(record("m1", step("a"))), new DeadlineContext(() -> -5));
    SQSBatchResponse garbage =
        processor.process(
            event(record("m2", step("b"))), new DeadlineContext(() -> Integer.MAX_VALUE));

    assertThat(noDeadline.getBatchItemFailures()).isEmpty();
    assertThat(garbage.getBatchItemFailures()).isEmpty();
    assertThat(transforms).hasValue(2);
  }

  @Test
  void tempFilesAreDeletedOnEveryPath() throws IOException {
    store.put(input("good"), "fine".getBytes(StandardCharsets.UTF_8));
    store.put(input("bad"), "corrupt".getBytes(StandardCharsets.UTF_8));

    processor.process(
        event(record("m1", step("good")), record("m2", step("bad")), record("m3", step("gone"))),
        null);

    try (Stream<Path> left = Files.list(tempDir)) {
      assertThat(left).isEmpty();
    }
  }

  @Test
  void aDetailNamingJavaClassesReachesTheCoordinatorWithoutThemAndTheLogKeepsThem()
      throws IOException {
    store.put(input("a"), "leaky".getBytes(StandardCharsets.UTF_8));

    processor.process(event(record("m1", step("a"))), null);

    assertThat(finished())
        .singleElement()
        .satisfies(r -> assertThat(r.error().detail()).isEqualTo("cannot read the jpeg header"));
    assertThat(logLines())
        .singleElement()
        .satisfies(line -> assertThat(line.get("detail").asText()).contains("No SOF segment"));
  }

  /** Worker init: a process killed mid-step could not delete its step folder; the next one does. */
  @Test
  void aNewProcessorDeletesTheStepFolderAKilledWorkerLeft() throws Exception {
    Process killed = new ProcessBuilder("sleep", "60").start();
    Path left = Files.createTempDirectory(tempDir, StepDirectories.ownerPrefix(killed.toHandle()));
    Files.writeString(left.resolve("input.tmp"), "half a download");
    killed.destroyForcibly().waitFor();

    processor(10_000);

    assertNoTempFiles();
  }

  @Test
  void emptyOrNullBatchHasNoFailures() {
    assertThat(processor.process(new SQSEvent(), null).getBatchItemFailures()).isEmpty();
    assertThat(processor.process(null, null).getBatchItemFailures()).isEmpty();
  }

  /** Item 10 of issue 9: the coordinator learns that a step runs, and with which attempt. */
  @Nested
  class StartedReport {
    @Test
    void aStepThatRunsReportsItsStartBeforeItsResultWithTheAttemptAndTheExecution() {
      store.put(input("a"), "hello".getBytes(StandardCharsets.UTF_8));

      processor.process(event(delivery("m1", step(message("a", null, "exec-1")), 2)), null);

      assertThat(published)
          .extracting(StepResult::report, StepResult::attempt, StepResult::executionId)
          .containsExactly(
              tuple(StepResult.Report.STARTED, 2, "exec-1"),
              tuple(StepResult.Report.FINISHED, 2, "exec-1"));
      StepResult start = published.get(0);
      assertThat(start.succeeded()).isFalse();
      assertThat(start.error()).isNull();
      assertThat(start.startedAtMillis()).isEqualTo(published.get(1).startedAtMillis());
      assertThat(logLines())
          .as("still one log line per record, naming the execution and the delivery")
          .singleElement()
          .satisfies(
              line -> {
                assertThat(line.get("outcome").asText()).isEqualTo("succeeded");
                assertThat(line.get("executionId").asText()).isEqualTo("exec-1");
                assertThat(line.get("attempt").asInt()).isEqualTo(2);
              });
    }

    @Test
    @Timeout(30)
    void aStepThatEndsBeforeItsStartReportIsDueSendsOnlyItsResultWithTheAttemptAndTheStart() {
      processor = processorReportingStartsAfter(60_000);
      store.put(input("a"), "hello".getBytes(StandardCharsets.UTF_8));
      long before = System.currentTimeMillis();

      SQSBatchResponse response =
          processor.process(event(delivery("m1", step(message("a", null, "exec-1")), 2)), null);

      assertThat(response.getBatchItemFailures()).isEmpty();
      assertThat(published)
          .as("no start report, and the delivery did not wait the minute for it (@Timeout)")
          .singleElement()
          .satisfies(
              r -> {
                assertThat(r.report()).isEqualTo(StepResult.Report.FINISHED);
                assertThat(r.succeeded()).isTrue();
                assertThat(r.attempt()).isEqualTo(2);
                assertThat(r.executionId()).isEqualTo("exec-1");
                assertThat(r.startedAtMillis()).isBetween(before, r.finishedAtMillis());
              });
    }

    @Test
    void aStepStillRunningWhenItsStartReportIsDueReportsItsStartBeforeItsResult() {
      processor = processorReportingStartsAfter(200);
      store.put(input("a"), "spin".getBytes(StandardCharsets.UTF_8));
      // The step runs until its start report is being sent.
      startReportWaitsFor =
          () -> {
            released = true;
            return true;
          };

      SQSBatchResponse response = processor.process(event(record("m1", step("a"))), null);

      assertThat(response.getBatchItemFailures()).isEmpty();
      assertThat(published)
          .extracting(StepResult::report)
          .containsExactly(StepResult.Report.STARTED, StepResult.Report.FINISHED);
      assertThat(published.get(0).startedAtMillis()).isEqualTo(published.get(1).startedAtMillis());
      assertThat(published.get(1).finishedAtMillis() - published.get(1).startedAtMillis())
          .as("the start was reported once the step had run for the delay")
          .isGreaterThanOrEqualTo(200);
    }

    @Test
    void theStartReportIsSentBesideTheStepWhichDoesNotWaitForIt() {
      store.put(input("a"), "hello".getBytes(StandardCharsets.UTF_8));
      // The start report's send lasts until the step has transformed its input.
      startReportWaitsFor = () -> transforms.get() > 0;

      SQSBatchResponse response = processor.process(event(record("m1", step("a"))), null);

      assertThat(startReportSawItHold)
          .as("the transform ran while the start report was still being sent")
          .isTrue();
      assertThat(response.getBatchItemFailures()).isEmpty();
      assertThat(published)
          .as("the result is sent only after the start report, so the two arrive in order")
          .extracting(StepResult::report)
          .containsExactly(StepResult.Report.STARTED, StepResult.Report.FINISHED);
    }

    @Test
    void aDeliveryHandedBackWithoutAResultDoesNotEndBeforeItsStartReportIsSent() {
      store.put(input("a"), "hello".getBytes(StandardCharsets.UTF_8));
      store.nextDownloadFailure = new IOException("connection reset");
      long start = System.nanoTime();
      // The start report's send takes 300 ms; the download fails at once.
      startReportWaitsFor = () -> System.nanoTime() - start > 300_000_000L;

      SQSBatchResponse response = processor.process(event(record("m1", step("a"))), null);

      assertThat(response.getBatchItemFailures())
          .extracting(BatchItemFailure::getItemIdentifier)
          .containsExactly("m1");
      assertThat(published)
          .as("sent before the invocation returned: Lambda would freeze a send still in flight")
          .extracting(StepResult::report)
          .containsExactly(StepResult.Report.STARTED);
      assertThat(logLines()).extracting(l -> l.get("outcome").asText()).containsExactly("retry");
    }

    @Test
    void theOutputIsLookedUpBesideTheDownloadNotBeforeIt() {
      store.put(input("a"), "hello".getBytes(StandardCharsets.UTF_8));
      // The HEAD of the output lasts until the input's download has begun.
      store.headWaitsFor = () -> store.downloads.get() > 0;

      SQSBatchResponse response = processor.process(event(record("m1", step("a"))), null);

      assertThat(store.headSawItHold).as("the download began while the HEAD was out").isTrue();
      assertThat(response.getBatchItemFailures()).isEmpty();
      assertThat(store.get(output("a"))).asString(StandardCharsets.UTF_8).isEqualTo("HELLO");
      assertThat(published)
          .extracting(StepResult::report)
          .containsExactly(StepResult.Report.STARTED, StepResult.Report.FINISHED);
    }

    @Test
    void anOutputThatExistsIsReusedEvenWhenItsInputIsGone() {
      // e.g. an intermediate expired after the step that reads it had written its output
      store.put(output("a"), "EXISTING".getBytes(StandardCharsets.UTF_8));

      SQSBatchResponse response = processor.process(event(record("m1", step("a"))), null);

      assertThat(response.getBatchItemFailures()).isEmpty();
      assertThat(transforms).hasValue(0);
      assertThat(finished())
          .singleElement()
          .satisfies(
              r -> {
                assertThat(r.succeeded()).isTrue();
                assertThat(r.reused()).isTrue();
              });
      assertThat(started()).isEmpty();
    }

    @Test
    void aFailedLookupOfTheOutputHandsTheDeliveryBackAfterTheDownloadWithoutAStartReport() {
      store.put(input("a"), "hello".getBytes(StandardCharsets.UTF_8));
      store.nextHeadFailure = new IOException("connection reset");

      SQSBatchResponse response = processor.process(event(record("m1", step("a"))), null);

      assertThat(response.getBatchItemFailures())
          .extracting(BatchItemFailure::getItemIdentifier)
          .containsExactly("m1");
      assertThat(transforms).as("not transformed: the output may exist").hasValue(0);
      assertThat(published).isEmpty();
      assertThat(store.get(output("a"))).isNull();
    }

    @Test
    void aReusedOutputSendsNoStartedReport() {
      store.put(output("a"), "EXISTING".getBytes(StandardCharsets.UTF_8));

      processor.process(event(record("m1", step("a"))), null);

      assertThat(started()).isEmpty();
      assertThat(finished()).singleElement().satisfies(r -> assertThat(r.reused()).isTrue());
    }

    @Test
    void aStartedReportThatCannotBeSentDoesNotStopTheStep() {
      store.put(input("a"), "hello".getBytes(StandardCharsets.UTF_8));
      publishFailure = new IllegalStateException("queue unavailable");
      failPublishOf = StepResult::isStarted;

      SQSBatchResponse response = processor.process(event(record("m1", step("a"))), null);

      assertThat(response.getBatchItemFailures()).isEmpty();
      assertThat(store.get(output("a"))).asString(StandardCharsets.UTF_8).isEqualTo("HELLO");
      assertThat(published)
          .singleElement()
          .satisfies(
              r -> {
                assertThat(r.isStarted()).isFalse();
                assertThat(r.succeeded()).isTrue();
              });
      assertThat(logLines())
          .extracting(l -> l.get("outcome").asText())
          .containsExactly("succeeded");
    }

    @Test
    void aMessageDeliveredTwiceRunsOnceAndReportsOnlyTheReuseTheSecondTime() {
      store.put(input("a"), "hello".getBytes(StandardCharsets.UTF_8));
      String body = step(message("a", null, "exec-1"));

      processor.process(event(delivery("m1", body, 1)), null);
      processor.process(event(delivery("m1", body, 2)), null);

      assertThat(transforms).hasValue(1);
      assertThat(published)
          .extracting(StepResult::report, StepResult::reused, StepResult::attempt)
          .containsExactly(
              tuple(StepResult.Report.STARTED, false, 1),
              tuple(StepResult.Report.FINISHED, false, 1),
              tuple(StepResult.Report.FINISHED, true, 2));
      assertThat(logLines())
          .extracting(l -> l.get("outcome").asText())
          .containsExactly("succeeded", "reused");
    }

    @Test
    void aStepThatFailsReportsItsStartThenItsFailure() {
      store.put(input("bad"), "corrupt".getBytes(StandardCharsets.UTF_8));

      processor.process(event(record("m1", step("bad"))), null);

      assertThat(published)
          .extracting(StepResult::report, StepResult::succeeded)
          .containsExactly(
              tuple(StepResult.Report.STARTED, false), tuple(StepResult.Report.FINISHED, false));
    }
  }

  /** Item 8 of issue 9: the bytes read are those the coordinator identified. */
  @Nested
  class PinnedSource {
    @Test
    void aSourceReadWithItsCurrentEtagIsTransformed() {
      store.put(input("a"), "hello".getBytes(StandardCharsets.UTF_8));

      processor.process(event(record("m1", step(message("a", store.etag(input("a")), "e")))), null);

      assertThat(store.get(output("a"))).asString(StandardCharsets.UTF_8).isEqualTo("HELLO");
    }

    @Test
    void aSourceOverwrittenAfterTheRequestFailsTheStepRetryablyWithSourceChanged() {
      store.put(input("a"), "hello".getBytes(StandardCharsets.UTF_8));
      String etagSeenByTheCoordinator = store.etag(input("a"));
      store.put(input("a"), "other bytes".getBytes(StandardCharsets.UTF_8));

      SQSBatchResponse response =
          processor.process(
              event(record("m1", step(message("a", etagSeenByTheCoordinator, "e")))), null);

      assertThat(response.getBatchItemFailures()).isEmpty();
      assertThat(transforms).hasValue(0);
      assertThat(store.get(output("a"))).as("no new bytes under the old fingerprint").isNull();
      assertThat(finished())
          .singleElement()
          .satisfies(
              r -> {
                assertThat(r.error().type()).isEqualTo(StepErrorTypes.SOURCE_CHANGED);
                assertThat(r.error().retryable()).isTrue();
                assertThat(r.error().detail())
                    .isEqualTo(
                        "the source in/a changed after the request was accepted; request the"
                            + " derivative again");
              });
      assertThat(logLines())
          .extracting(l -> l.get("outcome").asText(), l -> l.get("errorType").asText())
          .containsExactly(tuple("failed", StepErrorTypes.SOURCE_CHANGED));
    }
  }

  /** Item 2 of issue 9: the last delivery says why instead of vanishing into the DLQ. */
  @Nested
  class LastDelivery {
    @BeforeEach
    void threeDeliveries() {
      processor = processor(new WorkerSettings("http://queue", 10_000, 1_000, tempDir, 3));
    }

    @Test
    void aTransientFailureBeforeTheLastDeliveryIsStillHandedBack() {
      store.put(input("a"), "one".getBytes(StandardCharsets.UTF_8));
      store.nextHeadFailure = new IOException("connection reset");

      SQSBatchResponse response = processor.process(event(delivery("m1", step("a"), 2)), null);

      assertThat(response.getBatchItemFailures())
          .extracting(BatchItemFailure::getItemIdentifier)
          .containsExactly("m1");
      assertThat(published).isEmpty();
    }

    @Test
    void aTransientFailureOnTheLastDeliveryIsReportedAsARetryableWorkerFailure() {
      store.put(input("a"), "one".getBytes(StandardCharsets.UTF_8));
      store.nextDownloadFailure = new IllegalStateException("connection reset");

      SQSBatchResponse response = processor.process(event(delivery("m1", step("a"), 3)), null);

      assertThat(response.getBatchItemFailures()).as("the record counts as processed").isEmpty();
      assertThat(finished())
          .singleElement()
          .satisfies(
              r -> {
                assertThat(r.attempt()).isEqualTo(3);
                assertThat(r.error().type()).isEqualTo(StepErrorTypes.WORKER_FAILED);
                assertThat(r.error().retryable()).isTrue();
                assertThat(r.error().detail())
                    .isEqualTo(
                        "step 1 of 1 (upper) failed on all 3 deliveries; last error: an"
                            + " unexpected error in the worker: connection reset");
              });
      assertThat(logLines())
          .extracting(l -> l.get("outcome").asText(), l -> l.get("errorType").asText())
          .containsExactly(tuple("failed", StepErrorTypes.WORKER_FAILED));
    }

    @Test
    void anOutOfMemoryErrorOnTheLastDeliveryIsReportedAsTheWorkersFailureWithoutClassNames() {
      store.put(input("a"), "oom".getBytes(StandardCharsets.UTF_8));

      processor.process(event(delivery("m1", step("a"), 3)), null);

      assertThat(finished())
          .singleElement()
          .satisfies(
              r -> {
                assertThat(r.error().type()).isEqualTo(StepErrorTypes.WORKER_FAILED);
                assertThat(r.error().retryable()).isTrue();
                assertThat(r.error().detail())
                    .isEqualTo(
                        "step 1 of 1 (upper) failed on all 3 deliveries; last error: the worker"
                            + " ran out of memory")
                    .doesNotContain("OutOfMemoryError", "java.");
              });
    }

    @Test
    void aLateStepOverrunningOnTheLastDeliveryIsReportedAsATimeout() throws Exception {
      store.put(input("a"), "one".getBytes(StandardCharsets.UTF_8));
      store.put(input("late"), "sleep".getBytes(StandardCharsets.UTF_8));
      int[] remaining = {10_000, 1_500, 900};
      int[] calls = {0};
      Context context = new DeadlineContext(() -> remaining[Math.min(calls[0]++, 2)]);

      SQSBatchResponse response =
          processor.process(
              event(delivery("m1", step("a"), 1), delivery("m2", step("late"), 3)), context);

      assertThat(response.getBatchItemFailures()).isEmpty();
      assertThat(sleepInterrupted.await(10, TimeUnit.SECONDS)).isTrue();
      assertThat(finished())
          .filteredOn(r -> r.jobId().equals(jobId("late")))
          .singleElement()
          .satisfies(
              r -> {
                assertThat(r.error().type()).isEqualTo(StepErrorTypes.TIMEOUT);
                assertThat(r.error().retryable()).isTrue();
                assertThat(r.error().detail())
                    .startsWith("step 1 of 1 (upper) failed on all 3 deliveries; last error: the")
                    .contains("did not finish in the time its invocation had left");
              });
    }

    @Test
    void aRecordNotStartedBeforeTheDeadlineOnItsLastDeliveryIsReportedAsATimeout() {
      store.put(input("a"), "one".getBytes(StandardCharsets.UTF_8));
      store.put(input("b"), "two".getBytes(StandardCharsets.UTF_8));
      int[] calls = {0};
      Context context = new DeadlineContext(() -> calls[0]++ == 0 ? 1_500 : 900);

      SQSBatchResponse response =
          processor.process(
              event(delivery("m1", step("a"), 1), delivery("m2", step("b"), 3)), context);

      assertThat(response.getBatchItemFailures()).isEmpty();
      assertThat(transforms).hasValue(1);
      assertThat(finished())
          .filteredOn(r -> r.jobId().equals(jobId("b")))
          .singleElement()
          .satisfies(
              r -> {
                assertThat(r.error().type()).isEqualTo(StepErrorTypes.TIMEOUT);
                assertThat(r.error().detail())
                    .isEqualTo(
                        "step 1 of 1 (upper) failed on all 3 deliveries; last error: it was not"
                            + " started: too little of its invocation's time was left");
              });
    }

    @Test
    void aPermanentFailureOnTheLastDeliveryKeepsItsKind() {
      store.put(input("bad"), "corrupt".getBytes(StandardCharsets.UTF_8));

      processor.process(event(delivery("m1", step("bad"), 3)), null);

      assertThat(finished())
          .singleElement()
          .satisfies(r -> assertThat(r.error().type()).isEqualTo(StepErrorTypes.CORRUPT_INPUT));
    }

    @Test
    void ifEvenTheLastDeliverysReportCannotBeSentTheRecordIsHandedBack() {
      store.put(input("a"), "one".getBytes(StandardCharsets.UTF_8));
      store.nextDownloadFailure = new IllegalStateException("connection reset");
      publishFailure = new IllegalStateException("queue unavailable");
      failPublishOf = r -> !r.isStarted();

      SQSBatchResponse response = processor.process(event(delivery("m1", step("a"), 3)), null);

      assertThat(response.getBatchItemFailures())
          .as("the dead-letter queue's consumer takes it from here")
          .extracting(BatchItemFailure::getItemIdentifier)
          .containsExactly("m1");
      assertThat(logLines()).extracting(l -> l.get("outcome").asText()).containsExactly("retry");
    }

    @Test
    void aSuccessWhoseReportFailsOnTheLastDeliveryIsReportedAgainNeverAsAFailure() {
      store.put(input("a"), "hello".getBytes(StandardCharsets.UTF_8));
      publishFailure = new IllegalStateException("queue unavailable");
      int[] finishedSends = {0};
      failPublishOf = r -> !r.isStarted() && finishedSends[0]++ == 0;

      SQSBatchResponse response = processor.process(event(delivery("m1", step("a"), 3)), null);

      assertThat(response.getBatchItemFailures()).isEmpty();
      assertThat(finished()).singleElement().satisfies(r -> assertThat(r.succeeded()).isTrue());
      assertThat(logLines())
          .extracting(l -> l.get("outcome").asText())
          .containsExactly("succeeded");
    }

    /**
     * Issue 26 item 16: a step that fails after its output landed (between the upload and the
     * report) on its last delivery reports that output as its success, never a failure the bytes in
     * the bucket would contradict (found by the fault suite, seed 3670041473296).
     */
    @Test
    void aFailureAfterTheOutputLandedOnTheLastDeliveryIsReportedAsItsSuccess() {
      store.put(input("a"), "hello".getBytes(StandardCharsets.UTF_8));
      store.failAfterUpload = new IllegalStateException("connection reset after the upload");

      SQSBatchResponse response = processor.process(event(delivery("m1", step("a"), 3)), null);

      assertThat(response.getBatchItemFailures()).isEmpty();
      assertThat(finished())
          .singleElement()
          .satisfies(
              r -> {
                assertThat(r.succeeded()).isTrue();
                assertThat(r.outputBytes()).isEqualTo(5);
              });
      assertThat(logLines())
          .extracting(l -> l.get("outcome").asText())
          .containsExactly("succeeded");
    }

    @Test
    void withoutAMaxReceiveCountNoDeliveryIsTheLast() {
      processor = processor(10_000);
      store.put(input("a"), "one".getBytes(StandardCharsets.UTF_8));
      store.nextHeadFailure = new IOException("connection reset");

      SQSBatchResponse response = processor.process(event(delivery("m1", step("a"), 99)), null);

      assertThat(response.getBatchItemFailures()).hasSize(1);
      assertThat(published).isEmpty();
    }
  }

  /** Item 9 of issue 9: a process that a step broke is replaced, and never blames the input. */
  @Nested
  class UntrustworthyProcess {
    @Test
    void aHealthyBatchAsksForNoExit() {
      store.put(input("a"), "hello".getBytes(StandardCharsets.UTF_8));
      store.put(input("bad"), "corrupt".getBytes(StandardCharsets.UTF_8));

      processor.process(event(record("m1", step("a")), record("m2", step("bad"))), null);

      assertThat(exitReasons).isEmpty();
    }

    @Test
    void anOutOfMemoryErrorIsRetriedAndTheProcessExits() {
      store.put(input("a"), "oom".getBytes(StandardCharsets.UTF_8));
      store.put(input("b"), "two".getBytes(StandardCharsets.UTF_8));

      SQSBatchResponse response =
          processor.process(event(record("m1", step("a")), record("m2", step("b"))), null);

      assertThat(response.getBatchItemFailures())
          .as("the failing record and the one after it go back to SQS for a fresh process")
          .extracting(BatchItemFailure::getItemIdentifier)
          .containsExactly("m1", "m2");
      assertThat(transforms).as("nothing more runs on this process").hasValue(1);
      assertThat(finished()).isEmpty();
      assertThat(exitReasons).singleElement().asString().contains("ran out of memory");
      assertThat(logLines())
          .extracting(l -> l.get("outcome").asText(), l -> l.get("errorType").asText())
          .containsExactly(
              tuple("retry", "OutOfMemoryError"), tuple("retry", StepErrorTypes.WORKER_FAILED));
      assertNoTempFilesQuietly();
    }

    /**
     * Issue 26 item 15: a stack overflow is a property of the input (a PDF whose Type 3 glyphs draw
     * each other overflows every time): the job fails at once, permanently, with a stable type,
     * instead of three deliveries 12 minutes apart ending in a retryable worker-failed. The process
     * is still replaced, as after any {@link VirtualMachineError}.
     */
    @Test
    void aStackOverflowErrorFailsTheStepPermanentlyAtOnceAndTakesTheProcessDown() {
      store.put(input("a"), "deep".getBytes(StandardCharsets.UTF_8));

      SQSBatchResponse response = processor.process(event(record("m1", step("a"))), null);

      assertThat(response.getBatchItemFailures()).isEmpty();
      StepResult failed = finished().getFirst();
      assertThat(failed.error().type()).isEqualTo(StepErrorTypes.CORRUPT_INPUT);
      assertThat(failed.error().retryable()).isFalse();
      assertThat(failed.error().detail()).contains("nests too deeply").doesNotContain("Error");
      assertThat(exitReasons).singleElement().asString().contains("stack");
    }

    @Test
    void anOutOfMemoryErrorWrappedAsCorruptInputIsNeverReportedAsAnInputError() {
      store.put(input("a"), "wrapped-oom".getBytes(StandardCharsets.UTF_8));

      SQSBatchResponse response = processor.process(event(record("m1", step("a"))), null);

      assertThat(response.getBatchItemFailures()).hasSize(1);
      assertThat(finished()).as("no corrupt-input result").isEmpty();
      assertThat(exitReasons).singleElement().asString().contains("ran out of memory");
    }

    @Test
    void anOutOfMemoryErrorWhileReadingTheInputIsTheWorkersToo() {
      store.put(input("a"), "hello".getBytes(StandardCharsets.UTF_8));
      store.nextDownloadFailure = new OutOfMemoryError("Java heap space");

      SQSBatchResponse response = processor.process(event(record("m1", step("a"))), null);

      assertThat(response.getBatchItemFailures()).hasSize(1);
      assertThat(exitReasons).hasSize(1);
    }

    /**
     * Issue 26 item 15: a process that a step left untrustworthy takes no further work. Its batch
     * is settled with the queue by the process itself, then it ends before answering, so the
     * runtime never asks for another invocation: what it processed is deleted, what it did not
     * start is put back as a fresh copy (run at once by a healthy process, with a receive count of
     * 0) and deleted, what it hands back (the broken step, a copy that could not be sent) is
     * visible again at once.
     */
    @Test
    void aBrokenProcessSettlesItsBatchWithTheQueueAndEndsBeforeAnswering() {
      List<String> calls = new ArrayList<>();
      RecordingQueue queue = new RecordingQueue(calls);
      StepBatchProcessor settling =
          new StepBatchProcessor(
              new StepWorker(
                  TestDeclarations.plainText(CAPABILITY),
                  upper,
                  store,
                  published::add,
                  new WorkerSettings("http://queue", 10_000, 1_000, tempDir),
                  new StepLog(new PrintStream(logBytes, true, StandardCharsets.UTF_8)),
                  Clock.systemUTC(),
                  reason -> calls.add("exit " + reason)),
              queue,
              VisibilityHeartbeat.NONE);
      store.put(input("a"), "hello".getBytes(StandardCharsets.UTF_8));
      store.put(input("oom"), "oom".getBytes(StandardCharsets.UTF_8));
      store.put(input("b"), "two".getBytes(StandardCharsets.UTF_8));
      store.put(input("unsent"), "three".getBytes(StandardCharsets.UTF_8));

      SQSBatchResponse response =
          settling.process(
              event(
                  queued("m1", step("a")),
                  queued("m2", step("oom")),
                  queued("m3", step("b")),
                  queued("m4", step("unsent"))),
              null);

      assertThat(transforms).as("nothing runs after the broken step").hasValue(2);
      assertThat(calls).hasSize(5);
      assertThat(calls.subList(0, 4))
          .containsExactly(
              "requeue " + QUEUE_ARN + " in/b",
              "requeue " + QUEUE_ARN + " in/unsent (refused)",
              "delete [m1, m3]",
              "visibility 0 [m2, m4]");
      assertThat(calls.get(4)).as("last: the exit").startsWith("exit ").contains("out of memory");
      assertThat(response.getBatchItemFailures())
          .as("what a test's exit lets it answer: the mapping would release the same")
          .extracting(BatchItemFailure::getItemIdentifier)
          .containsExactly("m2", "m4");
      assertThat(finished())
          .as("the first step's success only: the others were not started")
          .extracting(StepResult::jobId)
          .containsExactly(jobId("a"));
    }

    @Test
    void aHealthyBatchIsLeftToTheEventSourceMappingToSettle() {
      List<String> calls = new ArrayList<>();
      StepBatchProcessor healthy =
          new StepBatchProcessor(
              new StepWorker(
                  TestDeclarations.plainText(CAPABILITY),
                  upper,
                  store,
                  published::add,
                  new WorkerSettings("http://queue", 10_000, 1_000, tempDir),
                  new StepLog(new PrintStream(logBytes, true, StandardCharsets.UTF_8)),
                  Clock.systemUTC(),
                  reason -> calls.add("exit " + reason)),
              new RecordingQueue(calls),
              VisibilityHeartbeat.NONE);
      store.put(input("a"), "hello".getBytes(StandardCharsets.UTF_8));
      store.put(input("bad"), "corrupt".getBytes(StandardCharsets.UTF_8));

      SQSBatchResponse response =
          healthy.process(event(queued("m1", step("a")), queued("m2", step("bad"))), null);

      assertThat(response.getBatchItemFailures()).isEmpty();
      assertThat(calls).as("no delete, no release, no exit").isEmpty();
    }

    /**
     * Issue 26 item 15: while a step runs, the heartbeat keeps its message hidden, so only a dead
     * process's messages reappear (within the heartbeat's timeout, not the queue's).
     */
    @Test
    @Timeout(20)
    void theHeartbeatHidesTheBatchWhileItsStepRunsAndStopsWithTheInvocation() throws Exception {
      List<String> calls = new java.util.concurrent.CopyOnWriteArrayList<>();
      RecordingQueue queue =
          new RecordingQueue(calls) {
            @Override
            public java.util.Set<String> changeVisibility(
                java.util.Collection<QueuedMessage> messages, int seconds) {
              java.util.Set<String> refused = super.changeVisibility(messages, seconds);
              released = true; // the spinning step ends once its message was hidden
              return refused;
            }
          };
      StepBatchProcessor beating =
          new StepBatchProcessor(
              new StepWorker(
                  TestDeclarations.plainText(CAPABILITY),
                  upper,
                  store,
                  published::add,
                  new WorkerSettings("http://queue", 10_000, 1_000, tempDir),
                  new StepLog(new PrintStream(logBytes, true, StandardCharsets.UTF_8)),
                  Clock.systemUTC(),
                  reason -> calls.add("exit " + reason)),
              queue,
              new VisibilityHeartbeat(queue, 45));
      store.put(input("a"), "spin".getBytes(StandardCharsets.UTF_8));

      SQSBatchResponse response = beating.process(event(queued("m1", step("a"))), null);

      assertThat(response.getBatchItemFailures()).isEmpty();
      assertThat(finished()).singleElement().satisfies(r -> assertThat(r.succeeded()).isTrue());
      assertThat(calls)
          .as("hidden while it ran; nothing after")
          .containsExactly("visibility 45 [m1]");
    }

    @Test
    void aLaterBatchOnASpoiltProcessIsHandedBackUntouched() {
      store.put(input("a"), "oom".getBytes(StandardCharsets.UTF_8));
      store.put(input("b"), "two".getBytes(StandardCharsets.UTF_8));
      processor.process(event(record("m1", step("a"))), null);

      SQSBatchResponse later = processor.process(event(record("m2", step("b"))), null);

      assertThat(later.getBatchItemFailures())
          .extracting(BatchItemFailure::getItemIdentifier)
          .containsExactly("m2");
      assertThat(transforms).hasValue(1);
      assertThat(published)
          .as("only the first step's start: b never started")
          .extracting(StepResult::jobId)
          .containsOnly(jobId("a"));
      assertThat(exitReasons).as("asked again after each response").hasSize(2);
    }

    @Test
    void aRecordHandedBackByASpoiltProcessOnItsLastDeliveryIsReportedAsWorkerFailed() {
      processor = processor(new WorkerSettings("http://queue", 10_000, 1_000, tempDir, 3));
      store.put(input("a"), "oom".getBytes(StandardCharsets.UTF_8));
      store.put(input("b"), "two".getBytes(StandardCharsets.UTF_8));

      SQSBatchResponse response =
          processor.process(
              event(delivery("m1", step("a"), 1), delivery("m2", step("b"), 3)), null);

      assertThat(response.getBatchItemFailures())
          .extracting(BatchItemFailure::getItemIdentifier)
          .containsExactly("m1");
      assertThat(finished())
          .singleElement()
          .satisfies(
              r -> {
                assertThat(r.jobId()).isEqualTo(jobId("b"));
                assertThat(r.error().type()).isEqualTo(StepErrorTypes.WORKER_FAILED);
                assertThat(r.error().retryable()).isTrue();
                assertThat(r.error().detail())
                    .isEqualTo(
                        "step 1 of 1 (upper) failed on all 3 deliveries; last error: it was not"
                            + " started: its worker process had to be replaced after an earlier"
                            + " step broke it");
              });
      assertThat(exitReasons).hasSize(1);
    }

    private void assertNoTempFilesQuietly() {
      try {
        assertNoTempFiles();
      } catch (IOException e) {
        throw new AssertionError(e);
      }
    }
  }

  private List<JsonNode> logLines() {
    String text = logBytes.toString(StandardCharsets.UTF_8);
    return text.lines()
        .map(
            line -> {
              try {
                return JSON.readTree(line);
              } catch (IOException e) {
                throw new AssertionError("not a JSON line: " + line, e);
              }
            })
        .toList();
  }

  private static String jobId(String name) {
    return (name + "0".repeat(64)).substring(0, 64);
  }

  private static ObjectRef input(String name) {
    return ObjectRef.of("source", "in/" + name);
  }

  private static ObjectRef output(String name) {
    return ObjectRef.of("derivatives", "out/" + name);
  }

  private static String step(String name) {
    return step(message(name, null, null));
  }

  private static String step(StepMessage message) {
    return MessageCodec.encode(message);
  }

  private static StepMessage message(String name, String inputEtag, String executionId) {
    return new StepMessage(
        jobId(name),
        0,
        1,
        CAPABILITY,
        List.of(),
        input(name),
        MediaTypes.TEXT_PLAIN,
        output(name),
        MediaTypes.TEXT_PLAIN,
        "trace-" + name,
        executionId,
        inputEtag,
        Map.of());
  }

  /** A record as SQS delivers it the {@code receiveCount}-th time. */
  private static SQSMessage delivery(String messageId, String body, int receiveCount) {
    SQSMessage message = record(messageId, body);
    message.setAttributes(
        java.util.Map.of("ApproximateReceiveCount", Integer.toString(receiveCount)));
    return message;
  }

  private static final String QUEUE_ARN = "arn:aws:sqs:us-east-1:123456789012:derive-upper";

  /** A record as the event source mapping delivers it: from {@link #QUEUE_ARN}, with a receipt. */
  private static SQSMessage queued(String messageId, String body) {
    SQSMessage message = record(messageId, body);
    message.setEventSourceArn(QUEUE_ARN);
    message.setReceiptHandle("receipt-" + messageId);
    return message;
  }

  /**
   * A queue that records each call as a line: "requeue ARN KEY", "delete [ids]", "visibility S
   * [ids]"; a requeue of a step reading {@code in/unsent} is refused.
   */
  private static class RecordingQueue implements StepQueue {
    private final List<String> calls;

    RecordingQueue(List<String> calls) {
      this.calls = calls;
    }

    @Override
    public void requeue(String queueArn, String body) {
      String key = MessageCodec.decode(body, StepMessage.class).input().key();
      if (key.equals("in/unsent")) {
        calls.add("requeue " + queueArn + " " + key + " (refused)");
        throw new IllegalStateException("SendMessage refused");
      }
      calls.add("requeue " + queueArn + " " + key);
    }

    @Override
    public java.util.Set<String> changeVisibility(
        java.util.Collection<QueuedMessage> messages, int seconds) {
      calls.add("visibility " + seconds + " " + StepQueue.ids(messages));
      return java.util.Set.of();
    }

    @Override
    public java.util.Set<String> delete(java.util.Collection<QueuedMessage> messages) {
      calls.add("delete " + StepQueue.ids(messages));
      return java.util.Set.of();
    }
  }

  private static SQSMessage record(String messageId, String body) {
    SQSMessage message = new SQSMessage();
    message.setMessageId(messageId);
    message.setBody(body);
    return message;
  }

  private static SQSEvent event(SQSMessage... records) {
    SQSEvent event = new SQSEvent();
    event.setRecords(Arrays.asList(records));
    return event;
  }

  /** A Lambda context whose remaining time comes from a supplier. */
  private record DeadlineContext(java.util.function.IntSupplier remaining) implements Context {
    @Override
    public int getRemainingTimeInMillis() {
      return remaining.getAsInt();
    }

    @Override
    public String getAwsRequestId() {
      return "request";
    }

    @Override
    public String getLogGroupName() {
      return null;
    }

    @Override
    public String getLogStreamName() {
      return null;
    }

    @Override
    public String getFunctionName() {
      return "test";
    }

    @Override
    public String getFunctionVersion() {
      return "$LATEST";
    }

    @Override
    public String getInvokedFunctionArn() {
      return null;
    }

    @Override
    public CognitoIdentity getIdentity() {
      return null;
    }

    @Override
    public ClientContext getClientContext() {
      return null;
    }

    @Override
    public int getMemoryLimitInMB() {
      return 512;
    }

    @Override
    public LambdaLogger getLogger() {
      return null;
    }
  }
}
