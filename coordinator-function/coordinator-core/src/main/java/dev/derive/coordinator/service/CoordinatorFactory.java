package dev.derive.coordinator.service;

import dev.derive.coordinator.cache.DerivativeCache;
import dev.derive.coordinator.cache.RecentHits;
import dev.derive.coordinator.claim.DynamoDbJobStore;
import dev.derive.coordinator.claim.JobStore;
import dev.derive.coordinator.config.AwsSdkClients;
import dev.derive.coordinator.config.CoordinatorSettings;
import dev.derive.coordinator.dispatch.SqsStepDispatcher;
import dev.derive.coordinator.dispatch.StepDispatcher;
import dev.derive.coordinator.identity.SourceInspector;
import dev.derive.coordinator.identity.TikaMediaTypeDetector;
import dev.derive.coordinator.lifecycle.JobLifecycle;
import dev.derive.coordinator.plan.Planner;
import dev.derive.coordinator.preset.PresetCatalogue;
import dev.derive.coordinator.preset.PresetSource;
import dev.derive.coordinator.storage.S3ObjectStore;
import dev.derive.coordinator.upload.UploadService;
import dev.derive.coordinator.url.SigningKeySource;
import dev.derive.coordinator.url.UrlSigningKeys;
import dev.derive.coordinator.validate.RequestValidator;
import dev.derive.protocol.capability.Capabilities;
import dev.derive.protocol.capability.CapabilityDescriptor;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

/**
 * Wires the coordinator from its settings onto AWS (S3, DynamoDB, SQS) for the function entry
 * points, which only add their framework around it. Clients are created once, at start-up (before a
 * SnapStart snapshot).
 */
public final class CoordinatorFactory {
  private CoordinatorFactory() {}

  /** The API's service: validation through dispatch, on AWS. */
  public static DerivativeService derivativeService(CoordinatorSettings settings) {
    S3ObjectStore objects =
        new S3ObjectStore(
            AwsSdkClients.s3(settings.s3PathStyle()),
            AwsSdkClients.s3Presigner(settings.s3PathStyle()));
    List<CapabilityDescriptor> deployed = settings.deployed(Capabilities.ALL);
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
        lifecycle(settings, store, cache),
        settings::stepTimeout,
        settings.jobRetention(),
        Clock.systemUTC());
  }

  /** The validator of {@code POST /v1/derivatives} bodies, for the capabilities deployed. */
  public static RequestValidator requestValidator(CoordinatorSettings settings) {
    return new RequestValidator(settings.deployed(Capabilities.ALL));
  }

  /** Default time a presets document is used before it is read again: 60 s. */
  public static final long DEFAULT_PRESETS_TTL_SECONDS = 60;

  /**
   * The presets in force: the document {@code PRESETS_LOCATION} names ({@code ssm:<name>} or {@code
   * file:<path>}), re-read every {@code PRESETS_TTL_SECONDS} (default 60), or the built-in presets
   * when it is unset. Validated with {@code validator}.
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
            .map(location -> PresetSource.of(location, AwsSdkClients::ssm))
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
      return SigningKeySource.fromSecret(
          AwsSdkClients.secretsManager(), secret.get(), SIGNING_KEYS_TTL, Clock.systemUTC());
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
        new S3ObjectStore(
            AwsSdkClients.s3(settings.s3PathStyle()),
            AwsSdkClients.s3Presigner(settings.s3PathStyle())),
        settings.sourceBucket(),
        settings.maxSourceBytes(),
        settings.presignedUrlExpiry(),
        UUID::randomUUID);
  }

  /** The progress function's lifecycle (step results and dead letters), on AWS. */
  public static JobLifecycle progressLifecycle(CoordinatorSettings settings) {
    return lifecycle(settings, jobStore(settings), null);
  }

  private static JobLifecycle lifecycle(
      CoordinatorSettings settings, JobStore store, DerivativeCache cache) {
    return new JobLifecycle(
        store,
        dispatcher(settings),
        cache,
        settings::stepLease,
        settings.dispatchLease(),
        settings.permanentFailureHold(),
        Clock.systemUTC());
  }

  private static JobStore jobStore(CoordinatorSettings settings) {
    return new DynamoDbJobStore(AwsSdkClients.dynamoDb(), settings.jobsTable());
  }

  private static StepDispatcher dispatcher(CoordinatorSettings settings) {
    return new SqsStepDispatcher(AwsSdkClients.sqs(), settings::require);
  }
}
