package dev.derive.coordinator.completion;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.derive.coordinator.Jobs;
import dev.derive.coordinator.LocalAws;
import dev.derive.coordinator.aws.DynamoDbCompletionOutbox;
import dev.derive.coordinator.aws.DynamoDbJobStore;
import dev.derive.coordinator.aws.EventBridgeCompletionPublisher;
import dev.derive.coordinator.aws.SqsCallbackQueue;
import dev.derive.coordinator.claim.AmbiguousWrites;
import dev.derive.coordinator.claim.ClaimCheck;
import dev.derive.coordinator.claim.JobStore;
import dev.derive.coordinator.claim.LostClaimWatch;
import dev.derive.coordinator.job.Job;
import dev.derive.coordinator.lifecycle.ClaimNotLapsedException;
import dev.derive.coordinator.lifecycle.ClaimOutcome;
import dev.derive.coordinator.lifecycle.JobLifecycle;
import dev.derive.coordinator.lifecycle.LifecycleParts;
import dev.derive.coordinator.lifecycle.MutableClock;
import dev.derive.coordinator.lifecycle.ProgressOutcome;
import dev.derive.coordinator.lifecycle.RecordingDispatcher;
import dev.derive.infra.endpoint.AwsClients;
import dev.derive.protocol.JobStatus;
import dev.derive.protocol.message.StepError;
import dev.derive.protocol.message.StepMessage;
import dev.derive.protocol.message.StepResult;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.eventbridge.EventBridgeClient;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.Message;
import software.amazon.awssdk.services.sqs.model.QueueAttributeName;

/**
 * Completion events and callbacks, once per job end, on a real endpoint (moto): the jobs table on
 * DynamoDB, a bus with a rule whose target is an SQS queue (as the local cloud provisions it), the
 * callback queue on SQS. The faults: a step result delivered twice, the progress function dying
 * right after the write that ends the job, a dead letter after the end, a callback registered while
 * the job runs or after it ended.
 */
class CompletionEventsTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Duration LEASE = Duration.ofSeconds(2220);

  private final MutableClock clock = new MutableClock(Instant.parse("2030-01-01T00:00:00Z"));
  private final DynamoDbClient dynamoDb = LocalAws.dynamoDb();
  private final SqsClient sqs = LocalAws.sqs();
  private final EventBridgeClient events = AwsClients.eventBridge(LocalAws.endpoint());
  private final String table = LocalAws.createJobsTable(dynamoDb);
  private final JobStore store = new DynamoDbJobStore(dynamoDb, table);
  private final DynamoDbCompletionOutbox outbox = new DynamoDbCompletionOutbox(dynamoDb, table);
  private final String eventsQueue = LocalAws.createQueue(sqs);
  private final String callbackQueue = LocalAws.createQueue(sqs);
  private final String bus = "bus-" + UUID.randomUUID();
  private final RecordingDispatcher dispatcher = new RecordingDispatcher();
  private final AtomicInteger crashesToCome = new AtomicInteger();

  /** The bus, unless told to crash: the process dies after the terminal write. */
  private final CompletionPublisher publisher =
      new CompletionPublisher() {
        private final EventBridgeCompletionPublisher bridge =
            new EventBridgeCompletionPublisher(events, bus);

        @Override
        public void publish(CompletionEvent event) {
          if (crashesToCome.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
            throw new IllegalStateException("injected crash before PutEvents");
          }
          bridge.publish(event);
        }
      };

  private final CompletionNotifier notifier =
      new CompletionNotifier(outbox, publisher, new SqsCallbackQueue(sqs, callbackQueue));
  private final List<Job> watched = new java.util.concurrent.CopyOnWriteArrayList<>();
  private final JobLifecycle lifecycle = lifecycleOver(store, notifier, watched::add);
  private final CallbackRegistrar registrar =
      new CallbackRegistrar(
          outbox,
          new SqsCallbackQueue(sqs, callbackQueue),
          "derivatives",
          Clock.systemUTC(),
          () -> UUID.randomUUID().toString(),
          watched::add);

  CompletionEventsTest() {
    events.createEventBus(b -> b.name(bus));
    String queueArn =
        sqs.getQueueAttributes(
                b -> b.queueUrl(eventsQueue).attributeNames(QueueAttributeName.QUEUE_ARN))
            .attributes()
            .get(QueueAttributeName.QUEUE_ARN);
    events.putRule(
        b ->
            b.name("completions")
                .eventBusName(bus)
                .eventPattern("{\"source\":[\"" + CompletionEvent.SOURCE + "\"]}"));
    events.putTargets(
        b -> b.rule("completions").eventBusName(bus).targets(t -> t.id("queue").arn(queueArn)));
  }

  private StepMessage started(String id, int steps) {
    Job candidate = Jobs.claimed(id, steps, clock.instant(), Duration.ofSeconds(60));
    lifecycle.claim(candidate);
    return dispatcher.last();
  }

  private static StepResult success(StepMessage step) {
    return StepResult.success(step, 10, 1000, 2000, false).withAttempt(1);
  }

  private List<JsonNode> drain(String queue) {
    List<JsonNode> bodies = new ArrayList<>();
    while (true) {
      List<Message> messages =
          sqs.receiveMessage(b -> b.queueUrl(queue).maxNumberOfMessages(10)).messages();
      if (messages.isEmpty()) {
        return bodies;
      }
      for (Message m : messages) {
        try {
          bodies.add(JSON.readTree(m.body()));
        } catch (java.io.IOException e) {
          throw new AssertionError("not JSON: " + m.body(), e);
        }
        sqs.deleteMessage(b -> b.queueUrl(queue).receiptHandle(m.receiptHandle()));
      }
    }
  }

  @Test
  void theLastStepsSuccessPublishesOneDerivativeSucceededEventWithAStableId() {
    String id = Jobs.newId();
    StepMessage step = started(id, 1);

    assertThat(lifecycle.apply(success(step))).isEqualTo(ProgressOutcome.SUCCEEDED);

    List<JsonNode> published = drain(eventsQueue);
    assertThat(published).hasSize(1);
    JsonNode event = published.get(0);
    assertThat(event.path("source").asText()).isEqualTo("dev.derive");
    assertThat(event.path("detail-type").asText()).isEqualTo("Derivative Succeeded");
    JsonNode detail = event.path("detail");
    assertThat(detail.path("eventId").asText()).isEqualTo(id + ":" + step.executionId());
    assertThat(detail.path("fingerprint").asText()).isEqualTo(id);
    assertThat(detail.path("source").path("key").asText()).isEqualTo(Jobs.SOURCE.key());
    assertThat(detail.path("location").path("key").asText()).isEqualTo("derivatives/" + id);
    assertThat(detail.path("location").path("contentPath").asText())
        .isEqualTo("/v1/derivatives/" + id + "/content");
    assertThat(detail.path("steps").get(0).path("capability").asText()).isEqualTo("image");
    assertThat(detail.has("error")).isFalse();
    assertThat(outbox.pending(id)).isEmpty();
  }

  /**
   * The summary a summarising last step reported (the info derivative's format, size, …) is in its
   * event and its callbacks: kept in the job record, so a publication after a crash (from the
   * redelivered result, which needs not be the one that carried it) has it too. A result without
   * one (an older worker, any other step) gives an event without it.
   */
  @Test
  void theLastStepsSummaryIsInTheEventAndTheCallbackEvenAfterACrash() {
    String id = Jobs.newId();
    Map<String, Object> summary = new java.util.LinkedHashMap<>();
    summary.put("mediaType", "image/jpeg");
    summary.put("width", 640);
    summary.put("exif", Map.of("camera", "Canon EOS 5D"));
    StepResult result = success(started(id, 1)).withSummary(summary);
    registrar.register(id, false, "https://a.example/hook", Map.of("preset", "info"));
    crashesToCome.set(1);
    assertThatThrownBy(() -> lifecycle.apply(result)).isInstanceOf(IllegalStateException.class);

    lifecycle.apply(success(dispatcher.last()));

    JsonNode detail = drain(eventsQueue).getFirst().path("detail");
    assertThat(detail.path("summary").toString())
        .isEqualTo(
            "{\"mediaType\":\"image/jpeg\",\"width\":640,\"exif\":{\"camera\":\"Canon EOS 5D\"}}");
    JsonNode callback = read(drain(callbackQueue).getFirst().path("body").asText());
    assertThat(callback.path("detail").path("summary")).isEqualTo(detail.path("summary"));

    String plain = Jobs.newId();
    lifecycle.apply(success(started(plain, 1)));
    assertThat(drain(eventsQueue).getFirst().path("detail").has("summary")).isFalse();
  }

  @Test
  void aStepResultDeliveredTwicePublishesOneEvent() {
    String id = Jobs.newId();
    StepResult result = success(started(id, 1));

    lifecycle.apply(result);
    assertThat(lifecycle.apply(result)).isEqualTo(ProgressOutcome.IGNORED);

    assertThat(drain(eventsQueue)).hasSize(1);
  }

  @Test
  void aCrashAfterTheTerminalWriteIsPublishedWhenTheResultIsDeliveredAgain() {
    String id = Jobs.newId();
    StepResult result = success(started(id, 1));
    crashesToCome.set(1);

    assertThatThrownBy(() -> lifecycle.apply(result)).hasMessageContaining("injected crash");
    assertThat(store.find(id).orElseThrow().status()).isEqualTo(JobStatus.SUCCEEDED);
    assertThat(drain(eventsQueue)).isEmpty();
    assertThat(outbox.pending(id)).isPresent();

    assertThat(lifecycle.apply(result)).isEqualTo(ProgressOutcome.IGNORED); // the redelivery
    assertThat(lifecycle.apply(result)).isEqualTo(ProgressOutcome.IGNORED); // and one more

    List<JsonNode> published = drain(eventsQueue);
    assertThat(published).hasSize(1);
    assertThat(published.get(0).path("detail").path("eventId").asText())
        .isEqualTo(id + ":" + result.executionId());
  }

  /**
   * Issue 26 item 9: the terminal write applied, its answer was lost and the SDK sent it again; the
   * repeat's condition fails. The end must be published all the same, by this delivery.
   */
  @Test
  void aTerminalWriteRetriedAfterItAppliedIsPublished() {
    for (String write : List.of("recordFailure", "recordSuccess")) {
      String id = Jobs.newId();
      StepMessage step = started(id, 1);
      JobLifecycle retrying =
          lifecycleOver(
              new dev.derive.coordinator.claim.AmbiguousWrites(
                  store,
                  name ->
                      name.equals(write)
                          ? dev.derive.coordinator.claim.AmbiguousWrites.Outcome.RETRIED
                          : dev.derive.coordinator.claim.AmbiguousWrites.Outcome.CLEAN),
              notifier,
              LostClaimWatch.NONE);
      StepResult result =
          write.equals("recordFailure")
              ? StepResult.failure(step, new StepError("timeout", "slow", true), 1000, 2000)
                  .withAttempt(3)
              : success(step);

      retrying.apply(result);

      assertThat(drain(eventsQueue)).as(write).hasSize(1);
      assertThat(outbox.pending(id)).as(write).isEmpty();
    }
  }

  /**
   * Issue 26 item 10: the progress function queued a failure's callbacks and died before marking
   * the notice sent; the next request claims the job again. The callbacks belong to the failure:
   * they must not be carried to the retry and called back again, under the same delivery id, with
   * the retry's success.
   */
  @Test
  void callbacksQueuedWithAFailureWhoseNoticeWasNotMarkedAreNeverCalledBackWithTheRetry() {
    String id = Jobs.newId();
    StepMessage step = started(id, 1);
    String delivery = registrar.register(id, false, "https://hooks.example.com/a", Map.of());
    CompletionOutbox diesBeforeMarking =
        new CompletionOutbox() {
          @Override
          public java.util.Optional<PendingCompletion> pending(String jobId) {
            return outbox.pending(jobId);
          }

          @Override
          public boolean markSent(String jobId, String executionId) {
            throw new IllegalStateException("injected crash before marking the notice sent");
          }

          @Override
          public Registration register(String jobId, Callback callback) {
            return outbox.register(jobId, callback);
          }
        };
    JobLifecycle dying =
        lifecycleOver(
            store,
            new CompletionNotifier(
                diesBeforeMarking, publisher, new SqsCallbackQueue(sqs, callbackQueue)),
            LostClaimWatch.NONE);
    StepResult timedOut =
        StepResult.failure(step, new StepError("timeout", "slow", true), 1000, 2000).withAttempt(3);
    assertThatThrownBy(() -> dying.apply(timedOut)).hasMessageContaining("injected crash");

    StepMessage retry = started(id, 1);
    lifecycle.apply(success(retry));

    List<JsonNode> calls = drain(callbackQueue);
    assertThat(calls).isNotEmpty();
    for (JsonNode call : calls) {
      JsonNode body = json(call.path("body").asText());
      if (body.path("id").asText().equals(delivery)) {
        assertThat(body.path("type").asText()).isEqualTo("Derivative Failed");
        assertThat(body.path("eventId").asText()).isEqualTo(id + ":" + step.executionId());
      }
    }
  }

  /**
   * Also seen in issue 26: a step that ran late after its job was dead-lettered wrote the
   * derivative; GET, POST and /content said SUCCEEDED, the record and its one event FAILED. The
   * bytes decide: the late success ends the job SUCCEEDED as a new execution, with its own event.
   */
  @Test
  void aLateSuccessAfterTheJobFailedEndsItSucceededWithANewEvent() {
    String id = Jobs.newId();
    StepMessage step = started(id, 1);
    assertThat(lifecycle.deadLettered(step, 3)).isEqualTo(ProgressOutcome.FAILED);

    assertThat(lifecycle.apply(success(step))).isEqualTo(ProgressOutcome.SUCCEEDED);

    Job done = store.find(id).orElseThrow();
    assertThat(done.status()).isEqualTo(JobStatus.SUCCEEDED);
    assertThat(done.executionId()).isNotEqualTo(step.executionId());
    List<JsonNode> published = drain(eventsQueue);
    assertThat(published)
        .extracting(e -> e.path("detail-type").asText())
        .containsExactly("Derivative Failed", "Derivative Succeeded");
    assertThat(published.get(1).path("detail").path("eventId").asText())
        .isEqualTo(id + ":" + done.executionId());
  }

  @Test
  void aFailedStepPublishesDerivativeFailedWithTheErrorCountedFromOne() {
    String id = Jobs.newId();
    StepMessage step = started(id, 1);

    lifecycle.apply(
        StepResult.failure(step, new StepError("corrupt-input", "not a JPEG", false), 1000, 2000)
            .withAttempt(1));

    JsonNode event = drain(eventsQueue).get(0);
    assertThat(event.path("detail-type").asText()).isEqualTo("Derivative Failed");
    JsonNode error = event.path("detail").path("error");
    assertThat(error.path("type").asText()).isEqualTo("corrupt-input");
    assertThat(error.path("step").asInt()).isEqualTo(1);
    assertThat(error.path("retryable").asBoolean()).isFalse();
    assertThat(event.path("detail").has("location")).isFalse();
  }

  @Test
  void aDeadLetteredStepPublishesDerivativeFailedOnceThoughTheDeadLetterComesTwice() {
    String id = Jobs.newId();
    StepMessage step = started(id, 2);

    assertThat(lifecycle.deadLettered(step, 3)).isEqualTo(ProgressOutcome.FAILED);
    assertThat(lifecycle.deadLettered(step, 3)).isEqualTo(ProgressOutcome.IGNORED);

    List<JsonNode> published = drain(eventsQueue);
    assertThat(published).hasSize(1);
    assertThat(published.get(0).path("detail").path("error").path("type").asText())
        .isEqualTo("dead-lettered");
  }

  @Test
  void aDeadLetteredResultOfAnEndedJobPublishesItsPendingEvent() {
    String id = Jobs.newId();
    StepResult result = success(started(id, 1));
    crashesToCome.set(1);
    assertThatThrownBy(() -> lifecycle.apply(result)).isInstanceOf(IllegalStateException.class);

    assertThat(lifecycle.resultDeadLettered(result)).isEqualTo(ProgressOutcome.IGNORED);

    assertThat(drain(eventsQueue)).hasSize(1);
  }

  /**
   * A request that loses its claim to a retryable failure whose end the progress function publishes
   * between the claim's write and the request's own announce (which then finds nothing pending)
   * claims again: it used to answer the failure it was told to request again (seen on the local
   * cloud as a 422 dead-lettered right after the job failed).
   */
  @Test
  void aClaimThatLosesToAFailureAnnouncedMeanwhileClaimsAgain() {
    String id = Jobs.newId();
    StepMessage step = started(id, 1);
    crashesToCome.set(1);
    assertThatThrownBy(() -> lifecycle.deadLettered(step, 3))
        .isInstanceOf(IllegalStateException.class);
    java.util.concurrent.atomic.AtomicBoolean raced =
        new java.util.concurrent.atomic.AtomicBoolean();
    JobStore progressAnnouncesMeanwhile =
        after(
            "claim",
            () -> {
              if (raced.compareAndSet(false, true)) {
                assertThat(notifier.announce(id)).as("the progress function's announce").isTrue();
              }
            });
    JobLifecycle api = lifecycleOver(progressAnnouncesMeanwhile, notifier, watched::add);

    ClaimOutcome outcome = api.claim(Jobs.claimed(id, 1, clock.instant(), Duration.ofSeconds(60)));

    assertThat(raced).isTrue();
    assertThat(outcome.kind()).isEqualTo(ClaimOutcome.Kind.WON);
    assertThat(drain(eventsQueue))
        .singleElement()
        .satisfies(e -> assertThat(e.path("detail-type").asText()).isEqualTo("Derivative Failed"));
  }

  @Test
  void aJobThatFailsToDispatchPublishesDerivativeFailed() {
    String id = Jobs.newId();
    dispatcher.failNext(1);

    assertThatThrownBy(
            () -> lifecycle.claim(Jobs.claimed(id, 1, clock.instant(), Duration.ofSeconds(60))))
        .isInstanceOf(dev.derive.coordinator.dispatch.DispatchFailedException.class);

    List<JsonNode> published = drain(eventsQueue);
    assertThat(published).hasSize(1);
    assertThat(published.get(0).path("detail").path("error").path("type").asText())
        .isEqualTo("dispatch-failed");
  }

  /**
   * A first step that could not be queued fails the job in the API, and if publishing that end
   * fails too no message about the job is left to publish it: the claim is watched when its
   * dispatch fails, and the check publishes the pending end, callbacks included.
   */
  @Test
  void aDispatchFailureWhoseAnnounceFailsIsPublishedByItsCheck() {
    String id = Jobs.newId();
    Job candidate = Jobs.claimed(id, 1, clock.instant(), Duration.ofSeconds(60));
    JobStore joinedAfterTheClaim = // a request joins and registers after the claim
        after("claim", () -> registrar.register(id, false, "https://a.example/hook", Map.of()));
    JobLifecycle api = lifecycleOver(joinedAfterTheClaim, notifier, watched::add);
    dispatcher.failNext(1);
    crashesToCome.set(1);

    assertThatThrownBy(() -> api.claim(candidate))
        .isInstanceOf(dev.derive.coordinator.dispatch.DispatchFailedException.class);
    assertThat(drain(eventsQueue)).as("its announce failed").isEmpty();
    assertThat(watched).extracting(Job::executionId).contains(candidate.executionId());
    clock.advance(Duration.ofSeconds(61));

    assertThat(lifecycle.checkClaim(new ClaimCheck(id, candidate.executionId())))
        .isEqualTo(ProgressOutcome.IGNORED);
    assertThat(drain(eventsQueue))
        .singleElement()
        .satisfies(e -> assertThat(e.path("detail-type").asText()).isEqualTo("Derivative Failed"));
    assertThat(drain(callbackQueue)).hasSize(1);
  }

  @Test
  void callbacksRegisteredWhileTheJobRunsAreQueuedOnceEachWhenItEnds() {
    String id = Jobs.newId();
    StepResult result = success(started(id, 1));
    String first =
        registrar.register(id, false, "https://a.example/hook", Map.of("preset", "thumb"));
    String second = registrar.register(id, false, "https://b.example/hook", Map.of());
    crashesToCome.set(1);
    assertThatThrownBy(() -> lifecycle.apply(result)).isInstanceOf(IllegalStateException.class);

    lifecycle.apply(result);
    lifecycle.apply(result);

    List<JsonNode> deliveries = drain(callbackQueue);
    assertThat(deliveries)
        .extracting(d -> d.path("id").asText())
        .containsExactlyInAnyOrder(first, second);
    JsonNode body = read(deliveries.get(0).path("body").asText());
    assertThat(body.path("type").asText()).isEqualTo("Derivative Succeeded");
    assertThat(body.path("eventId").asText()).isEqualTo(id + ":" + result.executionId());
    assertThat(body.path("detail").path("fingerprint").asText()).isEqualTo(id);
  }

  /**
   * A lost execution (its lease lapsed before any end: e.g. the API died between claim and send)
   * never announces; the claim that replaces it carries its callbacks over, so each is called back
   * once, with the new execution's end. That claim is watched before its write (its claimer may die
   * right after it, or before its send); a fresh claim is not.
   */
  @Test
  void callbacksOfALostExecutionAreCalledBackWhenTheExecutionThatReplacedItEnds() {
    String id = Jobs.newId();
    started(id, 1);
    String waiting = registrar.register(id, false, "https://a.example/hook", Map.of());
    clock.advance(LEASE.plusSeconds(1));

    assertThat(watched).isEmpty();
    StepResult result = success(started(id, 1)); // the new claim, past the lost one's lease
    assertThat(watched)
        .singleElement()
        .satisfies(j -> assertThat(j.executionId()).isEqualTo(result.executionId()));
    String joined = registrar.register(id, false, "https://b.example/hook", Map.of());
    lifecycle.apply(result);

    List<JsonNode> deliveries = drain(callbackQueue);
    assertThat(deliveries)
        .extracting(d -> d.path("id").asText())
        .containsExactlyInAnyOrder(waiting, joined);
    assertThat(read(deliveries.get(0).path("body").asText()).path("eventId").asText())
        .isEqualTo(id + ":" + result.executionId());
  }

  /**
   * Issue 26 item 16: a claimer that dies right after taking a lost execution over loses none of
   * its callbacks. The take-over is one write that keeps them in the record, watched before it, so
   * the check claims the job again and they are called back with that execution's end.
   */
  @Test
  void callbacksOfALostExecutionSurviveAClaimerThatDiesRightAfterTakingItOver() {
    String id = Jobs.newId();
    started(id, 1);
    String waiting = registrar.register(id, false, "https://a.example/hook", Map.of());
    clock.advance(LEASE.plusSeconds(1));
    JobLifecycle dying = lifecycleOver(diesRightAfter("takeOver"), notifier, watched::add);
    Job candidate = Jobs.claimed(id, 1, clock.instant(), Duration.ofSeconds(60));
    int sent = dispatcher.sent().size();

    assertThatThrownBy(() -> dying.claim(candidate)).hasMessageContaining("injected crash");
    assertThat(dispatcher.sent()).as("it died before its send").hasSize(sent);
    assertThat(watched).extracting(Job::executionId).containsExactly(candidate.executionId());
    clock.advance(Duration.ofSeconds(61));
    assertThat(lifecycle.checkClaim(new ClaimCheck(id, candidate.executionId())))
        .isEqualTo(ProgressOutcome.RECLAIMED);
    StepMessage step = dispatcher.last();
    lifecycle.apply(success(step));

    List<JsonNode> deliveries = drain(callbackQueue);
    assertThat(deliveries).extracting(d -> d.path("id").asText()).containsExactly(waiting);
    JsonNode body = read(deliveries.get(0).path("body").asText());
    assertThat(body.path("type").asText()).isEqualTo("Derivative Succeeded");
    assertThat(body.path("eventId").asText()).isEqualTo(id + ":" + step.executionId());
  }

  /**
   * Issue 26 items 9 and 16: the SDK retries a take-over whose first attempt applied and whose
   * answer was lost. The retry's condition fails on the record of its own execution, which is a won
   * claim: its step is sent, and the lost execution's callbacks, which that one write kept, are
   * called back with its end.
   */
  @Test
  void aTakeOverRetriedAfterItAppliedSendsItsStepAndKeepsTheLostExecutionsCallbacks() {
    String id = Jobs.newId();
    started(id, 1);
    String waiting = registrar.register(id, false, "https://a.example/hook", Map.of());
    clock.advance(LEASE.plusSeconds(1));
    JobLifecycle retrying =
        lifecycleOver(
            new AmbiguousWrites(
                store,
                write ->
                    write.equals("takeOver")
                        ? AmbiguousWrites.Outcome.RETRIED
                        : AmbiguousWrites.Outcome.CLEAN),
            notifier,
            watched::add);
    Job candidate = Jobs.claimed(id, 1, clock.instant(), Duration.ofSeconds(60));

    assertThat(retrying.claim(candidate).kind()).isEqualTo(ClaimOutcome.Kind.WON);
    StepMessage step = dispatcher.last();
    assertThat(step.executionId()).isEqualTo(candidate.executionId());
    lifecycle.apply(success(step));

    List<JsonNode> deliveries = drain(callbackQueue);
    assertThat(deliveries).extracting(d -> d.path("id").asText()).containsExactly(waiting);
    assertThat(read(deliveries.get(0).path("body").asText()).path("eventId").asText())
        .isEqualTo(id + ":" + candidate.executionId());
  }

  /** The store, except that the process dies right after each {@code write} applied. */
  private JobStore diesRightAfter(String write) {
    return after(
        write,
        () -> {
          throw new IllegalStateException("injected crash right after " + write);
        });
  }

  /** The store, running {@code then} right after each {@code write} applied. */
  private JobStore after(String write, Runnable then) {
    return (JobStore)
        java.lang.reflect.Proxy.newProxyInstance(
            JobStore.class.getClassLoader(),
            new Class<?>[] {JobStore.class},
            (proxy, method, args) -> {
              Object answer;
              try {
                answer = method.invoke(store, args);
              } catch (java.lang.reflect.InvocationTargetException e) {
                throw e.getCause();
              }
              if (method.getName().equals(write)) {
                then.run();
              }
              return answer;
            });
  }

  /** A lifecycle over {@code jobs}, with this test's dispatcher, leases and clock. */
  private JobLifecycle lifecycleOver(
      JobStore jobs, CompletionNotifier completions, LostClaimWatch lostClaims) {
    return new JobLifecycle(
        new LifecycleParts(
            jobs,
            dispatcher,
            JobLifecycle.emptyBucket(),
            c -> LEASE,
            Duration.ofSeconds(60),
            Duration.ofDays(1),
            clock,
            completions,
            lostClaims));
  }

  /**
   * Issue 26: a request that joins a claim whose claimer died before sending its step stores its
   * callback on a claim nobody ends if nobody asks again. The claim is watched: its check, once the
   * dispatch lease ran out, claims the job again as a new request would, and the callback is called
   * back with that execution's end. A claim that replaced the checked one and died as well (the
   * check's own reclaim, crashed before its send) is checked just the same. A claim that has sent
   * its step is not watched.
   */
  @Test
  void aCallbackOnAClaimWhoseClaimerDiedBeforeSendingIsCalledBackAfterItsCheck() {
    String id = Jobs.newId();
    Job lost = Jobs.claimed(id, 1, clock.instant(), Duration.ofSeconds(60));
    assertThat(store.claim(lost, clock.instant(), clock.instant()).won()).isTrue(); // then died
    String waiting = registrar.register(id, false, "https://a.example/hook", Map.of());

    assertThat(watched)
        .singleElement()
        .satisfies(j -> assertThat(j.executionId()).isEqualTo(lost.executionId()));
    ClaimCheck check = new ClaimCheck(id, lost.executionId());
    assertThatThrownBy(() -> lifecycle.checkClaim(check))
        .as("within the dispatch lease the claimer may still send")
        .isInstanceOf(ClaimNotLapsedException.class);
    clock.advance(Duration.ofSeconds(61));
    Job alsoLost = Jobs.claimed(id, 1, clock.instant(), Duration.ofSeconds(60));
    assertThat(store.takeOver(alsoLost, lost.executionId(), clock.instant()).won())
        .as("a second claimer, which dies before its send too")
        .isTrue();
    assertThatThrownBy(() -> lifecycle.checkClaim(check))
        .as("the replacing claim's lease runs")
        .isInstanceOf(ClaimNotLapsedException.class);
    clock.advance(Duration.ofSeconds(61));
    assertThat(lifecycle.checkClaim(check)).isEqualTo(ProgressOutcome.RECLAIMED);
    assertThat(lifecycle.checkClaim(check)).as("a second copy").isEqualTo(ProgressOutcome.IGNORED);
    StepMessage sent = dispatcher.last();
    assertThat(sent.executionId()).isNotIn(lost.executionId(), alsoLost.executionId());
    lifecycle.apply(success(sent));

    assertThat(drain(callbackQueue))
        .extracting(d -> d.path("id").asText())
        .containsExactly(waiting);
    int watches = watched.size(); // the check's own claim carried the callback over: watched too
    String other = Jobs.newId();
    started(other, 1);
    registrar.register(other, false, "https://b.example/hook", Map.of());
    assertThat(watched).as("a claim that sent its step is not watched").hasSize(watches);
  }

  /** A job that failed and was called back is retried by a new claim without calling back again. */
  @Test
  void callbacksAlreadyCalledBackWithAFailureAreNotCarriedToTheRetry() {
    String id = Jobs.newId();
    StepMessage first = started(id, 1);
    registrar.register(id, false, "https://a.example/hook", Map.of());
    lifecycle.apply(
        StepResult.failure(first, new StepError("timeout", "it took too long", true), 1000, 2000)
            .withAttempt(1));
    assertThat(drain(callbackQueue)).hasSize(1);

    lifecycle.apply(success(started(id, 1))); // a retryable failure is claimed again

    assertThat(drain(callbackQueue)).isEmpty();
  }

  @Test
  void aCallbackRegisteredAfterTheJobEndedIsQueuedAtOnceWithThatEnd() {
    String id = Jobs.newId();
    StepResult result = success(started(id, 1));
    lifecycle.apply(result);
    drain(callbackQueue);

    String delivery = registrar.register(id, false, "https://a.example/hook", Map.of());

    List<JsonNode> deliveries = drain(callbackQueue);
    assertThat(deliveries).hasSize(1);
    assertThat(deliveries.get(0).path("id").asText()).isEqualTo(delivery);
    assertThat(read(deliveries.get(0).path("body").asText()).path("eventId").asText())
        .isEqualTo(id + ":" + result.executionId());
    assertThat(drain(eventsQueue)).hasSize(1); // the job's own event, not one per callback
  }

  @Test
  void aRequestAnsweredFromTheCacheIsCalledBackAtOnceWithoutAnEvent() {
    String id = Jobs.newId();

    registrar.register(id, true, "https://a.example/hook", Map.of("preset", "thumb"));

    List<JsonNode> deliveries = drain(callbackQueue);
    assertThat(deliveries).hasSize(1);
    JsonNode body = read(deliveries.get(0).path("body").asText());
    assertThat(body.path("detail").path("cached").asBoolean()).isTrue();
    assertThat(body.path("eventId").isNull()).isTrue();
    assertThat(body.path("request").path("preset").asText()).isEqualTo("thumb");
    assertThat(drain(eventsQueue)).isEmpty();
  }

  @Test
  void aJobHoldsAtMostAHundredCallbacks() {
    String id = Jobs.newId();
    started(id, 1);
    for (int i = 0; i < CompletionOutbox.MAX_CALLBACKS; i++) {
      registrar.register(id, false, "https://a.example/" + i, Map.of());
    }

    assertThatThrownBy(() -> registrar.register(id, false, "https://a.example/x", Map.of()))
        .isInstanceOf(TooManyCallbacksException.class);
  }

  /**
   * Issue 26 item 14: request echoes of 40 KB each fill the 400 KB item long before 100 callbacks.
   * The list is bounded by size too: the one that would not fit is refused as "too many" (503 with
   * Retry-After), never a store failure, and the job still ends and calls back every one it took.
   */
  @Test
  void callbacksAreBoundedBySizeSoTheJobRecordAlwaysFits() {
    String id = Jobs.newId();
    StepMessage step = started(id, 1);
    Map<String, Object> bigEcho = Map.of("note", "x".repeat(40_000));
    List<String> taken = new ArrayList<>();
    for (int i = 0; i < 12; i++) {
      try {
        taken.add(registrar.register(id, false, "https://a.example/" + i, bigEcho));
      } catch (TooManyCallbacksException full) {
        break;
      }
    }
    assertThat(taken).hasSizeBetween(2, 4);

    lifecycle.apply(success(step));

    List<String> delivered = new ArrayList<>();
    for (JsonNode call : drain(callbackQueue)) {
      delivered.add(call.path("id").asText());
    }
    assertThat(delivered).containsExactlyInAnyOrderElementsOf(taken);
  }

  private static JsonNode read(String json) {
    try {
      return JSON.readTree(json);
    } catch (java.io.IOException e) {
      throw new AssertionError(e);
    }
  }

  private static JsonNode json(String text) {
    try {
      return JSON.readTree(text);
    } catch (java.io.IOException e) {
      throw new AssertionError("not JSON: " + text, e);
    }
  }
}
