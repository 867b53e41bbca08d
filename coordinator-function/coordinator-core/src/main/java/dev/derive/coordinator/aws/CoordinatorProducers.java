package dev.derive.coordinator.aws;

import dev.derive.aws.s3.S3ObjectStore;
import dev.derive.coordinator.cache.DerivativeCache;
import dev.derive.coordinator.cache.RecentHits;
import dev.derive.coordinator.claim.JobStore;
import dev.derive.coordinator.claim.LostClaimWatch;
import dev.derive.coordinator.completion.CompletionNotifier;
import dev.derive.coordinator.config.CoordinatorConfig;
import dev.derive.coordinator.config.DeployedCapabilities;
import dev.derive.coordinator.dispatch.StepDispatcher;
import dev.derive.coordinator.identity.SourceInspector;
import dev.derive.coordinator.identity.TikaMediaTypeDetector;
import dev.derive.coordinator.lifecycle.JobClaims;
import dev.derive.coordinator.lifecycle.JobProgress;
import dev.derive.coordinator.lifecycle.LifecycleParts;
import dev.derive.coordinator.lifecycle.StepLeases;
import dev.derive.coordinator.plan.Planner;
import dev.derive.coordinator.service.DerivativeService;
import dev.derive.coordinator.upload.UploadService;
import dev.derive.coordinator.validate.CallbackUrlPolicy;
import dev.derive.coordinator.validate.RequestValidator;
import jakarta.enterprise.context.Dependent;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;
import java.time.Clock;
import java.util.Set;
import java.util.UUID;
import java.util.stream.Collectors;
import org.eclipse.microprofile.config.Config;

/**
 * The composition root of the coordinator functions (API; progress, upload events and callbacks):
 * each part built once per function from {@link CoordinatorConfig} onto AWS, as a CDI singleton
 * made the first time something needs it. Every part is given the same {@link CoordinatorClients}
 * (one client per service) and the same {@link DeployedCapabilities} (the declarations read once).
 * {@link CallbackProducers} and {@link ImageUrlProducers} add the callback and image URL parts. A
 * caller outside CDI (the bench) calls these methods itself.
 */
@Dependent
public class CoordinatorProducers {

  /** The function's one client per AWS service, shared by every part. */
  @Produces
  @Singleton
  public CoordinatorClients clients(CoordinatorConfig config) {
    return new CoordinatorClients(config.s3PathStyle());
  }

  /**
   * The capabilities this deployment dispatches to, read once ({@code CAPABILITY_DECLARATIONS} and
   * each declaration's {@code <NAME>_QUEUE_URL}, {@code <NAME>_STEP_LEASE_SECONDS}, ...).
   */
  @Produces
  @Singleton
  DeployedCapabilities deployedCapabilities(CoordinatorConfig config, Config variables) {
    return DeployedCapabilities.load(
        config,
        name ->
            variables
                .getOptionalValue(name, String.class)
                .map(String::trim)
                .filter(v -> !v.isEmpty()));
  }

  /** The sources and derivatives on S3 ({@code SOURCE_BUCKET}, {@code DERIVATIVES_BUCKET}). */
  @Produces
  @Singleton
  public S3ObjectStore objects(CoordinatorClients clients) {
    return new S3ObjectStore(clients.s3(), clients.s3Presigner());
  }

  /** The jobs table {@code JOBS_TABLE} on DynamoDB. */
  @Produces
  @Singleton
  public JobStore jobStore(CoordinatorConfig config, CoordinatorClients clients) {
    return new DynamoDbJobStore(clients.dynamoDb(), config.jobsTable());
  }

  /** Sends steps to their capability's queue. */
  @Produces
  @Singleton
  public StepDispatcher dispatcher(CoordinatorClients clients, DeployedCapabilities deployed) {
    return new SqsStepDispatcher(clients.sqs(), deployed::queueUrl);
  }

  /**
   * Checks on a claim that has sent no step when a callback is stored on it, or that takes a lost
   * execution (and its callbacks) over: a delayed message to the step-results queue ({@code
   * STEP_RESULTS_QUEUE_URL}); without that queue, none.
   */
  @Produces
  @Singleton
  public LostClaimWatch lostClaimWatch(CoordinatorConfig config, CoordinatorClients clients) {
    return config
        .callbacks()
        .stepResultsQueueUrl()
        .<LostClaimWatch>map(url -> new SqsLostClaimWatch(clients.sqs(), url, Clock.systemUTC()))
        .orElse(LostClaimWatch.NONE);
  }

  /**
   * Which callback URLs are accepted and called: public https ones, and loopback ones as well when
   * {@code CALLBACK_ALLOW_LOOPBACK=true} (local work).
   */
  @Produces
  @Singleton
  public CallbackUrlPolicy callbackUrlPolicy(CoordinatorConfig config) {
    return config.callbacks().allowLoopback()
        ? CallbackUrlPolicy.allowingLoopback()
        : CallbackUrlPolicy.deployed();
  }

  /** The validator of request bodies, for the deployed capabilities and the callback policy. */
  @Produces
  @Singleton
  public RequestValidator requestValidator(
      DeployedCapabilities deployed, CallbackUrlPolicy callbacks) {
    return new RequestValidator(deployed.catalogue(), callbacks);
  }

  /** The request flow: inspection, plan, cache, claim and dispatch. */
  @Produces
  @Singleton
  public DerivativeService derivativeService(
      CoordinatorConfig config,
      DeployedCapabilities deployed,
      S3ObjectStore objects,
      JobStore store,
      StepDispatcher dispatcher,
      CompletionNotifier notifier,
      LostClaimWatch lostClaims) {
    DerivativeCache cache =
        new DerivativeCache(
            objects,
            config.derivativesBucket(),
            config.presignedUrlExpiry(),
            new RecentHits(config.cacheHitMemory(), Clock.systemUTC()));
    Set<String> readable =
        deployed.descriptors().stream()
            .flatMap(c -> c.reads().stream())
            .collect(Collectors.toSet());
    return new DerivativeService(
        new SourceInspector(
            objects,
            new TikaMediaTypeDetector(readable),
            config.sourceBucket(),
            config.limits().maxSourceBytes(),
            deployed.descriptors()),
        new Planner(deployed.descriptors(), config.derivativesBucket()),
        cache,
        store,
        new JobClaims(
            lifecycleParts(config, deployed, store, dispatcher, cache, notifier, lostClaims)),
        deployed::stepTimeout,
        config.jobRetention(),
        Clock.systemUTC());
  }

  /**
   * The progress function's lifecycle (step results and dead letters); it looks for a dead-lettered
   * step's output in the derivatives bucket (one HEAD). A claim it makes (a lost claim's check) is
   * sent at once ({@link JobProgress}).
   */
  @Produces
  @Singleton
  public JobProgress progressLifecycle(
      CoordinatorConfig config,
      DeployedCapabilities deployed,
      S3ObjectStore objects,
      JobStore store,
      StepDispatcher dispatcher,
      CompletionNotifier notifier) {
    DerivativeCache outputs =
        new DerivativeCache(
            objects, config.derivativesBucket(), config.presignedUrlExpiry(), RecentHits.none());
    return new JobProgress(
        lifecycleParts(
            config, deployed, store, dispatcher, outputs, notifier, LostClaimWatch.NONE));
  }

  /** What either half of the lifecycle is built from, with this deployment's leases. */
  private static LifecycleParts lifecycleParts(
      CoordinatorConfig config,
      DeployedCapabilities deployed,
      JobStore store,
      StepDispatcher dispatcher,
      DerivativeCache cache,
      CompletionNotifier notifier,
      LostClaimWatch lostClaims) {
    return new LifecycleParts(
        store,
        dispatcher,
        cache,
        leases(deployed),
        config.leases().dispatch(),
        config.leases().permanentFailureHold(),
        Clock.systemUTC(),
        notifier,
        lostClaims);
  }

  /** The service behind {@code POST /v1/uploads}, presigning PUTs into the source bucket. */
  @Produces
  @Singleton
  public UploadService uploadService(CoordinatorConfig config, S3ObjectStore objects) {
    return new UploadService(
        objects,
        config.sourceBucket(),
        config.limits().maxSourceBytes(),
        config.presignedUrlExpiry(),
        UUID::randomUUID);
  }

  /** The deployed capabilities' step leases; the longest of them before the next is known. */
  static StepLeases leases(DeployedCapabilities deployed) {
    return StepLeases.of(deployed.catalogue().names(), deployed::stepLease);
  }
}
