package dev.derive.coordinator.config;

import dev.derive.coordinator.url.ImageUrlFallbacks;
import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithConverter;
import io.smallrye.config.WithDefault;
import io.smallrye.config.WithName;
import io.smallrye.config.WithParentName;
import java.time.Duration;
import java.util.Optional;

/**
 * Every setting of the coordinator functions, by the environment variable names {@code
 * template.yaml} and the local cloud set ({@code JOBS_TABLE}, {@code JOB_LEASE_SECONDS}, ...),
 * grouped by what they are for. Read once when a function starts (Quarkus config, where {@code
 * application.properties} gives defaults and the environment overrides them; {@link
 * CoordinatorConfigs#from} elsewhere); a missing required value or one that is not of its kind
 * stops the start with a message naming the variable. The settings named after a capability ({@code
 * <NAME>_QUEUE_URL}, {@code <NAME>_STEP_LEASE_SECONDS}, ...) are read with the declarations ({@link
 * DeployedCapabilities}). docs/configuration.md lists them all.
 */
// Over 300 lines because it is every setting, each with its unit and default.
@ConfigMapping(prefix = "")
public interface CoordinatorConfig {

  /** DynamoDB table of job records ({@code JOBS_TABLE}). */
  @WithName("JOBS_TABLE")
  String jobsTable();

  /** Bucket holding the sources ({@code SOURCE_BUCKET}). */
  @WithName("SOURCE_BUCKET")
  String sourceBucket();

  /** Bucket holding derivatives and intermediate outputs ({@code DERIVATIVES_BUCKET}). */
  @WithName("DERIVATIVES_BUCKET")
  String derivativesBucket();

  /** Whether S3 is addressed path-style ({@code DERIVE_S3_PATH_STYLE=true}, local endpoints). */
  @WithName("DERIVE_S3_PATH_STYLE")
  @WithDefault("false")
  boolean s3PathStyle();

  /**
   * Where the capability declarations are: a folder or a path pattern ({@code
   * CAPABILITY_DECLARATIONS}, default where {@code template.yaml}'s CapabilityDeclarations layer
   * puts them).
   */
  @WithName("CAPABILITY_DECLARATIONS")
  @WithDefault("/opt/derive/capabilities")
  String capabilityDeclarations();

  /** Lifetime of download URLs ({@code PRESIGNED_URL_EXPIRY_SECONDS}, SigV4 allows 7 days). */
  @WithName("PRESIGNED_URL_EXPIRY_SECONDS")
  @WithDefault("300")
  @WithConverter(Seconds.Positive.class)
  Duration presignedUrlExpiry();

  /**
   * How long this instance remembers a derivative it saw in the bucket, so repeated hits skip the
   * HeadObject ({@code CACHE_HIT_MEMORY_SECONDS}; 0 turns it off), at most half of {@link
   * #presignedUrlExpiry()} so a download handed out again stays valid long enough to use. Default a
   * tenth of the default URL lifetime: a deleted derivative is answered for no longer than a URL
   * handed out before the deletion works. See {@link dev.derive.coordinator.cache.RecentHits}.
   */
  @WithName("CACHE_HIT_MEMORY_SECONDS")
  @WithDefault("30")
  @WithConverter(Seconds.NonNegative.class)
  Duration cacheHitMemorySetting();

  /** {@link #cacheHitMemorySetting()} capped at half the download URL lifetime. */
  default Duration cacheHitMemory() {
    Duration half = presignedUrlExpiry().dividedBy(2);
    return cacheHitMemorySetting().compareTo(half) > 0 ? half : cacheHitMemorySetting();
  }

  /**
   * How long DynamoDB keeps a job record before its TTL deletes it ({@code JOB_RETENTION_SECONDS}).
   */
  @WithName("JOB_RETENTION_SECONDS")
  @WithDefault("604800")
  @WithConverter(Seconds.Positive.class)
  Duration jobRetention();

  /** The function's own framework settings the coordinator reads. */
  @WithParentName
  Function function();

  /** The leases of claims and steps. */
  @WithParentName
  Leases leases();

  /** Sizes refused above. */
  @WithParentName
  Limits limits();

  /** Completion events and callbacks. */
  @WithParentName
  Callbacks callbacks();

  /** Presets and the uploads that submit them. */
  @WithParentName
  Presets presets();

  /** Image URLs: signing, waiting, placeholders. */
  @WithParentName
  ImageUrls imageUrls();

  /** The function's own framework settings the coordinator reads (Quarkus's names). */
  interface Function {
    /**
     * The path the HTTP API is served under ({@code quarkus.http.root-path}; {@code /} when unset).
     * No default here: a default would make it a key the progress artifact, without Quarkus's HTTP
     * extension, warns of at each start.
     */
    @WithName("quarkus.http.root-path")
    Optional<String> rootPath();

    /**
     * The handler an artifact of several functions runs ({@code quarkus.lambda.handler}, set by
     * {@code QUARKUS_LAMBDA_HANDLER}).
     */
    @WithName("quarkus.lambda.handler")
    Optional<String> handler();
  }

  /** The leases of claims and steps, and the queues' retries they cover. */
  interface Leases {
    /**
     * The lease of a step of a capability that has neither a declaration nor its own {@code
     * <CAPABILITY>_STEP_LEASE_SECONDS} ({@code JOB_LEASE_SECONDS}: the 720 s visibility timeout of
     * a capability queue × its maxReceiveCount of 3, plus 60 s for the result).
     */
    @WithName("JOB_LEASE_SECONDS")
    @WithDefault("2220")
    @WithConverter(Seconds.Positive.class)
    Duration job();

    /**
     * The lease of a claim whose step is not yet known to be queued ({@code
     * DISPATCH_LEASE_SECONDS}: longer than the API function's 29 s timeout, so only a coordinator
     * that died between claim and dispatch lets it lapse).
     */
    @WithName("DISPATCH_LEASE_SECONDS")
    @WithDefault("60")
    @WithConverter(Seconds.Positive.class)
    Duration dispatch();

    /**
     * How long a permanent failure is answered as it is before an identical request may try again
     * ({@code PERMANENT_FAILURE_SECONDS}, default 1 day).
     */
    @WithName("PERMANENT_FAILURE_SECONDS")
    @WithDefault("86400")
    @WithConverter(Seconds.Positive.class)
    Duration permanentFailureHold();

    /**
     * How long a step message may wait in its queue's backlog ({@code
     * STEP_QUEUE_RETENTION_SECONDS}; default SQS's 4 days, which the template's capability queues
     * keep): part of every step's lease.
     */
    @WithName("STEP_QUEUE_RETENTION_SECONDS")
    @WithDefault("345600")
    @WithConverter(Seconds.Positive.class)
    Duration stepQueueRetention();

    /**
     * The capability queues' {@code maxReceiveCount} ({@code STEP_MAX_RECEIVE_COUNT}; 0 when
     * unknown), told in a dead-lettered step's error.
     */
    @WithName("STEP_MAX_RECEIVE_COUNT")
    @WithDefault("0")
    int stepMaxReceives();
  }

  /** Sizes refused above. */
  interface Limits {
    /**
     * Largest source accepted, in bytes ({@code MAX_SOURCE_BYTES}, the template's MaxSourceBytes).
     */
    @WithName("MAX_SOURCE_BYTES")
    @WithDefault("104857600")
    @WithConverter(Seconds.PositiveNumber.class)
    long maxSourceBytes();

    /** Largest request body accepted, in bytes ({@code MAX_REQUEST_BYTES}; 413 above it). */
    @WithName("MAX_REQUEST_BYTES")
    @WithDefault("65536")
    @WithConverter(Seconds.PositiveNumber.class)
    long maxRequestBytes();
  }

  /** Completion events and callbacks. */
  interface Callbacks {
    /** The EventBridge bus job ends are published on ({@code EVENT_BUS_NAME}); none: logged. */
    @WithName("EVENT_BUS_NAME")
    Optional<String> eventBus();

    /**
     * The callback queue ({@code CALLBACK_QUEUE_URL}); without it a request with a callback is
     * refused.
     */
    @WithName("CALLBACK_QUEUE_URL")
    Optional<String> queueUrl();

    /**
     * The step-results queue ({@code STEP_RESULTS_QUEUE_URL}), where the check on a claim that has
     * sent no step is sent, delayed.
     */
    @WithName("STEP_RESULTS_QUEUE_URL")
    Optional<String> stepResultsQueueUrl();

    /**
     * Whether loopback callback URLs are accepted ({@code CALLBACK_ALLOW_LOOPBACK}, local work).
     */
    @WithName("CALLBACK_ALLOW_LOOPBACK")
    @WithDefault("false")
    boolean allowLoopback();

    /**
     * The Secrets Manager secret holding the callback signing key ({@code
     * CALLBACK_SIGNING_SECRET}).
     */
    @WithName("CALLBACK_SIGNING_SECRET")
    Optional<String> signingSecret();

    /**
     * The hex signing key(s) when there is no secret ({@code CALLBACK_SIGNING_KEY}, local work).
     */
    @WithName("CALLBACK_SIGNING_KEY")
    Optional<String> signingKey();

    /** Pause after a callback's first failed attempt ({@code CALLBACK_RETRY_BASE_SECONDS}). */
    @WithName("CALLBACK_RETRY_BASE_SECONDS")
    @WithDefault("30")
    @WithConverter(Seconds.Positive.class)
    Duration retryBase();

    /** The callback queue's {@code maxReceiveCount} ({@code CALLBACK_MAX_RECEIVE_COUNT}). */
    @WithName("CALLBACK_MAX_RECEIVE_COUNT")
    @WithDefault("8")
    int maxAttempts();
  }

  /** Presets and the uploads that submit them. */
  interface Presets {
    /**
     * The presets document ({@code PRESETS_LOCATION}: {@code ssm:<name>}, {@code
     * s3://<bucket>/<key>} or {@code file:<path>}); unset: the built-in presets.
     */
    @WithName("PRESETS_LOCATION")
    Optional<String> location();

    /**
     * How long the presets document is used before it is read again ({@code PRESETS_TTL_SECONDS}).
     */
    @WithName("PRESETS_TTL_SECONDS")
    @WithDefault("60")
    @WithConverter(Seconds.Positive.class)
    Duration ttl();

    /** What the upload of a key under a prefix submits ({@code UPLOAD_PRESETS}). */
    @WithName("UPLOAD_PRESETS")
    Optional<String> uploadPresets();
  }

  /** Image URLs ({@code GET /v1/{signature}/{options}/{key}}, docs/image-urls.md). */
  interface ImageUrls {
    /** The Secrets Manager secret holding the URL signing keys ({@code URL_SIGNING_SECRET}). */
    @WithName("URL_SIGNING_SECRET")
    Optional<String> signingSecret();

    /** The URL signing keys when there is no secret ({@code URL_SIGNING_KEYS}, local work). */
    @WithName("URL_SIGNING_KEYS")
    Optional<String> signingKeys();

    /**
     * What an image URL answers while its derivative is made ({@code IMAGE_URL_PLACEHOLDER}:
     * thumbhash, fallback or none).
     */
    @WithName("IMAGE_URL_PLACEHOLDER")
    @WithDefault("thumbhash")
    ImageUrlFallbacks.Placeholders placeholder();

    /** The fallback image, a key of the source bucket ({@code IMAGE_URL_FALLBACK_KEY}). */
    @WithName("IMAGE_URL_FALLBACK_KEY")
    Optional<String> fallbackKey();

    /** How long a miss waits for its derivative before 503 ({@code IMAGE_URL_WAIT_SECONDS}). */
    @WithName("IMAGE_URL_WAIT_SECONDS")
    @WithDefault("5")
    @WithConverter(Seconds.Positive.class)
    Duration missWait();

    /**
     * Whether a URL without {@code dpr:} reads the DPR client hints ({@code
     * IMAGE_URL_CLIENT_HINTS}).
     */
    @WithName("IMAGE_URL_CLIENT_HINTS")
    @WithDefault("false")
    boolean clientHints();

    /** The CDN in front of the derivatives bucket, if any ({@code DERIVATIVES_CDN_URL}). */
    @WithName("DERIVATIVES_CDN_URL")
    Optional<String> cdn();
  }
}
