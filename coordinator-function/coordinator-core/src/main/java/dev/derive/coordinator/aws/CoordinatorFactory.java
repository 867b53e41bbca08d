package dev.derive.coordinator.aws;

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
import dev.derive.coordinator.lifecycle.JobClaims;
import dev.derive.coordinator.lifecycle.JobProgress;
import dev.derive.coordinator.lifecycle.StepLeases;
import dev.derive.coordinator.plan.Planner;
import dev.derive.coordinator.preset.PresetCatalogue;
import dev.derive.coordinator.preset.PresetSource;
import dev.derive.coordinator.service.DerivativeService;
import dev.derive.coordinator.upload.UploadService;
import dev.derive.coordinator.url.FallbackImage;
import dev.derive.coordinator.url.ImageUrlFallbacks;
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
import java.util.Set;
import java.util.UUID;
import java.util.function.Function;

/**
 * Wires the coordinator from its settings onto AWS (S3, DynamoDB, SQS) for the function entry
 * points, which only add their framework around it. Every part is given the function's {@link
 * CoordinatorClients}, so they share one client per service (made at start-up, before a SnapStart
 * snapshot, when the entry point builds its parts).
 *
 * <p>Over 300 lines because it is the composition root of three functions (API, step results,
 * upload events, plus the callback sender): each factory method is a few lines building one part
 * from the settings.
 */
public final class CoordinatorFactory {
  private static final System.Logger LOG = System.getLogger(CoordinatorFactory.class.getName());

  private CoordinatorFactory() {}

  /** The API's service: validation through dispatch, on AWS. */
  public static DerivativeService derivativeService(
      CoordinatorSettings settings, CoordinatorClients clients) {
    S3ObjectStore objects = new S3ObjectStore(clients.s3(), clients.s3Presigner());
    CapabilityCatalogue capabilities = settings.capabilities();
    List<CapabilityDescriptor> deployed = capabilities.capabilities();
    DerivativeCache cache =
        new DerivativeCache(
            objects,
            settings.derivativesBucket(),
            settings.presignedUrlExpiry(),
            new RecentHits(settings.cacheHitMemory(), Clock.systemUTC()));
    JobStore store = jobStore(settings, clients);
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
        claims(settings, clients, store, cache, lostClaimWatch(settings, clients)),
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
  public static CompletionNotifier completionNotifier(
      CoordinatorSettings settings, CoordinatorClients clients) {
    Optional<String> bus = settings.lookup().apply("EVENT_BUS_NAME").filter(b -> !b.isBlank());
    Optional<CallbackQueue> callbacks = callbackQueue(settings, clients);
    if (bus.isEmpty() && callbacks.isEmpty()) {
      return CompletionNotifier.disabled();
    }
    CompletionPublisher publisher =
        bus.<CompletionPublisher>map(
                name -> new EventBridgeCompletionPublisher(clients.eventBridge(), name))
            .orElse(
                event ->
                    LOG.log(
                        System.Logger.Level.INFO,
                        () ->
                            "no EVENT_BUS_NAME: completion event "
                                + event.eventId()
                                + " not published"));
    return new CompletionNotifier(
        new DynamoDbCompletionOutbox(clients.dynamoDb(), settings.jobsTable()),
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
  public static Optional<CallbackRegistrar> callbackRegistrar(
      CoordinatorSettings settings, CoordinatorClients clients) {
    return callbackQueue(settings, clients)
        .map(
            queue ->
                new CallbackRegistrar(
                    new DynamoDbCompletionOutbox(clients.dynamoDb(), settings.jobsTable()),
                    queue,
                    settings.derivativesBucket(),
                    Clock.systemUTC(),
                    () -> UUID.randomUUID().toString(),
                    lostClaimWatch(settings, clients)));
  }

  /**
   * Checks on a claim that has sent no step when a callback is stored on it, or that takes a lost
   * execution (and its callbacks) over: a delayed message to the step-results queue ({@code
   * STEP_RESULTS_QUEUE_URL}); without that queue, none.
   */
  private static LostClaimWatch lostClaimWatch(
      CoordinatorSettings settings, CoordinatorClients clients) {
    return settings
        .lookup()
        .apply("STEP_RESULTS_QUEUE_URL")
        .filter(url -> !url.isBlank())
        .<LostClaimWatch>map(url -> new SqsLostClaimWatch(clients.sqs(), url, Clock.systemUTC()))
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
  public static CallbackSender callbackSender(
      CoordinatorSettings settings, CoordinatorClients clients) {
    Optional<String> secret =
        settings.lookup().apply("CALLBACK_SIGNING_SECRET").filter(v -> !v.isBlank());
    SigningKeySource keys =
        secret.isPresent()
            ? SecretsManagerSigningKeys.fromSecret(
                clients.secretsManager(), secret.get(), CALLBACK_KEYS_TTL, Clock.systemUTC())
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

  private static Optional<CallbackQueue> callbackQueue(
      CoordinatorSettings settings, CoordinatorClients clients) {
    return settings
        .lookup()
        .apply("CALLBACK_QUEUE_URL")
        .filter(url -> !url.isBlank())
        .map(url -> new SqsCallbackQueue(clients.sqs(), url));
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
      CoordinatorSettings settings, CoordinatorClients clients, RequestValidator validator) {
    PresetSource source =
        settings
            .lookup()
            .apply("PRESETS_LOCATION")
            .map(location -> PresetLocations.of(location, clients::ssm, clients::s3))
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
  public static SigningKeySource signingKeys(
      CoordinatorSettings settings, CoordinatorClients clients) {
    Optional<String> secret = settings.lookup().apply("URL_SIGNING_SECRET");
    if (secret.isPresent()) {
      return SecretsManagerSigningKeys.fromSecret(
          clients.secretsManager(), secret.get(), SIGNING_KEYS_TTL, Clock.systemUTC());
    }
    return SigningKeySource.fixed(
        settings
            .lookup()
            .apply("URL_SIGNING_KEYS")
            .map(UrlSigningKeys::parse)
            .orElse(UrlSigningKeys.none()));
  }

  /** How long the fallback image is served before its object is looked at again: 60 s. */
  public static final Duration FALLBACK_IMAGE_TTL = Duration.ofSeconds(60);

  /**
   * What image URLs answer instead of a problem (docs/image-urls.md): placeholders as {@code
   * IMAGE_URL_PLACEHOLDER} says ({@code thumbhash}, the default; {@code fallback}; {@code none}),
   * drawn from the derivatives {@code service} has made for {@code validator}'s requests, and the
   * fallback image {@code IMAGE_URL_FALLBACK_KEY} names in the source bucket, if any.
   *
   * @throws IllegalArgumentException if {@code IMAGE_URL_PLACEHOLDER} is none of those
   */
  public static ImageUrlFallbacks imageUrlFallbacks(
      CoordinatorSettings settings,
      CoordinatorClients clients,
      DerivativeService service,
      RequestValidator validator) {
    ImageUrlFallbacks.Placeholders placeholders =
        settings
            .lookup()
            .apply("IMAGE_URL_PLACEHOLDER")
            .map(ImageUrlFallbacks.Placeholders::of)
            .orElse(ImageUrlFallbacks.Placeholders.THUMBHASH);
    Optional<FallbackImage> fallback =
        settings
            .lookup()
            .apply("IMAGE_URL_FALLBACK_KEY")
            .map(key -> fallbackImage(settings, clients, validator, key));
    return new ImageUrlFallbacks(
        placeholders,
        fallback,
        validator.capabilities().imageUrls().map(u -> u.placeholder()),
        body ->
            service.madeContent(validator.validate(body), ImageUrlFallbacks.MAX_DOCUMENT_BYTES));
  }

  /**
   * The fallback image {@code key} of the source bucket: served only in a format {@code f:} names.
   */
  private static FallbackImage fallbackImage(
      CoordinatorSettings settings,
      CoordinatorClients clients,
      RequestValidator validator,
      String key) {
    Set<String> made = Set.copyOf(validator.capabilities().formatNames().values());
    TikaMediaTypeDetector detector = new TikaMediaTypeDetector(made);
    Function<byte[], Optional<String>> identify =
        bytes -> detector.detect(bytes).filter(made::contains);
    return new FallbackImage(
        new S3ObjectStore(clients.s3(), clients.s3Presigner()),
        settings.sourceBucket(),
        key,
        FALLBACK_IMAGE_TTL,
        Clock.systemUTC(),
        identify);
  }

  /** The service behind {@code POST /v1/uploads}, presigning PUTs into the source bucket. */
  public static UploadService uploadService(
      CoordinatorSettings settings, CoordinatorClients clients) {
    return new UploadService(
        new S3ObjectStore(clients.s3(), clients.s3Presigner()),
        settings.sourceBucket(),
        settings.maxSourceBytes(),
        settings.presignedUrlExpiry(),
        UUID::randomUUID);
  }

  /**
   * The progress function's lifecycle (step results and dead letters), on AWS; it looks for a
   * dead-lettered step's output in the derivatives bucket (one HEAD).
   */
  public static JobProgress progressLifecycle(
      CoordinatorSettings settings, CoordinatorClients clients) {
    DerivativeCache outputs =
        new DerivativeCache(
            new S3ObjectStore(clients.s3(), clients.s3Presigner()),
            settings.derivativesBucket(),
            settings.presignedUrlExpiry(),
            RecentHits.none());
    return new JobProgress(
        jobStore(settings, clients),
        dispatcher(settings, clients),
        outputs,
        stepLeases(settings),
        settings.dispatchLease(),
        settings.permanentFailureHold(),
        Clock.systemUTC(),
        completionNotifier(settings, clients));
  }

  private static JobClaims claims(
      CoordinatorSettings settings,
      CoordinatorClients clients,
      JobStore store,
      DerivativeCache cache,
      LostClaimWatch lostClaims) {
    return new JobClaims(
        store,
        dispatcher(settings, clients),
        cache,
        stepLeases(settings),
        settings.dispatchLease(),
        settings.permanentFailureHold(),
        Clock.systemUTC(),
        completionNotifier(settings, clients),
        lostClaims);
  }

  private static StepLeases stepLeases(CoordinatorSettings settings) {
    CapabilityCatalogue capabilities = settings.capabilities();
    return StepLeases.of(
        capabilities.names(),
        capability ->
            capabilities
                .named(capability)
                .map(settings::stepLease)
                .orElseGet(() -> settings.stepLease(capability)));
  }

  /** The jobs table {@code JOBS_TABLE} on DynamoDB. */
  public static JobStore jobStore(CoordinatorSettings settings, CoordinatorClients clients) {
    return new DynamoDbJobStore(clients.dynamoDb(), settings.jobsTable());
  }

  private static StepDispatcher dispatcher(
      CoordinatorSettings settings, CoordinatorClients clients) {
    return new SqsStepDispatcher(clients.sqs(), settings::require);
  }
}
