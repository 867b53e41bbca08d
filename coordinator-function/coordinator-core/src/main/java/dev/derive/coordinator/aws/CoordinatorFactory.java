package dev.derive.coordinator.aws;

import dev.derive.aws.AwsClients;
import dev.derive.aws.s3.S3ObjectStore;
import dev.derive.coordinator.cache.DerivativeCache;
import dev.derive.coordinator.cache.RecentHits;
import dev.derive.coordinator.claim.JobStore;
import dev.derive.coordinator.claim.LostClaimWatch;
import dev.derive.coordinator.completion.CallbackQueue;
import dev.derive.coordinator.completion.CallbackRegistrar;
import dev.derive.coordinator.completion.CallbackRetries;
import dev.derive.coordinator.completion.CallbackSender;
import dev.derive.coordinator.completion.CompletionNotifier;
import dev.derive.coordinator.completion.CompletionPublishException;
import dev.derive.coordinator.completion.CompletionPublisher;
import dev.derive.coordinator.config.CoordinatorSettings;
import dev.derive.coordinator.config.MissingSettingException;
import dev.derive.coordinator.dispatch.StepDispatcher;
import dev.derive.coordinator.identity.SourceInspector;
import dev.derive.coordinator.identity.TikaMediaTypeDetector;
import dev.derive.coordinator.lifecycle.JobLifecycle;
import dev.derive.coordinator.lifecycle.StepLeases;
import dev.derive.coordinator.plan.Planner;
import dev.derive.coordinator.preset.PresetCatalogue;
import dev.derive.coordinator.preset.PresetSource;
import dev.derive.coordinator.service.DerivativeService;
import dev.derive.coordinator.upload.UploadService;
import dev.derive.coordinator.url.SigningKeySource;
import dev.derive.coordinator.url.UrlSigningKeys;
import dev.derive.coordinator.validate.CallbackUrlPolicy;
import dev.derive.coordinator.validate.RequestValidator;
import dev.derive.protocol.capability.CapabilityCatalogue;
import dev.derive.protocol.capability.CapabilityDescriptor;
import java.net.InetAddress;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import software.amazon.awssdk.awscore.client.builder.AwsClientBuilder;
import software.amazon.awssdk.awscore.client.builder.AwsSyncClientBuilder;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.eventbridge.EventBridgeClient;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.secretsmanager.SecretsManagerClient;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.ssm.SsmClient;

/**
 * Wires the coordinator from its settings onto AWS (S3, DynamoDB, SQS) for the function entry
 * points, which only add their framework around it. Clients are created once, at start-up (before a
 * SnapStart snapshot).
 *
 * <p>Over 300 lines because it is the composition root of three functions (API, step results,
 * upload events, plus the callback sender): each factory method is a few lines building one part
 * from the settings, and keeping them together is what lets every part see the same clients.
 */
public final class CoordinatorFactory {
  private static final java.util.logging.Logger LOG =
      java.util.logging.Logger.getLogger(CoordinatorFactory.class.getName());

  private CoordinatorFactory() {}

  /** The API's service: validation through dispatch, on AWS. */
  public static DerivativeService derivativeService(CoordinatorSettings settings) {
    S3ObjectStore objects =
        new S3ObjectStore(s3(settings), AwsClients.s3Presigner(settings.s3PathStyle()));
    CapabilityCatalogue capabilities = settings.capabilities();
    List<CapabilityDescriptor> deployed = capabilities.capabilities();
    DerivativeCache cache =
        new DerivativeCache(
            objects,
            settings.derivativesBucket(),
            settings.presignedUrlExpiry(),
            new RecentHits(settings.cacheHitMemory(), Clock.systemUTC()));
    JobStore store = jobStore(settings);
    return new DerivativeService(
        new SourceInspector(
            objects,
            new TikaMediaTypeDetector(
                deployed.stream()
                    .flatMap(c -> c.reads().stream())
                    .collect(java.util.stream.Collectors.toSet())),
            settings.sourceBucket(),
            settings.maxSourceBytes(),
            deployed),
        new Planner(deployed, settings.derivativesBucket()),
        cache,
        store,
        lifecycle(settings, store, cache, lostClaimWatch(settings)),
        capability ->
            capabilities
                .named(capability)
                .map(settings::stepTimeout)
                .orElseGet(() -> settings.stepTimeout(capability)),
        settings.jobRetention(),
        Clock.systemUTC());
  }

  /**
   * The validator of {@code POST /v1/derivatives} bodies, for the capabilities deployed and the
   * callback URL policy ({@link #callbackUrlPolicy}).
   */
  public static RequestValidator requestValidator(CoordinatorSettings settings) {
    return new RequestValidator(settings.capabilities(), callbackUrlPolicy(settings));
  }

  /**
   * Which callback URLs are accepted and called: public https ones, and loopback ones as well when
   * {@code CALLBACK_ALLOW_LOOPBACK=true} (local work; the template's {@code
   * CallbackAllowLoopback}).
   */
  public static CallbackUrlPolicy callbackUrlPolicy(CoordinatorSettings settings) {
    boolean loopback =
        settings.lookup().apply("CALLBACK_ALLOW_LOOPBACK").map(Boolean::parseBoolean).orElse(false);
    return loopback ? CallbackUrlPolicy.allowingLoopback() : CallbackUrlPolicy.deployed();
  }

  /**
   * Publishes job ends: on the EventBridge bus {@code EVENT_BUS_NAME} and to the callback queue
   * {@code CALLBACK_QUEUE_URL}. Without a bus the event is only logged; with neither, nothing is
   * published (a coordinator wired for tests).
   */
  public static CompletionNotifier completionNotifier(CoordinatorSettings settings) {
    Optional<String> bus = settings.lookup().apply("EVENT_BUS_NAME").filter(b -> !b.isBlank());
    Optional<CallbackQueue> callbacks = callbackQueue(settings);
    if (bus.isEmpty() && callbacks.isEmpty()) {
      return CompletionNotifier.disabled();
    }
    CompletionPublisher publisher =
        bus.<CompletionPublisher>map(
                name ->
                    new EventBridgeCompletionPublisher(client(EventBridgeClient.builder()), name))
            .orElse(
                event ->
                    LOG.info(
                        () ->
                            "no EVENT_BUS_NAME: completion event "
                                + event.eventId()
                                + " not published"));
    return new CompletionNotifier(
        new DynamoDbCompletionOutbox(client(DynamoDbClient.builder()), settings.jobsTable()),
        publisher,
        callbacks.orElse(
            delivery -> {
              throw new CompletionPublishException(
                  "no CALLBACK_QUEUE_URL: callback " + delivery.id() + " cannot be queued", null);
            }));
  }

  /**
   * Registers the callbacks of {@code POST /v1/derivatives} requests on their jobs, or queues them
   * at once ({@link CallbackRegistrar}); empty without {@code CALLBACK_QUEUE_URL}, and then a
   * request with a callback is refused.
   */
  public static Optional<CallbackRegistrar> callbackRegistrar(CoordinatorSettings settings) {
    return callbackQueue(settings)
        .map(
            queue ->
                new CallbackRegistrar(
                    new DynamoDbCompletionOutbox(
                        client(DynamoDbClient.builder()), settings.jobsTable()),
                    queue,
                    settings.derivativesBucket(),
                    Clock.systemUTC(),
                    () -> UUID.randomUUID().toString(),
                    lostClaimWatch(settings)));
  }

  /**
   * Checks on a claim that has sent no step when a callback is stored on it, or that takes a lost
   * execution (and its callbacks) over: a delayed message to the step-results queue ({@code
   * STEP_RESULTS_QUEUE_URL}); without that queue, none.
   */
  private static LostClaimWatch lostClaimWatch(CoordinatorSettings settings) {
    return settings
        .lookup()
        .apply("STEP_RESULTS_QUEUE_URL")
        .filter(url -> !url.isBlank())
        .<LostClaimWatch>map(
            url -> new SqsLostClaimWatch(client(SqsClient.builder()), url, Clock.systemUTC()))
        .orElse(LostClaimWatch.NONE);
  }

  /** Default pause after a callback's first failed attempt: 30 s ({@link CallbackRetries}). */
  public static final long DEFAULT_CALLBACK_RETRY_BASE_SECONDS = 30;

  /** How long the callback signing key read from its secret is used before it is read again. */
  public static final Duration CALLBACK_KEYS_TTL = Duration.ofSeconds(300);

  /**
   * Sends callbacks, signed with the key in the Secrets Manager secret {@code
   * CALLBACK_SIGNING_SECRET} (re-read every 300 s), else the hex key(s) in {@code
   * CALLBACK_SIGNING_KEY} (local work).
   *
   * @throws MissingSettingException if neither is set
   */
  public static CallbackSender callbackSender(CoordinatorSettings settings) {
    Optional<String> secret =
        settings.lookup().apply("CALLBACK_SIGNING_SECRET").filter(v -> !v.isBlank());
    SigningKeySource keys =
        secret.isPresent()
            ? SecretsManagerSigningKeys.fromSecret(
                client(SecretsManagerClient.builder()),
                secret.get(),
                CALLBACK_KEYS_TTL,
                Clock.systemUTC())
            : SigningKeySource.fixed(
                UrlSigningKeys.parse(
                    settings
                        .lookup()
                        .apply("CALLBACK_SIGNING_KEY")
                        .filter(v -> !v.isBlank())
                        .orElseThrow(
                            () ->
                                new MissingSettingException(
                                    "CALLBACK_SIGNING_SECRET or CALLBACK_SIGNING_KEY"))));
    return new CallbackSender(
        keys, callbackUrlPolicy(settings), InetAddress::getAllByName, Clock.systemUTC());
  }

  /** When failed callbacks are tried again ({@code CALLBACK_RETRY_BASE_SECONDS}, default 30). */
  public static CallbackRetries callbackRetries(CoordinatorSettings settings) {
    return new CallbackRetries(
        Duration.ofSeconds(
            settings
                .lookup()
                .apply("CALLBACK_RETRY_BASE_SECONDS")
                .map(Long::parseLong)
                .orElse(DEFAULT_CALLBACK_RETRY_BASE_SECONDS)));
  }

  private static Optional<CallbackQueue> callbackQueue(CoordinatorSettings settings) {
    return settings
        .lookup()
        .apply("CALLBACK_QUEUE_URL")
        .filter(url -> !url.isBlank())
        .map(url -> new SqsCallbackQueue(client(SqsClient.builder()), url));
  }

  /** Default time a presets document is used before it is read again: 60 s. */
  public static final long DEFAULT_PRESETS_TTL_SECONDS = 60;

  /**
   * The presets in force: the document {@code PRESETS_LOCATION} names ({@code ssm:<name>}, {@code
   * s3://<bucket>/<key>} or {@code file:<path>}), re-read every {@code PRESETS_TTL_SECONDS}
   * (default 60), or the built-in presets when it is unset. Validated with {@code validator}.
   *
   * @throws dev.derive.coordinator.preset.InvalidPresetsException if the document is invalid
   * @throws IllegalArgumentException if the location has another form
   */
  public static PresetCatalogue presetCatalogue(
      CoordinatorSettings settings, RequestValidator validator) {
    PresetSource source =
        settings
            .lookup()
            .apply("PRESETS_LOCATION")
            .map(
                location ->
                    PresetLocations.of(
                        location, () -> client(SsmClient.builder()), () -> s3(settings)))
            .orElse(null);
    long ttl =
        settings
            .lookup()
            .apply("PRESETS_TTL_SECONDS")
            .map(Long::parseLong)
            .orElse(DEFAULT_PRESETS_TTL_SECONDS);
    return new PresetCatalogue(source, validator, Duration.ofSeconds(ttl), Clock.systemUTC());
  }

  /** How long the signing keys read from their secret are used before it is read again: 300 s. */
  public static final Duration SIGNING_KEYS_TTL = Duration.ofSeconds(300);

  /**
   * The keys image URLs are signed with: the Secrets Manager secret {@code URL_SIGNING_SECRET}
   * names (re-read every 300 s, so a rotation needs no deployment), else the keys given in {@code
   * URL_SIGNING_KEYS} (local work), else none, and then no image URL is served.
   *
   * @throws IllegalArgumentException if a key is malformed
   */
  public static SigningKeySource signingKeys(CoordinatorSettings settings) {
    Optional<String> secret = settings.lookup().apply("URL_SIGNING_SECRET");
    if (secret.isPresent()) {
      return SecretsManagerSigningKeys.fromSecret(
          client(SecretsManagerClient.builder()),
          secret.get(),
          SIGNING_KEYS_TTL,
          Clock.systemUTC());
    }
    return SigningKeySource.fixed(
        settings
            .lookup()
            .apply("URL_SIGNING_KEYS")
            .map(UrlSigningKeys::parse)
            .orElse(UrlSigningKeys.none()));
  }

  /** The service behind {@code POST /v1/uploads}, presigning PUTs into the source bucket. */
  public static UploadService uploadService(CoordinatorSettings settings) {
    return new UploadService(
        new S3ObjectStore(s3(settings), AwsClients.s3Presigner(settings.s3PathStyle())),
        settings.sourceBucket(),
        settings.maxSourceBytes(),
        settings.presignedUrlExpiry(),
        UUID::randomUUID);
  }

  /**
   * The progress function's lifecycle (step results and dead letters), on AWS; it looks for a
   * dead-lettered step's output in the derivatives bucket (one HEAD).
   */
  public static JobLifecycle progressLifecycle(CoordinatorSettings settings) {
    DerivativeCache outputs =
        new DerivativeCache(
            new S3ObjectStore(s3(settings), AwsClients.s3Presigner(settings.s3PathStyle())),
            settings.derivativesBucket(),
            settings.presignedUrlExpiry(),
            RecentHits.none());
    // a claim it makes (a lost claim's check) is sent at once; if it dies first, the check, not
    // acknowledged, comes again: no watch of its own
    return lifecycle(settings, jobStore(settings), outputs, LostClaimWatch.NONE);
  }

  private static JobLifecycle lifecycle(
      CoordinatorSettings settings,
      JobStore store,
      DerivativeCache cache,
      LostClaimWatch lostClaims) {
    CapabilityCatalogue capabilities = settings.capabilities();
    return new JobLifecycle(
        store,
        dispatcher(settings),
        cache,
        StepLeases.of(
            capabilities.names(),
            capability ->
                capabilities
                    .named(capability)
                    .map(settings::stepLease)
                    .orElseGet(() -> settings.stepLease(capability))),
        settings.dispatchLease(),
        settings.permanentFailureHold(),
        Clock.systemUTC(),
        completionNotifier(settings),
        lostClaims);
  }

  /**
   * A coordinator's client of one service: {@link AwsClients#COORDINATOR}'s timeouts, endpoint and
   * region from the SDK's default chains.
   */
  private static <B extends AwsSyncClientBuilder<B, C> & AwsClientBuilder<B, C>, C> C client(
      B builder) {
    return AwsClients.configure(builder, AwsClients.COORDINATOR).build();
  }

  private static S3Client s3(CoordinatorSettings settings) {
    return AwsClients.configure(S3Client.builder(), AwsClients.COORDINATOR)
        .forcePathStyle(settings.s3PathStyle())
        .build();
  }

  /** The jobs table {@code JOBS_TABLE} on DynamoDB. */
  public static JobStore jobStore(CoordinatorSettings settings) {
    return new DynamoDbJobStore(client(DynamoDbClient.builder()), settings.jobsTable());
  }

  private static StepDispatcher dispatcher(CoordinatorSettings settings) {
    return new SqsStepDispatcher(client(SqsClient.builder()), settings::require);
  }
}
