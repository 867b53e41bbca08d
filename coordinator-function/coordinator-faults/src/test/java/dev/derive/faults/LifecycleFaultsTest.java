package dev.derive.faults;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.derive.coordinator.claim.JobStoreException;
import dev.derive.coordinator.dispatch.DispatchFailedException;
import dev.derive.coordinator.job.Job;
import dev.derive.coordinator.job.JobFailedException;
import dev.derive.coordinator.job.JobView;
import dev.derive.coordinator.job.Submission;
import dev.derive.coordinator.plan.PlannedStep;
import dev.derive.coordinator.service.DerivativeAnswer;
import dev.derive.faults.FaultyCloud.Accepted;
import dev.derive.faults.FaultyCloud.Fault;
import dev.derive.protocol.JobStatus;
import dev.derive.protocol.message.MessageCodec;
import dev.derive.protocol.message.ObjectRef;
import dev.derive.protocol.message.StepErrorTypes;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The job lifecycle under faults, end to end through the real coordinator, progress and worker
 * runtime code on moto (see {@link FaultyCloud}): one named test per fault of issue 9 that needs
 * the worker, then a seeded randomized schedule of runs (at least 200; {@code -Dfaults.runs=N},
 * {@code -Dfaults.seed=S} reruns one schedule) whose invariants are checked after every run.
 */
class LifecycleFaultsTest {
  private static final int DRAIN = 500;
  private static final Duration DISPATCH_LEASE = Duration.ofSeconds(60);

  /** Thousands of ignored duplicates are the point here, not news: the log keeps warnings. */
  private static final java.util.logging.Logger QUIET =
      java.util.logging.Logger.getLogger("dev.derive");

  static {
    QUIET.setLevel(java.util.logging.Level.WARNING); // held strongly: JUL keeps loggers weakly
  }

  @TempDir Path temp;

  private FaultyCloud cloud(long seed) {
    return new FaultyCloud(seed, temp);
  }

  private static String key(String name) {
    return "uploads/" + UUID.randomUUID() + "/" + name;
  }

  /** Puts {@code bytes} as a new source named {@code name}; returns its key. */
  private static String source(FaultyCloud cloud, String name, byte[] bytes) {
    String key = key(name);
    cloud.putSource(key, bytes);
    return key;
  }

  /**
   * Drains the cloud, which must settle, and returns job {@code jobId}, which must be {@code
   * status}.
   */
  private static Job drained(FaultyCloud cloud, String jobId, JobStatus status) {
    assertThat(cloud.drain(DRAIN)).isTrue();
    Job job = cloud.job(jobId).orElseThrow();
    assertThat(job.status()).isEqualTo(status);
    return job;
  }

  @Test
  void aWorkerKilledMidStepCompletesOnRedeliveryWithOneExecution() {
    FaultyCloud cloud = cloud(1);
    String key = source(cloud, "a.jpg", FaultyCloud.jpegBytes("kill"));
    Submission first = cloud.request(FaultyCloud.thumbnail(key, 64));
    cloud.image.receive(new Random(1), cloud.clock.instant()).orElseThrow(); // killed: no answer

    drained(cloud, first.jobId(), JobStatus.SUCCEEDED);
    assertThat(cloud.executions.values()).extracting(AtomicInteger::get).containsOnly(1);
  }

  /**
   * The coordinator looks up the derivative of a remembered source beside the GET that confirms the
   * source ({@code LookAhead}); a source replaced under the same key must make the guess worthless,
   * never serve the old source's derivative.
   */
  @Test
  void aSourceReplacedUnderTheSameKeyIsNeverAnsweredWithTheOldSourcesDerivative() {
    FaultyCloud cloud = cloud(20);
    String key = source(cloud, "replaced.jpg", FaultyCloud.jpegBytes("first version"));
    Submission first = cloud.request(FaultyCloud.thumbnail(key, 64));
    assertThat(cloud.drain(DRAIN)).isTrue();
    Submission again = cloud.request(FaultyCloud.thumbnail(key, 64));
    assertThat(again.jobId()).isEqualTo(first.jobId());
    assertThat(again.status()).isEqualTo(JobStatus.SUCCEEDED);

    cloud.putSource(key, FaultyCloud.jpegBytes("second version"));
    Submission replaced = cloud.request(FaultyCloud.thumbnail(key, 64));

    assertThat(replaced.jobId()).isNotEqualTo(first.jobId());
    assertThat(replaced.status()).isEqualTo(JobStatus.PENDING);
    Job made = drained(cloud, replaced.jobId(), JobStatus.SUCCEEDED);
    assertCorrectBytes(cloud, made);
  }

  @Test
  void aStepKilledOnEveryDeliveryEndsFailedByItsDeadLetterAndARetryRunsAgain() {
    FaultyCloud cloud = cloud(2);
    cloud.chances.put(Fault.WORKER_KILLED, 1.0);
    String key = source(cloud, "b.jpg", FaultyCloud.jpegBytes("dlq"));
    Submission first = cloud.request(FaultyCloud.thumbnail(key, 64));

    Job failed = drained(cloud, first.jobId(), JobStatus.FAILED);
    assertThat(failed.error().type()).isEqualTo(StepErrorTypes.DEAD_LETTERED);
    assertThat(failed.error().retryable()).isTrue();
    assertThat(failed.error().detail()).startsWith("step 1 of 1 (image) exhausted 3 deliveries");
    assertThat(cloud.injected.get(Fault.WORKER_KILLED)).isEqualTo(3);

    cloud.heal();
    assertThat(cloud.request(FaultyCloud.thumbnail(key, 64)).status()).isEqualTo(JobStatus.PENDING);
    drained(cloud, first.jobId(), JobStatus.SUCCEEDED);
  }

  @Test
  void aCoordinatorThatDiesBetweenClaimAndSendMessageIsReclaimedAfterItsDispatchLease() {
    FaultyCloud cloud = cloud(3);
    String key = source(cloud, "c.jpg", FaultyCloud.jpegBytes("crash"));
    JsonNode request = FaultyCloud.thumbnail(key, 64);
    cloud.chances.put(Fault.API_CRASH_BEFORE_SEND, 1.0);
    assertThatThrownBy(() -> cloud.request(request)).isInstanceOf(InjectedCrash.class);
    cloud.heal();

    Submission joined = cloud.request(request);
    assertThat(joined.status()).isEqualTo(JobStatus.PENDING);
    assertThat(cloud.idle()).as("nothing was queued").isTrue();
    cloud.clock.advance(Duration.ofSeconds(61));
    cloud.request(request);

    drained(cloud, joined.jobId(), JobStatus.SUCCEEDED);
  }

  @Test
  void aJobsTableOutageFailsTheRequestAtOnceAndLeavesNothingThatBlocksTheRetry() {
    FaultyCloud cloud = cloud(4);
    String key = source(cloud, "d.jpg", FaultyCloud.jpegBytes("outage"));
    JsonNode request = FaultyCloud.thumbnail(key, 64);
    cloud.outage(true);
    assertThatThrownBy(() -> cloud.request(request)).isInstanceOf(JobStoreException.class);
    cloud.outage(false);

    Submission retry = cloud.request(request);

    drained(cloud, retry.jobId(), JobStatus.SUCCEEDED);
  }

  @Test
  void aSourceOverwrittenAfterTheRequestFailsThatExecutionAndTheNextRequestGetsTheNewBytes() {
    FaultyCloud cloud = cloud(5);
    String key = source(cloud, "e.jpg", FaultyCloud.jpegBytes("v1"));
    Submission old = cloud.request(FaultyCloud.thumbnail(key, 64));
    String newEtag = cloud.putSource(key, FaultyCloud.jpegBytes("v2"));

    Job failed = drained(cloud, old.jobId(), JobStatus.FAILED);
    assertThat(failed.error().type()).isEqualTo(StepErrorTypes.SOURCE_CHANGED);
    assertThat(failed.error().retryable()).isTrue();
    assertThat(cloud.derivative(old.jobId())).as("no v2 bytes under the v1 fingerprint").isEmpty();
    Submission fresh = cloud.request(FaultyCloud.thumbnail(key, 64));
    assertThat(fresh.jobId()).isNotEqualTo(old.jobId());
    assertThat(cloud.drain(DRAIN)).isTrue();
    assertThat(cloud.job(fresh.jobId()).orElseThrow().source().etag()).isEqualTo(newEtag);
    assertCorrectBytes(cloud, cloud.job(fresh.jobId()).orElseThrow());
  }

  @Test
  void anIntermediateThatExpiresMidJobFailsRetryablyAndTheNextRequestMakesItAgain() {
    FaultyCloud cloud = cloud(6);
    String key = source(cloud, "f.pdf", FaultyCloud.pdfBytes("expire"));
    JsonNode request = FaultyCloud.thumbnail(key, 64);
    Submission first = cloud.request(request);
    Job job = cloud.job(first.jobId()).orElseThrow();
    assertThat(job.plan().size()).isEqualTo(2);
    while (!cloud.pdf.isEmpty()) {
      cloud.deliver(cloud.pdf);
    }
    cloud.deleteObject(job.plan().step(0).output());

    Job failed = drained(cloud, first.jobId(), JobStatus.FAILED);
    assertThat(failed.error().type()).isEqualTo(StepErrorTypes.INPUT_MISSING);
    assertThat(failed.error().retryable()).isTrue();

    cloud.request(request);
    Job done = drained(cloud, first.jobId(), JobStatus.SUCCEEDED);
    assertCorrectBytes(cloud, done);
  }

  @Test
  void everyMessageDeliveredTwiceStillMakesEachStepOnce() {
    FaultyCloud cloud = cloud(7);
    cloud.chances.put(Fault.DUPLICATE_DELIVERY, 1.0);
    String key = source(cloud, "g.pdf", FaultyCloud.pdfBytes("twice"));
    Submission first = cloud.request(FaultyCloud.thumbnail(key, 64));

    Job done = drained(cloud, first.jobId(), JobStatus.SUCCEEDED);
    assertThat(cloud.executions).hasSize(2);
    assertThat(cloud.executions.values()).extracting(AtomicInteger::get).containsOnly(1);
    assertCorrectBytes(cloud, done);
  }

  /**
   * Issue 26 item 16: a request takes over a lost claim that holds a callback (its claimer died
   * before sending; a joining request registered the callback), and its own process dies right
   * after the claim's write. The callback is in the record that one write left, and the take-over
   * was watched before it: the job ends and the callback is POSTed with that end.
   */
  @Test
  void aClaimerThatDiesRightAfterTakingOverALostClaimLosesNoCallback() {
    FaultyCloud cloud = cloud(30);
    String key = source(cloud, "h.jpg", FaultyCloud.jpegBytes("taken over, then died"));
    JsonNode request = FaultyCloud.thumbnail(key, 64);
    Accepted callback = lostClaimWithACallback(cloud, request);
    cloud.chances.put(Fault.CLAIMER_CRASH_AFTER_WRITE, 1.0);

    assertThatThrownBy(() -> cloud.request(request)).isInstanceOf(InjectedCrash.class);
    cloud.heal();

    assertThat(cloud.injected).containsEntry(Fault.CLAIMER_CRASH_AFTER_WRITE, 1);
    assertThat(cloud.drain(DRAIN)).isTrue();
    assertCalledBackWithItsEnd(cloud, callback);
  }

  /**
   * Issue 26 items 9 and 16: a request takes over a lost claim that holds a callback, and the
   * claim's write applies but its answer is lost; the SDK's retry finds the condition failed on the
   * record of the claim's own execution. That is a won claim: its step is sent at once, and the
   * callback, kept by the write, is POSTed with the job's end.
   */
  @Test
  void aClaimWriteRetriedAfterItAppliedSendsItsStepAndLosesNoCallback() {
    FaultyCloud cloud = cloud(31);
    String key = source(cloud, "i.jpg", FaultyCloud.jpegBytes("taken over, answer lost"));
    JsonNode request = FaultyCloud.thumbnail(key, 64);
    Accepted callback = lostClaimWithACallback(cloud, request);
    cloud.chances.put(Fault.CLAIM_WRITE_RETRIED, 1.0);

    Submission retried = cloud.request(request);
    cloud.heal();

    assertThat(cloud.injected).containsEntry(Fault.CLAIM_WRITE_RETRIED, 1);
    assertThat(cloud.job(retried.jobId()).orElseThrow().sentNoStep())
        .as("the claim sent its step")
        .isFalse();
    assertThat(cloud.image.isEmpty()).isFalse();
    assertThat(cloud.drain(DRAIN)).isTrue();
    assertCalledBackWithItsEnd(cloud, callback);
  }

  /**
   * A claim whose claimer died before sending its step, with a callback a joining request
   * registered on it, lost once its dispatch lease has run out.
   */
  private static Accepted lostClaimWithACallback(FaultyCloud cloud, JsonNode request) {
    cloud.chances.put(Fault.API_CRASH_BEFORE_SEND, 1.0);
    assertThatThrownBy(() -> cloud.request(request)).isInstanceOf(InjectedCrash.class);
    cloud.heal();
    Accepted joined =
        cloud
            .requestWithCallback(request, "https://hooks.example.com/" + UUID.randomUUID())
            .orElseThrow();
    assertThat(joined.answer())
        .isInstanceOfSatisfying(
            DerivativeAnswer.Running.class,
            running -> assertThat(running.submission().status()).isEqualTo(JobStatus.PENDING));
    assertThat(cloud.image.isEmpty()).as("nothing was sent").isTrue();
    cloud.clock.advance(DISPATCH_LEASE.plusSeconds(1));
    return joined;
  }

  /** The job ended SUCCEEDED, and every POST of the callback said so, with that end's event id. */
  private static void assertCalledBackWithItsEnd(FaultyCloud cloud, Accepted callback) {
    Job job = cloud.job(callback.fingerprint()).orElseThrow();
    assertThat(job.status()).isEqualTo(JobStatus.SUCCEEDED);
    assertCorrectBytes(cloud, job);
    assertThat(cloud.posts)
        .filteredOn(post -> post.id().equals(callback.deliveryId()))
        .as("the POSTs of callback %s", callback.deliveryId())
        .isNotEmpty()
        .allSatisfy(
            post -> {
              JsonNode body = json(post.body());
              assertThat(body.path("type").asText()).isEqualTo("Derivative Succeeded");
              assertThat(body.path("eventId").asText())
                  .isEqualTo(job.jobId() + ":" + job.executionId());
            });
  }

  // ------------------------------------------------------------------ randomized schedule

  /** The totals of a randomized schedule. */
  private static final class Tally {
    int runs;
    int faults;
    int lost;
    int stuck;
    int contradictions;
    int wrongBytes;
    int forcedReExecutions;
    int events;
    int callbacks;
    final Map<Fault, Integer> byKind = new java.util.EnumMap<>(Fault.class);
    final Map<String, Integer> shapes = new java.util.TreeMap<>();
    final List<String> problems = new ArrayList<>();
    final List<String> reExecutionCauses = new ArrayList<>();

    String summary() {
      return "faults: "
          + runs
          + " runs, "
          + faults
          + " faults injected, "
          + lost
          + " lost, "
          + stuck
          + " stuck, "
          + contradictions
          + " contradictions, "
          + wrongBytes
          + " wrong bytes, "
          + forcedReExecutions
          + " forced re-executions; "
          + events
          + " completion events and "
          + callbacks
          + " callbacks checked"
          + "\n  faults by kind: "
          + byKind
          + "\n  runs by record shape (claims/progress): "
          + shapes;
    }
  }

  @Test
  void aRandomizedScheduleOfFaultsLosesNothingStrandsNothingAndContradictsNothing() {
    int runs = Integer.getInteger("faults.runs", 500);
    String seedProperty = System.getProperty("faults.seed");
    long base = seedProperty != null ? Long.parseLong(seedProperty) : System.nanoTime();
    Tally tally = new Tally();
    for (int i = 0; i < (seedProperty != null ? 1 : runs); i++) {
      long seed = base + i;
      try {
        run(seed, tally);
      } catch (RuntimeException | AssertionError e) {
        throw new AssertionError(
            "run with seed " + seed + " broke (rerun: -Dfaults.seed=" + seed + "): " + e, e);
      }
    }
    System.out.println(tally.summary());
    tally.reExecutionCauses.forEach(cause -> System.out.println("  re-executed: " + cause));
    assertThat(tally.problems).as(tally.summary()).isEmpty();
    assertThat(tally.runs).isEqualTo(seedProperty != null ? 1 : runs);
  }

  private record Wanted(String key, JsonNode request) {}

  /** A request as a client sends it: its body and, if it asked for one, its callback URL. */
  private record Sent(JsonNode request, String callback) {}

  private void run(long seed, Tally tally) {
    FaultyCloud cloud = cloud(seed);
    Random random = cloud.random;
    for (Fault fault : Fault.values()) {
      if (random.nextBoolean()) {
        cloud.chances.put(fault, 0.05 + 0.25 * random.nextDouble());
      }
    }
    List<Wanted> wanted = new ArrayList<>();
    int distinct = 1 + random.nextInt(3);
    for (int d = 0; d < distinct; d++) {
      boolean pdf = random.nextBoolean();
      String key = key(pdf ? "doc.pdf" : "photo.jpg");
      String salt = seed + "-" + d;
      cloud.putSource(key, pdf ? FaultyCloud.pdfBytes(salt) : FaultyCloud.jpegBytes(salt));
      wanted.add(new Wanted(key, FaultyCloud.thumbnail(key, 32 + 16 * random.nextInt(3))));
    }
    List<Sent> toSend = new ArrayList<>();
    for (Wanted w : wanted) {
      int copies = 1 + random.nextInt(3);
      for (int c = 0; c < copies; c++) {
        toSend.add(
            new Sent(
                w.request(),
                random.nextBoolean() ? "https://hooks.example.com/" + UUID.randomUUID() : null));
      }
    }
    Set<String> fingerprints = new LinkedHashSet<>();
    List<Accepted> accepted = new ArrayList<>();
    for (int step = 0; step < 60; step++) {
      int action = random.nextInt(10);
      if (action < 3 && !toSend.isEmpty()) {
        Sent request = toSend.remove(random.nextInt(toSend.size()));
        Optional<String> id = send(cloud, request, accepted);
        if (id.isEmpty()) {
          toSend.add(request); // the client retries later
        } else {
          fingerprints.add(id.get());
        }
      } else if (action < 8) {
        cloud.deliver(cloud.queues.get(random.nextInt(cloud.queues.size())));
      } else if ((!cloud.image.isEmpty() || !cloud.pdf.isEmpty()) && cloud.roll(Fault.BACKLOG)) {
        // the capability queue is backed up: the step waits longer than a lease
        cloud.clock.advance(FaultyCloud.STEP_LEASE.plusSeconds(1 + random.nextInt(900)));
      } else if (cloud.roll(Fault.DELAY)) {
        cloud.clock.advance(Duration.ofSeconds(800 + random.nextInt(2500)));
      } else {
        cloud.clock.advance(Duration.ofSeconds(1 + random.nextInt(5)));
      }
      if (cloud.roll(Fault.INTERMEDIATE_DELETED)) {
        deleteSomeIntermediate(cloud, fingerprints, random);
      }
      if (cloud.roll(Fault.SOURCE_OVERWRITTEN)) {
        Wanted w = wanted.get(random.nextInt(wanted.size()));
        cloud.putSource(w.key(), FaultyCloud.jpegBytes("overwritten-" + UUID.randomUUID()));
      }
      if (cloud.roll(Fault.STORE_OUTAGE)) {
        cloud.outage(true);
      } else {
        cloud.outage(false);
      }
    }
    tally.shapes.merge(cloud.claimShape + "/" + cloud.progressShape, 1, Integer::sum);
    int faults = cloud.injectedTotal();
    cloud.injected.forEach((kind, n) -> tally.byKind.merge(kind, n, Integer::sum));
    Map<String, Integer> executionsBeforeHeal = snapshot(cloud.executions);
    cloud.heal();
    for (Sent request : toSend) {
      send(cloud, request, accepted).ifPresent(fingerprints::add);
    }
    if (!cloud.drain(4 * DRAIN)) {
      tally.problems.add("seed " + seed + ": queues did not drain: " + cloud.backlog());
    }
    // Every request ends: a user asks again until the answer is the derivative.
    for (Wanted w : wanted) {
      boolean done = false;
      for (int round = 0; round < 4 && !done; round++) {
        Submission answer;
        try {
          answer = cloud.request(w.request());
        } catch (JobFailedException e) {
          if (!e.error().retryable()) {
            tally.problems.add("seed " + seed + ": permanent failure " + e.getMessage());
            break;
          }
          // the client honours Retry-After: a retryable failure is held by its backoff
          e.retryAfter()
              .ifPresent(
                  at ->
                      cloud.clock.advance(
                          Duration.between(cloud.clock.instant(), at).plusSeconds(1)));
          continue;
        }
        fingerprints.add(answer.jobId());
        if (answer.isReady()) {
          done = true;
          // A result may still be on its way to the record (the output lands first): let it.
          cloud.drain(4 * DRAIN);
          checkAgreement(cloud, answer.jobId(), seed, tally);
        } else {
          cloud.drain(4 * DRAIN);
          // The client polls on; time passes, so a claim whose step was never sent lapses.
          cloud.clock.advance(DISPATCH_LEASE.plusSeconds(1));
        }
      }
      if (!done) {
        tally.lost++;
        tally.problems.add("seed " + seed + ": " + w.key() + " never ended SUCCEEDED");
      }
    }
    // Nothing is in flight now: past the dispatch lease no job may read PENDING or RUNNING.
    cloud.clock.advance(DISPATCH_LEASE.plusSeconds(1));
    for (String id : fingerprints) {
      Optional<Job> job = cloud.job(id);
      JobStatus read = cloud.api().status(id).status();
      if (!read.isTerminal()) {
        tally.stuck++;
        tally.problems.add(
            "seed "
                + seed
                + ": job "
                + id
                + " reads "
                + read
                + ", recorded "
                + job.map(j -> j.status() + " at step " + j.currentStep() + " " + j.steps())
                    .orElse("-"));
      }
      if (job.isPresent()
          && job.get().status() == JobStatus.SUCCEEDED
          && !correctBytes(cloud, job.get())) {
        tally.wrongBytes++;
        tally.problems.add("seed " + seed + ": job " + id + " stored wrong bytes");
      }
    }
    cloud.drain(4 * DRAIN); // the callbacks of the last answers
    checkAnnouncements(cloud, fingerprints, accepted, seed, tally);
    int reExecutions =
        executionsBeforeHeal.values().stream().mapToInt(n -> Math.max(0, n - 1)).sum();
    if (faults == 0 && reExecutions > 0) {
      tally.problems.add("seed " + seed + ": " + reExecutions + " re-executions without a fault");
    }
    if (reExecutions > 0) {
      tally.reExecutionCauses.add(
          "seed " + seed + ": " + reExecutions + " step(s), under faults " + cloud.injected);
    }
    tally.runs++;
    tally.faults += faults;
    tally.forcedReExecutions += reExecutions;
  }

  /** One request as a client makes it; empty when it failed in a way a client retries. */
  private static Optional<String> send(FaultyCloud cloud, JsonNode request) {
    return send(cloud, new Sent(request, null), new ArrayList<>());
  }

  /**
   * One request as a client makes it, through the front door ({@code FrontDoor}), which registers
   * its callback (then added to {@code accepted}); empty when it failed in a way a client retries
   * (a 503: the request is then not called back).
   */
  private static Optional<String> send(FaultyCloud cloud, Sent sent, List<Accepted> accepted) {
    if (sent.callback() != null) {
      Optional<Accepted> registered = cloud.requestWithCallback(sent.request(), sent.callback());
      registered.ifPresent(accepted::add);
      return registered.map(Accepted::fingerprint);
    }
    try {
      return Optional.of(cloud.request(sent.request()).jobId());
    } catch (InjectedCrash | JobStoreException | DispatchFailedException e) {
      return Optional.empty();
    } catch (JobFailedException e) {
      return Optional.of(e.jobId());
    }
  }

  /**
   * The completion events and callbacks against each other and against what POST, GET and the
   * record say: every publication of one {@code eventId} has one outcome; every POST of one
   * delivery id carries one outcome and event, the outcome of that event; every accepted callback
   * was POSTed; every ended record's end was published with its outcome, and its notice is sent.
   */
  private static void checkAnnouncements(
      FaultyCloud cloud,
      Set<String> fingerprints,
      List<Accepted> accepted,
      long seed,
      Tally tally) {
    Map<String, String> outcomeOfEvent = new LinkedHashMap<>();
    for (var event : cloud.events) {
      String before = outcomeOfEvent.putIfAbsent(event.eventId(), event.detailType());
      if (before != null && !before.equals(event.detailType())) {
        contradiction(
            tally,
            seed,
            "event " + event.eventId() + " said " + before + ", then " + event.detailType());
      }
    }
    Map<String, String> postOf = new LinkedHashMap<>();
    for (var post : cloud.posts) {
      JsonNode body = json(post.body());
      String type = body.path("type").asText();
      String eventId = body.path("eventId").asText("");
      String said = type + " " + eventId;
      String before = postOf.putIfAbsent(post.id(), said);
      if (before != null && !before.equals(said)) {
        contradiction(tally, seed, "callback " + post.id() + " said " + before + ", then " + said);
      }
      if (!eventId.isEmpty()
          && outcomeOfEvent.containsKey(eventId)
          && !outcomeOfEvent.get(eventId).equals(type)) {
        contradiction(
            tally,
            seed,
            "callback "
                + post.id()
                + " said "
                + type
                + " of event "
                + eventId
                + ", which said "
                + outcomeOfEvent.get(eventId));
      }
      if (eventId.isEmpty() && !type.equals("Derivative Succeeded")) {
        contradiction(tally, seed, "a cache hit's callback said " + type);
      }
    }
    for (Accepted a : accepted) {
      if (!postOf.containsKey(a.deliveryId())) {
        tally.lost++;
        tally.problems.add(
            "seed "
                + seed
                + ": callback "
                + a.deliveryId()
                + " of job "
                + a.fingerprint()
                + " was never POSTed; the job is "
                + cloud
                    .job(a.fingerprint())
                    .map(j -> j.status() + " in execution " + j.executionId() + ", " + j.steps())
                    .orElse("gone")
                + ", the events "
                + cloud.events.stream()
                    .filter(e -> e.eventId().startsWith(a.fingerprint()))
                    .map(e -> e.eventId() + " " + e.detailType())
                    .toList());
      }
    }
    for (String id : fingerprints) {
      Optional<Job> record = cloud.job(id);
      if (record.isEmpty() || !record.get().status().isTerminal()) {
        continue;
      }
      Job job = record.get();
      String eventId = id + ":" + job.executionId();
      String expected =
          job.status() == JobStatus.SUCCEEDED ? "Derivative Succeeded" : "Derivative Failed";
      if (!expected.equals(outcomeOfEvent.get(eventId))) {
        contradiction(
            tally,
            seed,
            "job "
                + id
                + " is "
                + job.status()
                + " but its event "
                + eventId
                + " said "
                + outcomeOfEvent.get(eventId));
      }
      if (cloud.outbox.pending(id).isPresent()) {
        tally.stuck++;
        tally.problems.add("seed " + seed + ": job " + id + " ended with its notice pending");
      }
      JobStatus read = cloud.api().status(id).status();
      if (read != job.status()) {
        contradiction(
            tally,
            seed,
            "job "
                + id
                + " is recorded "
                + job.status()
                + ", its event said so, but GET reads "
                + read);
      }
    }
    tally.events += outcomeOfEvent.size();
    tally.callbacks += postOf.size();
  }

  private static void contradiction(Tally tally, long seed, String what) {
    tally.contradictions++;
    tally.problems.add("seed " + seed + ": " + what);
  }

  private static JsonNode json(String text) {
    try {
      return new com.fasterxml.jackson.databind.ObjectMapper().readTree(text);
    } catch (java.io.IOException e) {
      throw new AssertionError("not JSON: " + text, e);
    }
  }

  private static void checkAgreement(FaultyCloud cloud, String id, long seed, Tally tally) {
    JobView view = cloud.api().status(id);
    boolean agrees =
        view.status() == JobStatus.SUCCEEDED
            && view.download() != null
            && cloud.api().content(id) != null
            && cloud.derivative(id).isPresent();
    if (!agrees) {
      tally.contradictions++;
      tally.problems.add("seed " + seed + ": POST said SUCCEEDED but GET said " + view.status());
    }
  }

  private static void deleteSomeIntermediate(
      FaultyCloud cloud, Set<String> fingerprints, Random random) {
    List<ObjectRef> intermediates = new ArrayList<>();
    for (String id : fingerprints) {
      cloud
          .job(id)
          .ifPresent(
              job -> {
                for (int i = 0; i < job.plan().size() - 1; i++) {
                  intermediates.add(job.plan().step(i).output());
                }
              });
    }
    if (!intermediates.isEmpty()) {
      cloud.deleteObject(intermediates.get(random.nextInt(intermediates.size())));
    }
  }

  private static Map<String, Integer> snapshot(Map<String, AtomicInteger> counts) {
    Map<String, Integer> copy = new LinkedHashMap<>();
    counts.forEach((k, v) -> copy.put(k, v.get()));
    return copy;
  }

  // ------------------------------------------------------------------ bytes

  private static boolean correctBytes(FaultyCloud cloud, Job job) {
    Optional<byte[]> stored = cloud.derivative(job.jobId());
    return stored.isPresent() && Arrays.equals(stored.get(), expected(cloud, job));
  }

  private static void assertCorrectBytes(FaultyCloud cloud, Job job) {
    assertThat(cloud.derivative(job.jobId()))
        .hasValueSatisfying(bytes -> assertThat(bytes).isEqualTo(expected(cloud, job)));
  }

  /** What a clean run makes: each planned step's transformation of the source version named. */
  private static byte[] expected(FaultyCloud cloud, Job job) {
    byte[] bytes = cloud.sourceVersions.get(job.source().etag());
    assertThat(bytes).as("source version %s", job.source().etag()).isNotNull();
    for (PlannedStep step : job.plan().steps()) {
      bytes =
          FakeCapability.apply(step.capability(), MessageCodec.encode(step.operations()), bytes);
    }
    return bytes;
  }
}
