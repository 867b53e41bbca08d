package dev.derive.coordinator.config;

import dev.derive.protocol.capability.CapabilityCatalogue;
import dev.derive.protocol.capability.CapabilityDeclarations;
import dev.derive.protocol.capability.CapabilityDescriptor;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;

/**
 * The coordinator's settings, read by the environment variable names {@code template.yaml} defines
 * ({@code JOBS_TABLE}, {@code SOURCE_BUCKET}, ...). The lookup is a function so that a framework
 * (Quarkus config, where application properties give defaults and environment variables override
 * them) or plain {@link System#getenv(String)} can supply the values.
 *
 * @param jobsTable DynamoDB table of job records ({@code JOBS_TABLE})
 * @param sourceBucket bucket holding the sources ({@code SOURCE_BUCKET})
 * @param derivativesBucket bucket holding derivatives and intermediate outputs ({@code
 *     DERIVATIVES_BUCKET})
 * @param presignedUrlExpiry lifetime of download URLs ({@code PRESIGNED_URL_EXPIRY_SECONDS},
 *     default 300 s; SigV4 allows at most 7 days)
 * @param jobLease the lease of a dispatched step of a capability without its own {@code
 *     <CAPABILITY>_STEP_LEASE_SECONDS} ({@code JOB_LEASE_SECONDS}, default 2220 s: the 720 s
 *     visibility timeout of a capability queue × its maxReceiveCount of 3, plus 60 s for the
 *     result)
 * @param dispatchLease the lease of a claim whose step is not yet known to be queued ({@code
 *     DISPATCH_LEASE_SECONDS}, default 60 s: longer than the API function's 29 s timeout, so only a
 *     coordinator that died between claim and dispatch lets it lapse)
 * @param permanentFailureHold how long a permanent failure is answered as it is before an identical
 *     request may try again ({@code PERMANENT_FAILURE_SECONDS}, default 1 day)
 * @param jobRetention how long DynamoDB keeps a job record before its TTL deletes it ({@code
 *     JOB_RETENTION_SECONDS}, default 7 days)
 * @param maxSourceBytes largest source accepted, in bytes ({@code MAX_SOURCE_BYTES}, default 100
 *     MiB)
 * @param s3PathStyle whether S3 is addressed path-style ({@code DERIVE_S3_PATH_STYLE=true}, needed
 *     on local endpoints)
 * @param lookup the lookup the settings came from, used for names only known at run time (queue URL
 *     variables named by capability descriptors)
 */
public record CoordinatorSettings(
    String jobsTable,
    String sourceBucket,
    String derivativesBucket,
    Duration presignedUrlExpiry,
    Duration jobLease,
    Duration dispatchLease,
    Duration permanentFailureHold,
    Duration jobRetention,
    long maxSourceBytes,
    boolean s3PathStyle,
    Function<String, Optional<String>> lookup) {

  /** Default download URL lifetime: 300 s. */
  public static final long DEFAULT_PRESIGNED_URL_EXPIRY_SECONDS = 300;

  /** Default step lease: 2220 s = 720 s visibility timeout × 3 receives + 60 s. */
  public static final long DEFAULT_JOB_LEASE_SECONDS = 2220;

  /** Default dispatch lease: 60 s, over the API function's 29 s timeout. */
  public static final long DEFAULT_DISPATCH_LEASE_SECONDS = 60;

  /** Default time a permanent failure is answered as it is: 1 day. */
  public static final long DEFAULT_PERMANENT_FAILURE_SECONDS = 24 * 3600;

  /** Default record retention: 7 days. */
  public static final long DEFAULT_JOB_RETENTION_SECONDS = 7 * 24 * 3600;

  /**
   * Default memory of a hit: 30 s, a tenth of the default download URL lifetime, so a deleted
   * derivative is answered for no longer than a URL handed out before the deletion keeps working.
   */
  public static final long DEFAULT_CACHE_HIT_MEMORY_SECONDS = 30;

  /** Default source limit: 100 MiB, the same as the {@code MaxSourceBytes} template parameter. */
  public static final long DEFAULT_MAX_SOURCE_BYTES = 100L * 1024 * 1024;

  /**
   * Reads the settings through {@code lookup} (variable name to value).
   *
   * @throws MissingSettingException if a required variable is unset or blank, or a number is not a
   *     positive integer
   */
  public static CoordinatorSettings from(Function<String, Optional<String>> lookup) {
    Function<String, Optional<String>> present =
        name -> lookup.apply(name).map(String::trim).filter(v -> !v.isEmpty());
    return new CoordinatorSettings(
        required(present, "JOBS_TABLE"),
        required(present, "SOURCE_BUCKET"),
        required(present, "DERIVATIVES_BUCKET"),
        Duration.ofSeconds(
            positive(
                present, "PRESIGNED_URL_EXPIRY_SECONDS", DEFAULT_PRESIGNED_URL_EXPIRY_SECONDS)),
        Duration.ofSeconds(positive(present, "JOB_LEASE_SECONDS", DEFAULT_JOB_LEASE_SECONDS)),
        Duration.ofSeconds(
            positive(present, "DISPATCH_LEASE_SECONDS", DEFAULT_DISPATCH_LEASE_SECONDS)),
        Duration.ofSeconds(
            positive(present, "PERMANENT_FAILURE_SECONDS", DEFAULT_PERMANENT_FAILURE_SECONDS)),
        Duration.ofSeconds(
            positive(present, "JOB_RETENTION_SECONDS", DEFAULT_JOB_RETENTION_SECONDS)),
        positive(present, "MAX_SOURCE_BYTES", DEFAULT_MAX_SOURCE_BYTES),
        present.apply("DERIVE_S3_PATH_STYLE").map("true"::equalsIgnoreCase).orElse(false),
        present);
  }

  /** Reads the settings from the process environment. */
  public static CoordinatorSettings fromEnvironment() {
    return from(name -> Optional.ofNullable(System.getenv(name)));
  }

  /**
   * Returns the value of a variable named at run time, e.g. the queue URL variable of a capability.
   *
   * @throws MissingSettingException if it is unset or blank
   */
  public String require(String variable) {
    return lookup.apply(variable).orElseThrow(() -> new MissingSettingException(variable));
  }

  /** Where the capability declarations are when {@code CAPABILITY_DECLARATIONS} is unset. */
  public static final String DEFAULT_CAPABILITY_DECLARATIONS = "/opt/derive/capabilities";

  /**
   * The capabilities this deployment dispatches to: every declaration at {@code
   * CAPABILITY_DECLARATIONS} (a folder, or a path pattern, {@link CapabilityDeclarations#load};
   * default {@value #DEFAULT_CAPABILITY_DECLARATIONS}, where {@code template.yaml}'s
   * CapabilityDeclarations layer puts them) whose queue URL variable ({@code <NAME>_QUEUE_URL}) is
   * set.
   *
   * @throws dev.derive.protocol.capability.InvalidDeclarationException if a declaration is invalid,
   *     the declarations break a rule they share, or there are none
   */
  public CapabilityCatalogue capabilities() {
    String location =
        lookup.apply("CAPABILITY_DECLARATIONS").orElse(DEFAULT_CAPABILITY_DECLARATIONS);
    return new CapabilityCatalogue(deployed(CapabilityDeclarations.load(location)));
  }

  /**
   * The lease of a dispatched step of {@code capability}: as long as a message of the step may
   * still be delivered, so a job is neither read as stalled nor claimed again while its step waits
   * in a backlog (issue 26 item 13: GET said FAILED "stalled" and later SUCCEEDED). It is the time
   * the message may wait in its queue ({@link #stepQueueRetention()}) plus how long it may take
   * through every delivery its queue allows: {@code <CAPABILITY>_STEP_LEASE_SECONDS} (e.g. {@code
   * IMAGE_STEP_LEASE_SECONDS}) where a deployment overrides it, else the declaration's {@code
   * timeBudget.leaseSeconds}. A step that can no longer end any other way ends by its dead letter
   * long before.
   *
   * @throws MissingSettingException if it is set but not a positive integer
   */
  public Duration stepLease(CapabilityDescriptor capability) {
    return Duration.ofSeconds(
            positive(
                lookup,
                variable(capability.name(), "_STEP_LEASE_SECONDS"),
                capability.timeBudget().leaseSeconds()))
        .plus(stepQueueRetention());
  }

  /**
   * SQS's default message retention, which {@code template.yaml}'s capability queues keep: the
   * longest a step message may wait in a queue's backlog before it is delivered or dropped.
   */
  public static final long DEFAULT_STEP_QUEUE_RETENTION_SECONDS = 4 * 24 * 3600;

  /**
   * How long a step message may wait in its queue's backlog: {@code STEP_QUEUE_RETENTION_SECONDS},
   * default {@value #DEFAULT_STEP_QUEUE_RETENTION_SECONDS} s.
   *
   * @throws MissingSettingException if it is set but not a positive integer
   */
  public Duration stepQueueRetention() {
    return Duration.ofSeconds(
        positive(lookup, "STEP_QUEUE_RETENTION_SECONDS", DEFAULT_STEP_QUEUE_RETENTION_SECONDS));
  }

  /**
   * The lease of a dispatched step of a capability this deployment has no declaration of (a job
   * planned before it was removed): {@code <CAPABILITY>_STEP_LEASE_SECONDS}, else {@link
   * #jobLease()}.
   *
   * @throws MissingSettingException if either is set but not a positive integer
   */
  public Duration stepLease(String capability) {
    return Duration.ofSeconds(
            positive(lookup, variable(capability, "_STEP_LEASE_SECONDS"), jobLease.toSeconds()))
        .plus(stepQueueRetention());
  }

  /**
   * The longest one delivery of a step of {@code capability} may take: {@code
   * <CAPABILITY>_STEP_TIMEOUT_SECONDS} where a deployment overrides it, else the declaration's
   * {@code timeBudget.timeoutSeconds} (its worker function's {@code Timeout}).
   *
   * @throws MissingSettingException if it is set but not a positive integer
   */
  public Duration stepTimeout(CapabilityDescriptor capability) {
    return Duration.ofSeconds(
        positive(
            lookup,
            variable(capability.name(), "_STEP_TIMEOUT_SECONDS"),
            capability.timeBudget().timeoutSeconds()));
  }

  /**
   * The longest one delivery of a step of a capability this deployment has no declaration of:
   * {@code <CAPABILITY>_STEP_TIMEOUT_SECONDS}, else 900 s, Lambda's largest timeout.
   *
   * @throws MissingSettingException if it is set but not a positive integer
   */
  public Duration stepTimeout(String capability) {
    return Duration.ofSeconds(positive(lookup, variable(capability, "_STEP_TIMEOUT_SECONDS"), 900));
  }

  private static String variable(String capability, String suffix) {
    return capability.toUpperCase(java.util.Locale.ROOT).replace('-', '_') + suffix;
  }

  /**
   * How long this instance remembers a derivative it saw in the bucket, so that repeated hits on it
   * skip the HeadObject ({@code CACHE_HIT_MEMORY_SECONDS}, default {@value
   * #DEFAULT_CACHE_HIT_MEMORY_SECONDS} s; 0 turns it off), at most half of {@link
   * #presignedUrlExpiry()} so that a download handed out again stays valid long enough to use. See
   * {@link dev.derive.coordinator.cache.RecentHits} for what it can miss.
   *
   * @throws MissingSettingException if it is set but not a non-negative integer
   */
  public Duration cacheHitMemory() {
    String variable = "CACHE_HIT_MEMORY_SECONDS";
    Optional<String> value = lookup.apply(variable);
    if (value.isEmpty()) {
      value = Optional.of(Long.toString(DEFAULT_CACHE_HIT_MEMORY_SECONDS));
    }
    try {
      long seconds = Long.parseLong(value.get());
      if (seconds >= 0) {
        Duration halfUrlLifetime = presignedUrlExpiry.dividedBy(2);
        Duration memory = Duration.ofSeconds(seconds);
        return memory.compareTo(halfUrlLifetime) > 0 ? halfUrlLifetime : memory;
      }
    } catch (NumberFormatException e) {
      // reported below
    }
    throw new MissingSettingException(
        variable + " must be a non-negative integer, got " + value.get());
  }

  /**
   * The capabilities this deployment can dispatch to: those whose queue URL variable is set.
   *
   * @param catalogue every capability declared
   */
  public List<CapabilityDescriptor> deployed(List<CapabilityDescriptor> catalogue) {
    return catalogue.stream().filter(c -> lookup.apply(c.queueUrlVariable()).isPresent()).toList();
  }

  private static String required(Function<String, Optional<String>> lookup, String name) {
    return lookup.apply(name).orElseThrow(() -> new MissingSettingException(name));
  }

  private static long positive(
      Function<String, Optional<String>> lookup, String name, long fallback) {
    Optional<String> value = lookup.apply(name);
    if (value.isEmpty()) {
      return fallback;
    }
    try {
      long parsed = Long.parseLong(value.get());
      if (parsed > 0) {
        return parsed;
      }
    } catch (NumberFormatException e) {
      // reported below
    }
    throw new MissingSettingException(name + " must be a positive integer, got " + value.get());
  }
}
