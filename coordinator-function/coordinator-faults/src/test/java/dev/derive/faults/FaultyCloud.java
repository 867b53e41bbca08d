package dev.derive.faults;

import com.amazonaws.services.lambda.runtime.events.SQSBatchResponse;
import com.amazonaws.services.lambda.runtime.events.SQSEvent;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.derive.aws.s3.S3ObjectStore;
import dev.derive.coordinator.Declarations;
import dev.derive.coordinator.LocalAws;
import dev.derive.coordinator.aws.DynamoDbCompletionOutbox;
import dev.derive.coordinator.aws.DynamoDbJobStore;
import dev.derive.coordinator.aws.JobRecordShape;
import dev.derive.coordinator.cache.DerivativeCache;
import dev.derive.coordinator.claim.AmbiguousWrites;
import dev.derive.coordinator.claim.ClaimCheck;
import dev.derive.coordinator.claim.ClaimResult;
import dev.derive.coordinator.claim.JobStore;
import dev.derive.coordinator.claim.JobStoreException;
import dev.derive.coordinator.claim.LostClaimWatch;
import dev.derive.coordinator.claim.StepSuccess;
import dev.derive.coordinator.claim.StepWrite;
import dev.derive.coordinator.completion.Callback;
import dev.derive.coordinator.completion.CallbackDelivery;
import dev.derive.coordinator.completion.CallbackQueue;
import dev.derive.coordinator.completion.CallbackRegistrar;
import dev.derive.coordinator.completion.CompletionEvent;
import dev.derive.coordinator.completion.CompletionNotifier;
import dev.derive.coordinator.completion.CompletionOutbox;
import dev.derive.coordinator.dispatch.DispatchFailedException;
import dev.derive.coordinator.dispatch.StepDispatcher;
import dev.derive.coordinator.identity.SourceInspector;
import dev.derive.coordinator.identity.TikaMediaTypeDetector;
import dev.derive.coordinator.job.Job;
import dev.derive.coordinator.job.JobError;
import dev.derive.coordinator.job.JobFailedException;
import dev.derive.coordinator.job.StepRecord;
import dev.derive.coordinator.job.Submission;
import dev.derive.coordinator.lifecycle.JobLifecycle;
import dev.derive.coordinator.lifecycle.LifecycleParts;
import dev.derive.coordinator.lifecycle.MutableClock;
import dev.derive.coordinator.plan.Planner;
import dev.derive.coordinator.preset.PresetCatalogue;
import dev.derive.coordinator.service.DerivativeAnswer;
import dev.derive.coordinator.service.DerivativeAsk;
import dev.derive.coordinator.service.DerivativeService;
import dev.derive.coordinator.service.FrontDoor;
import dev.derive.coordinator.validate.RequestValidator;
import dev.derive.infra.endpoint.AwsClients;
import dev.derive.protocol.message.MessageCodec;
import dev.derive.protocol.message.ObjectRef;
import dev.derive.protocol.message.StepMessage;
import dev.derive.protocol.message.StepResult;
import dev.derive.storage.ObjectMetadata;
import dev.derive.storage.ObjectStart;
import dev.derive.storage.ObjectStore;
import dev.derive.storage.PresignedDownload;
import dev.derive.storage.PresignedUpload;
import dev.derive.worker.runtime.StepLog;
import dev.derive.worker.runtime.StepWorker;
import dev.derive.worker.runtime.WorkerSettings;
import dev.derive.worker.runtime.fixtures.MinimalPdf;
import dev.derive.worker.runtime.lambda.StepBatchProcessor;
import dev.derive.worker.runtime.report.StepResultPublisher;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.presigner.S3Presigner;

/**
 * Derive's job lifecycle as deployed, in one process, on a real AWS endpoint (moto) for the jobs
 * table and the buckets: the real {@link FrontDoor} over the real {@link DerivativeService}
 * (validate → identify → plan → cache → claim → dispatch, then the callback's registration), the
 * real progress {@link JobLifecycle} and the real worker runtime ({@link StepBatchProcessor}) with
 * a {@link FakeCapability} per capability. Queues are {@link SimQueue}s under a {@link
 * MutableClock}, so the harness decides every delivery; faults are injected at each boundary by the
 * switches in {@link Fault}, and every injected fault is counted.
 */
final class FaultyCloud {
  /** The boundaries where a fault can be injected. */
  enum Fault {
    /** The API dies after its claim, before {@code SendMessage}. */
    API_CRASH_BEFORE_SEND,
    /** The API dies right after {@code SendMessage}, before recording the step queued. */
    API_CRASH_AFTER_SEND,
    /** The progress function dies after recording an advance, before sending the next step. */
    PROGRESS_CRASH_BEFORE_SEND,
    /** A worker dies right after writing its output, before reporting. */
    WORKER_CRASH_AFTER_OUTPUT,
    /** A worker's report is sent and the worker dies before acknowledging its message. */
    WORKER_CRASH_AFTER_REPORT,
    /** A worker is killed before it does anything (its message returns after the timeout). */
    WORKER_KILLED,
    /** A message is delivered a second time (SQS at-least-once). */
    DUPLICATE_DELIVERY,
    /** Time jumps past visibility timeouts and leases. */
    DELAY,
    /** An intermediate output expires (lifecycle rule) while a job is under way. */
    INTERMEDIATE_DELETED,
    /** The source object is overwritten while a job is under way. */
    SOURCE_OVERWRITTEN,
    /** DynamoDB is unavailable for the coordinator for a while. */
    STORE_OUTAGE,
    /**
     * A jobs-table write applied, its answer was lost and the SDK sent it again (each write of the
     * {@link JobStore}, and each request of the outbox: callback registration, notice sent).
     */
    WRITE_RETRIED,
    /** A jobs-table write applied, its answer was lost and the call failed (as above). */
    WRITE_LOST,
    /** PutEvents or the callback queue fails after the write that ended a job. */
    PUBLISH_FAILED,
    /** The progress function's batch times out after applying a message: it is delivered again. */
    PROGRESS_BATCH_TIMEOUT,
    /** The callback function's batch times out after the POST: delivered (and POSTed) again. */
    CALLBACK_BATCH_TIMEOUT,
    /** A second copy of a result is applied while the first is sending the next step. */
    CONCURRENT_DUPLICATE,
    /** A message comes from a newer sender (fields this version does not know). */
    NEWER_SENDER,
    /** A message comes from an older sender (optional fields missing). */
    OLDER_SENDER,
    /** A step waits in its queue's backlog longer than a step lease. */
    BACKLOG,
    /** Requests with callbacks whose request echoes are tens of kilobytes (item-size pressure). */
    BIG_CALLBACKS,
    /**
     * A DynamoDB request of a claim applied, its answer was lost and the SDK sent the same request
     * again: the claim sees the repeat's answer (injected at the client, below the {@link
     * JobStore}, so a claim of several writes is struck at each).
     */
    CLAIM_WRITE_RETRIED,
    /** The claimer dies right after a DynamoDB request of its claim applied. */
    CLAIMER_CRASH_AFTER_WRITE
  }

  static final Duration CAPABILITY_VISIBILITY = Duration.ofSeconds(720);
  static final Duration RESULTS_VISIBILITY = Duration.ofSeconds(180);
  static final Duration STEP_LEASE = Duration.ofSeconds(2220);
  static final int CAPABILITY_RECEIVES = 3;
  static final int RESULT_RECEIVES = 5;
  static final int CALLBACK_RECEIVES = 8;
  static final Duration CALLBACK_VISIBILITY = Duration.ofSeconds(90);

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String SOURCE_BUCKET = "faults-source-" + UUID.randomUUID();
  private static final String DERIVATIVES_BUCKET = "faults-derivatives-" + UUID.randomUUID();
  private static final String TABLE;
  private static final S3Client S3;
  private static final S3Presigner PRESIGNER;
  private static final DynamoDbClient DYNAMODB;

  static {
    S3 = AwsClients.s3(LocalAws.endpoint());
    PRESIGNER = AwsClients.s3Presigner(LocalAws.endpoint());
    DYNAMODB = LocalAws.dynamoDb();
    S3.createBucket(b -> b.bucket(SOURCE_BUCKET));
    S3.createBucket(b -> b.bucket(DERIVATIVES_BUCKET));
    TABLE = LocalAws.createJobsTable(DYNAMODB);
  }

  final MutableClock clock = new MutableClock(Instant.parse("2030-01-01T00:00:00Z"));
  final Random random;
  final Map<Fault, Double> chances = new EnumMap<>(Fault.class);
  final Map<Fault, Integer> injected = new EnumMap<>(Fault.class);
  final Map<String, AtomicInteger> executions = FakeCapability.newCounter();
  final SimQueue imageDlq = new SimQueue("image-dlq", 0, RESULTS_VISIBILITY, null);
  final SimQueue pdfDlq = new SimQueue("pdf-dlq", 0, RESULTS_VISIBILITY, null);
  final SimQueue resultsDlq = new SimQueue("step-results-dlq", 0, RESULTS_VISIBILITY, null);
  final SimQueue image =
      new SimQueue("image", CAPABILITY_RECEIVES, CAPABILITY_VISIBILITY, imageDlq);
  final SimQueue pdf = new SimQueue("pdf", CAPABILITY_RECEIVES, CAPABILITY_VISIBILITY, pdfDlq);
  final SimQueue results =
      new SimQueue("step-results", RESULT_RECEIVES, RESULTS_VISIBILITY, resultsDlq);
  final SimQueue callbacksDlq = new SimQueue("callbacks-dlq", 0, RESULTS_VISIBILITY, null);
  final SimQueue callbacks =
      new SimQueue("callbacks", CALLBACK_RECEIVES, CALLBACK_VISIBILITY, callbacksDlq);
  final List<SimQueue> queues =
      List.of(image, pdf, results, imageDlq, pdfDlq, resultsDlq, callbacks);

  /** Every completion event published, in order (EventBridge, at-least-once). */
  final List<CompletionEvent> events = new ArrayList<>();

  /** Every callback POST a receiver got, in order (at-least-once: one id may come again). */
  final List<CallbackDelivery> posts = new ArrayList<>();

  /** The bytes of every version of every source, by ETag. */
  final Map<String, byte[]> sourceVersions = new LinkedHashMap<>();

  /** Exits the worker runtime asked for. */
  final List<String> exits = new ArrayList<>();

  /**
   * The shape the claims write new records in, and the shape the progress function's writes use
   * ({@link JobRecordShape}): each run draws one of the four pairs, so a quarter of the runs are a
   * release before the compact records, a quarter the one that writes them, and half a deploy
   * between the two, either way round.
   */
  final JobRecordShape claimShape;

  final JobRecordShape progressShape;

  private final JobStore tableStore;

  /** The jobs table as claims write it: through a client whose requests may be struck. */
  private final JobStore claimStore;

  /** Whether a claim's write is under way (the claim faults strike only its requests). */
  private boolean claiming;

  /** The outbox half of the records: its writes (callback registration, notice sent) struck too. */
  final DynamoDbCompletionOutbox outbox =
      new DynamoDbCompletionOutbox(
          struck(
              () -> true,
              Fault.WRITE_RETRIED,
              Fault.WRITE_LOST,
              where -> SdkClientException.create("injected: the answer of " + where + " was lost")),
          TABLE);

  /** The delivery id of the callback registered last (the registrar's ids are made here). */
  private String lastDeliveryId;

  /** The result the progress function is applying now (for a concurrent copy of it). */
  private String applying;

  private boolean outage;
  private final RequestValidator validator = new RequestValidator(Declarations.ALL);
  private final DerivativeService api;
  private final FrontDoor frontDoor;
  private final JobLifecycle progress;
  private final Map<String, StepBatchProcessor> workers = new LinkedHashMap<>();

  FaultyCloud(long seed, Path tempDirectory) {
    // java.util.Random's first draws barely differ between consecutive seeds (the runs' seeds are
    // base + i), which left whole schedules without a fault kind: mix the seed first
    this.random = new Random(new java.util.SplittableRandom(seed).nextLong());
    // drawn from a generator of its own, so a seed's schedule of faults is the same in any shape
    int shapes = new java.util.SplittableRandom(~seed).nextInt(4);
    this.claimShape = (shapes & 1) == 0 ? JobRecordShape.FULL : JobRecordShape.COMPACT;
    this.progressShape = (shapes & 2) == 0 ? JobRecordShape.FULL : JobRecordShape.COMPACT;
    this.tableStore = new DynamoDbJobStore(DYNAMODB, TABLE, progressShape);
    this.claimStore =
        new DynamoDbJobStore(
            struck(
                () -> this.claiming,
                Fault.CLAIM_WRITE_RETRIED,
                Fault.CLAIMER_CRASH_AFTER_WRITE,
                where -> new InjectedCrash("right after the claim's " + where)),
            TABLE,
            claimShape);
    S3ObjectStore objects = new S3ObjectStore(S3, PRESIGNER);
    DerivativeCache cache =
        new DerivativeCache(
            objects,
            DERIVATIVES_BUCKET,
            Duration.ofMinutes(5),
            dev.derive.coordinator.cache.RecentHits.none());
    JobStore store =
        new AmbiguousWrites(
            new OutageStore(),
            write ->
                roll(Fault.WRITE_RETRIED)
                    ? AmbiguousWrites.Outcome.RETRIED
                    : roll(Fault.WRITE_LOST)
                        ? AmbiguousWrites.Outcome.LOST
                        : AmbiguousWrites.Outcome.CLEAN);
    CallbackQueue callbackQueue = delivery -> callbacks.send(delivery.encode(), clock.instant());
    CompletionNotifier notifier =
        new CompletionNotifier(
            outbox,
            event -> {
              if (roll(Fault.PUBLISH_FAILED)) {
                throw new InjectedCrash("before PutEvents of " + event.eventId());
              }
              events.add(event);
            },
            callbackQueue);
    // as SqsLostClaimWatch: to the step-results queue, due a second after the lease
    LostClaimWatch lostClaims =
        job ->
            results.send(
                MessageCodec.encode(new ClaimCheck(job.jobId(), job.executionId())),
                clock.instant(),
                Duration.between(clock.instant(), job.leaseExpiresAt().plusSeconds(1)),
                ClaimCheck.KIND);
    CallbackRegistrar registrar =
        new CallbackRegistrar(
            new BigEchoes(),
            callbackQueue,
            DERIVATIVES_BUCKET,
            clock,
            () -> {
              lastDeliveryId = UUID.randomUUID().toString();
              return lastDeliveryId;
            },
            lostClaims);
    api =
        new DerivativeService(
            new SourceInspector(
                objects,
                new TikaMediaTypeDetector(
                    Declarations.ALL.stream()
                        .flatMap(c -> c.reads().stream())
                        .collect(Collectors.toSet())),
                SOURCE_BUCKET,
                100_000_000,
                Declarations.ALL),
            new Planner(Declarations.ALL, DERIVATIVES_BUCKET),
            cache,
            store,
            new JobLifecycle(
                    new LifecycleParts(
                        store,
                        new Dispatcher(Fault.API_CRASH_BEFORE_SEND, Fault.API_CRASH_AFTER_SEND),
                        cache,
                        capability -> STEP_LEASE,
                        Duration.ofSeconds(60),
                        Duration.ofDays(1),
                        clock,
                        notifier,
                        lostClaims))
                .claims(),
            capability -> Duration.ofSeconds(120),
            Duration.ofDays(7),
            clock);
    frontDoor =
        new FrontDoor(
            new PresetCatalogue(null, validator, Duration.ofDays(1), clock),
            validator,
            api,
            Optional.of(registrar));
    progress =
        new JobLifecycle(
            new LifecycleParts(
                store,
                new Dispatcher(Fault.PROGRESS_CRASH_BEFORE_SEND, null),
                cache, // a dead-lettered step's output is looked for; a lost claim may be claimed
                capability -> STEP_LEASE,
                Duration.ofSeconds(60),
                Duration.ofDays(1),
                clock,
                notifier,
                LostClaimWatch.NONE));
    // Half the schedules report every start at once, half never (the fake steps end long before
    // an hour): a job's lifecycle must hold without started reports too. Drawn from its own
    // generator, so a seed's schedule of faults is the same either way.
    WorkerSettings settings =
        new WorkerSettings("https://results.invalid/step-results", 100_000_000, 0, tempDirectory)
            .withMaxReceiveCount(CAPABILITY_RECEIVES)
            .withStartReportDelayMillis(new Random(~seed).nextBoolean() ? 0 : 3_600_000);
    for (String capability : List.of("image", "pdf")) {
      workers.put(
          capability,
          new StepBatchProcessor(
              new StepWorker(
                  Declarations.named(capability),
                  new FakeCapability(capability, executions),
                  new WorkerStore(new S3ObjectStore(S3)),
                  new Publisher(),
                  settings,
                  new StepLog(new java.io.PrintStream(java.io.OutputStream.nullOutputStream())),
                  clock,
                  exits::add)));
    }
  }

  // ------------------------------------------------------------------ sources and requests

  /** Uploads {@code bytes} as {@code key} in the source bucket; returns its ETag. */
  String putSource(String key, byte[] bytes) {
    String etag =
        S3.putObject(b -> b.bucket(SOURCE_BUCKET).key(key), RequestBody.fromBytes(bytes)).eTag();
    sourceVersions.put(etag, bytes.clone());
    return etag;
  }

  /** A JPEG-looking source (Tika detects JPEG from the magic number). */
  static byte[] jpegBytes(String salt) {
    byte[] head = {
      (byte) 0xFF, (byte) 0xD8, (byte) 0xFF, (byte) 0xE0, 0, 16, 'J', 'F', 'I', 'F', 0
    };
    return concat(head, salt.getBytes());
  }

  /** A one-page PDF source whose page's content (a comment) is {@code salt}. */
  static byte[] pdfBytes(String salt) {
    return MinimalPdf.page("% " + salt, "", List.of());
  }

  private static byte[] concat(byte[] a, byte[] b) {
    byte[] all = new byte[a.length + b.length];
    System.arraycopy(a, 0, all, 0, a.length);
    System.arraycopy(b, 0, all, a.length, b.length);
    return all;
  }

  /** The body of a request for a {@code width} px JPEG thumbnail of {@code key}. */
  static JsonNode thumbnail(String key, int width) {
    return JSON.createObjectNode()
        .<com.fasterxml.jackson.databind.node.ObjectNode>set(
            "source", JSON.createObjectNode().put("key", key))
        .set(
            "target",
            JSON.createObjectNode()
                .put("mediaType", "image/jpeg")
                .put("width", width)
                .put("height", width));
  }

  /**
   * {@code POST /v1/derivatives} with {@code body} through the real front door ({@link FrontDoor}:
   * validation, submission and the callback's registration, when the body names one).
   *
   * @throws RuntimeException what the API would map to a problem (InjectedCrash: the API died)
   */
  DerivativeAnswer answer(JsonNode body) {
    return frontDoor.answer(new DerivativeAsk.Json(body, "trace-" + UUID.randomUUID()));
  }

  /**
   * {@link #answer} of a request without a callback, as the job it made, joined or found; a failed
   * job is thrown as the API answers it ({@link JobFailedException}).
   */
  Submission request(JsonNode body) {
    return switch (answer(body)) {
      case DerivativeAnswer.Cached cached -> cached.submission();
      case DerivativeAnswer.Running running -> running.submission();
      case DerivativeAnswer.Made made -> made.submission();
      case DerivativeAnswer.Failed failed -> throw failed.problem();
    };
  }

  /**
   * Sends {@code body} with callback {@code url} through the front door; returns the delivery id it
   * registered, empty when the request was refused before or while registering (a client sends it
   * again).
   *
   * @throws RuntimeException anything else the front door threw
   */
  Optional<Accepted> requestWithCallback(JsonNode body, String url) {
    String before = lastDeliveryId;
    DerivativeAnswer answer;
    try {
      answer = answer(((ObjectNode) body.deepCopy()).put("callback", url));
    } catch (InjectedCrash | JobStoreException | DispatchFailedException e) {
      return Optional.empty(); // the claim or its dispatch failed: answered 503 or not at all
    } catch (RuntimeException e) {
      if (Objects.equals(lastDeliveryId, before)) {
        throw e; // not the registration's
      }
      return Optional.empty(); // the registration failed (a full job, an outage): a 503
    }
    return Optional.of(new Accepted(lastDeliveryId, answer));
  }

  /** A callback the API accepted: its delivery id, and the answer of its request. */
  record Accepted(String deliveryId, DerivativeAnswer answer) {
    /** The derivative it was registered for. */
    String fingerprint() {
      return answer.jobId();
    }
  }

  DerivativeService api() {
    return api;
  }

  Optional<Job> job(String id) {
    return tableStore.find(id);
  }

  /** The derivative's bytes, if present. */
  Optional<byte[]> derivative(String fingerprint) {
    try {
      return Optional.of(
          S3.getObjectAsBytes(b -> b.bucket(DERIVATIVES_BUCKET).key("derivatives/" + fingerprint))
              .asByteArray());
    } catch (software.amazon.awssdk.services.s3.model.NoSuchKeyException e) {
      return Optional.empty();
    }
  }

  /** Deletes an intermediate output (as the lifecycle rule would). */
  void deleteObject(ObjectRef ref) {
    S3.deleteObject(b -> b.bucket(ref.bucket()).key(ref.key()));
  }

  void outage(boolean on) {
    outage = on;
  }

  // ------------------------------------------------------------------ deliveries

  /**
   * Delivers one visible message of {@code queue} to its consumer, as its event source mapping
   * would, with the faults switched on; returns false when nothing was visible.
   */
  boolean deliver(SimQueue queue) {
    Optional<SimQueue.Entry> received = queue.receive(random, clock.instant());
    if (received.isEmpty()) {
      return false;
    }
    SimQueue.Entry entry = received.get();
    if (queue == image || queue == pdf) {
      if (roll(Fault.WORKER_KILLED)) {
        return true; // the message comes back after its visibility timeout
      }
      StepBatchProcessor worker = workers.get(queue.name);
      SQSBatchResponse response;
      try {
        SQSEvent event = new SQSEvent();
        event.setRecords(List.of(entry.toSqsMessage(queue.arn())));
        response = worker.process(event, null);
      } catch (InjectedCrash crash) {
        return true;
      }
      finish(queue, entry, response.getBatchItemFailures().isEmpty());
    } else if (queue == callbacks) {
      posts.add(CallbackDelivery.decode(entry.body)); // the receiver answers 2xx
      if (roll(Fault.CALLBACK_BATCH_TIMEOUT)) {
        return true; // not acknowledged: SQS delivers (and the function POSTs) it again
      }
      finish(queue, entry, true);
    } else {
      boolean applied;
      try {
        if (ClaimCheck.KIND.equals(entry.kind)) { // from step results or, once more, its DLQ
          progress.checkClaim(MessageCodec.decode(entry.body, ClaimCheck.class));
        } else if (queue == results) {
          applying = entry.body;
          try {
            progress.apply(MessageCodec.decode(entry.body, StepResult.class));
          } finally {
            applying = null;
          }
        } else if (queue == resultsDlq) {
          progress.resultDeadLettered(MessageCodec.decode(entry.body, StepResult.class));
        } else {
          progress.deadLettered(
              MessageCodec.decode(entry.body, StepMessage.class), CAPABILITY_RECEIVES);
        }
        applied = true;
      } catch (InjectedCrash crash) {
        return true;
      } catch (RuntimeException storeOrDispatchTrouble) {
        applied = false;
      }
      if (applied && roll(Fault.PROGRESS_BATCH_TIMEOUT)) {
        return true; // applied, but the batch timed out before it was acknowledged
      }
      finish(queue, entry, applied);
    }
    return true;
  }

  private void finish(SimQueue queue, SimQueue.Entry entry, boolean processed) {
    if (!processed) {
      queue.release(entry, clock.instant());
      return;
    }
    queue.delete(entry);
    if (!entry.duplicate && roll(Fault.DUPLICATE_DELIVERY)) {
      queue.sendDuplicate(entry, clock.instant());
    }
  }

  /**
   * {@code body} as a sender of another version would write it: a newer one adds fields, an older
   * one leaves optional ones out.
   */
  private String skewed(String body) {
    try {
      if (roll(Fault.NEWER_SENDER)) {
        com.fasterxml.jackson.databind.node.ObjectNode tree =
            (com.fasterxml.jackson.databind.node.ObjectNode) JSON.readTree(body);
        tree.put("deadlineMillis", 123_456L).putObject("hints").put("priority", "low");
        return JSON.writeValueAsString(tree);
      }
      if (roll(Fault.OLDER_SENDER)) {
        com.fasterxml.jackson.databind.node.ObjectNode tree =
            (com.fasterxml.jackson.databind.node.ObjectNode) JSON.readTree(body);
        tree.remove(List.of("attempt", "reused", "traceId", "outputBytes"));
        if ("FINISHED".equals(tree.path("report").asText())) {
          tree.remove("report"); // a sender from before started reports wrote none
        }
        return JSON.writeValueAsString(tree);
      }
      return body;
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }

  /** Whether the fault strikes now (and counts it when it does). */
  boolean roll(Fault fault) {
    Double chance = chances.get(fault);
    if (chance == null || chance <= 0 || random.nextDouble() >= chance) {
      return false;
    }
    injected.merge(fault, 1, Integer::sum);
    return true;
  }

  int injectedTotal() {
    return injected.values().stream().mapToInt(Integer::intValue).sum();
  }

  /** The queues not empty, with what is left in them. */
  String backlog() {
    return queues.stream().filter(q -> !q.isEmpty()).map(SimQueue::describe).toList().toString();
  }

  boolean idle() {
    return queues.stream().allMatch(SimQueue::isEmpty);
  }

  /**
   * Delivers until every queue is empty, moving the clock to the next visibility when nothing is
   * visible; bounded by {@code maxDeliveries}.
   *
   * @return whether the queues drained within the bound
   */
  boolean drain(int maxDeliveries) {
    for (int i = 0; i < maxDeliveries; i++) {
      if (idle()) {
        return true;
      }
      List<SimQueue> shuffled = new ArrayList<>(queues);
      java.util.Collections.shuffle(shuffled, random);
      boolean delivered = false;
      for (SimQueue queue : shuffled) {
        if (deliver(queue)) {
          delivered = true;
          break;
        }
      }
      if (!delivered) {
        Instant now = clock.instant();
        Instant next =
            queues.stream()
                .map(q -> q.nextVisibleAfter(now))
                .flatMap(Optional::stream)
                .min(Instant::compareTo)
                .orElse(now.plusSeconds(1));
        clock.advance(Duration.between(now, next));
      }
    }
    return idle();
  }

  /** Switches every fault off. */
  void heal() {
    chances.clear();
    outage = false;
  }

  // ------------------------------------------------------------------ seams with faults

  /** Sends step messages to the capability queues, dying before or after as told. */
  private final class Dispatcher implements StepDispatcher {
    private final Fault before;
    private final Fault after;

    Dispatcher(Fault before, Fault after) {
      this.before = before;
      this.after = after;
    }

    @Override
    public void dispatch(StepMessage step) {
      if (roll(before)) {
        throw new InjectedCrash("before SendMessage of " + step.capability());
      }
      String copy = applying;
      if (copy != null && roll(Fault.CONCURRENT_DUPLICATE)) {
        applying = null; // the copy runs in another invocation, between this one's write and send
        try {
          progress.apply(MessageCodec.decode(copy, StepResult.class));
        } catch (RuntimeException inProgressOrTrouble) {
          // that invocation reports its message as a batch item failure: the harness's copy is
          // one that SQS delivers again, so send it once more
          results.sendDuplicate(copy, clock.instant());
        } finally {
          applying = copy;
        }
      }
      SimQueue queue = step.capability().equals("pdf") ? pdf : image;
      queue.send(skewed(MessageCodec.encode(step)), clock.instant());
      if (after != null && roll(after)) {
        throw new InjectedCrash("after SendMessage of " + step.capability());
      }
    }
  }

  /** The worker's results go to the results queue; it may die after sending. */
  private final class Publisher implements StepResultPublisher {
    @Override
    public void publish(StepResult result) {
      results.send(skewed(MessageCodec.encode(result)), clock.instant());
      if (!result.isStarted() && roll(Fault.WORKER_CRASH_AFTER_REPORT)) {
        throw new InjectedCrash("after reporting step " + result.stepIndex());
      }
    }
  }

  /** The worker's S3 store; the worker may die right after writing its output. */
  private final class WorkerStore implements ObjectStore {
    private final ObjectStore s3;

    WorkerStore(ObjectStore s3) {
      this.s3 = s3;
    }

    @Override
    public Optional<ObjectMetadata> head(ObjectRef ref) {
      return s3.head(ref);
    }

    @Override
    public Optional<ObjectStart> readStart(ObjectRef ref, int maxBytes, String ifNoneMatch) {
      return s3.readStart(ref, maxBytes, ifNoneMatch);
    }

    @Override
    public PresignedDownload presignGet(String bucket, String key, Duration lifetime) {
      return s3.presignGet(bucket, key, lifetime);
    }

    @Override
    public PresignedUpload presignPut(
        String bucket, String key, String contentType, long contentLength, Duration lifetime) {
      return s3.presignPut(bucket, key, contentType, contentLength, lifetime);
    }

    @Override
    public long download(ObjectRef ref, String ifMatchEtag, Path target, long maxBytes)
        throws IOException {
      return s3.download(ref, ifMatchEtag, target, maxBytes);
    }

    @Override
    public void upload(Path source, ObjectRef ref, String contentType) throws IOException {
      s3.upload(source, ref, contentType);
      if (roll(Fault.WORKER_CRASH_AFTER_OUTPUT)) {
        throw new InjectedCrash("after writing " + ref.key());
      }
    }
  }

  /**
   * The callbacks' half of the records as the registrar writes it, where a request's echo may be
   * tens of kilobytes ({@link Fault#BIG_CALLBACKS}: item-size pressure beyond what the request
   * schema lets one echo hold).
   */
  private final class BigEchoes implements CompletionOutbox {
    @Override
    public Optional<PendingCompletion> pending(String jobId) {
      return outbox.pending(jobId);
    }

    @Override
    public boolean markSent(String jobId, String executionId) {
      return outbox.markSent(jobId, executionId);
    }

    @Override
    public Registration register(String jobId, Callback callback) {
      if (!roll(Fault.BIG_CALLBACKS)) {
        return outbox.register(jobId, callback);
      }
      Map<String, Object> echo = new LinkedHashMap<>(callback.request());
      echo.put("note", "x".repeat(20_000 + random.nextInt(40_000)));
      return outbox.register(jobId, new Callback(callback.id(), callback.url(), echo));
    }
  }

  /** The jobs table, unavailable to the coordinator while the outage lasts. */
  private final class OutageStore implements JobStore {
    private void check() {
      if (outage) {
        throw new JobStoreException("DynamoDB did not answer (injected outage)", null);
      }
    }

    @Override
    public ClaimResult claim(Job candidate, Instant now, Instant cutoff) {
      check();
      return claimWrite(() -> claimStore.claim(candidate, now, cutoff));
    }

    @Override
    public ClaimResult takeOver(Job candidate, String lostExecutionId, Instant now) {
      check();
      return claimWrite(() -> claimStore.takeOver(candidate, lostExecutionId, now));
    }

    @Override
    public ClaimResult replaceSucceeded(Job candidate, String seenExecutionId) {
      check();
      return claimWrite(() -> claimStore.replaceSucceeded(candidate, seenExecutionId));
    }

    private ClaimResult claimWrite(java.util.function.Supplier<ClaimResult> write) {
      claiming = true;
      try {
        return write.get();
      } finally {
        claiming = false;
      }
    }

    @Override
    public Optional<Job> find(String jobId) {
      check();
      return tableStore.find(jobId);
    }

    @Override
    public boolean markDispatched(String jobId, String executionId, int step, Instant lease) {
      check();
      return tableStore.markDispatched(jobId, executionId, step, lease);
    }

    @Override
    public boolean recordStarted(
        String jobId, String executionId, int step, StepRecord run, Instant now, Instant lease) {
      check();
      return tableStore.recordStarted(jobId, executionId, step, run, now, lease);
    }

    @Override
    public StepWrite recordSuccess(StepSuccess success) {
      check();
      return tableStore.recordSuccess(success);
    }

    @Override
    public boolean recordFailure(
        String jobId,
        String executionId,
        int step,
        StepRecord run,
        JobError error,
        Instant now,
        int streak,
        Instant retryAfter) {
      check();
      return tableStore.recordFailure(
          jobId, executionId, step, run, error, now, streak, retryAfter);
    }

    @Override
    public boolean recordAdopted(
        String jobId,
        String executionId,
        dev.derive.protocol.JobStatus seen,
        String newExecutionId,
        int lastStep,
        StepRecord run,
        Instant now) {
      check();
      return tableStore.recordAdopted(jobId, executionId, seen, newExecutionId, lastStep, run, now);
    }
  }

  /**
   * A DynamoDB client whose {@code PutItem} and {@code UpdateItem} requests, while {@code when}
   * holds and once they applied, may be answered twice ({@code retried}: the SDK sent the request
   * again, and the repeat's answer, or its {@code ConditionalCheckFailedException}, is what the
   * caller gets) or end in {@code lost} (what {@code lostAs} makes of the request's name: the call
   * failed, or the caller's process died). A request that did not apply is answered as it is. It
   * strikes below the {@link JobStore}, so a store method of several requests is struck at each.
   */
  private DynamoDbClient struck(
      java.util.function.BooleanSupplier when,
      Fault retried,
      Fault lost,
      java.util.function.Function<String, RuntimeException> lostAs) {
    return (DynamoDbClient)
        java.lang.reflect.Proxy.newProxyInstance(
            DynamoDbClient.class.getClassLoader(),
            new Class<?>[] {DynamoDbClient.class},
            (proxy, method, args) -> {
              boolean write =
                  method.getName().equals("putItem") || method.getName().equals("updateItem");
              if (write && args[0] instanceof java.util.function.Consumer) {
                // the builder form: build the request and come back through the proxy
                return java.lang.reflect.InvocationHandler.invokeDefault(proxy, method, args);
              }
              Object answer = call(method, args);
              if (write && when.getAsBoolean()) {
                if (roll(retried)) {
                  return call(method, args);
                }
                if (roll(lost)) {
                  throw lostAs.apply(method.getName());
                }
              }
              return answer;
            });
  }

  private static Object call(java.lang.reflect.Method method, Object[] args) throws Throwable {
    try {
      return method.invoke(DYNAMODB, args);
    } catch (java.lang.reflect.InvocationTargetException e) {
      throw e.getCause();
    }
  }

  static Set<String> capabilityQueues() {
    return Set.of("image", "pdf");
  }
}
