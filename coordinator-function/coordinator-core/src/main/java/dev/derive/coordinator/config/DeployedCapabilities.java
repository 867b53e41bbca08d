package dev.derive.coordinator.config;

import dev.derive.protocol.capability.CapabilityCatalogue;
import dev.derive.protocol.capability.CapabilityDeclarations;
import dev.derive.protocol.capability.CapabilityDescriptor;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/**
 * The capabilities this deployment dispatches to, read once when a function starts: every
 * declaration at {@code CAPABILITY_DECLARATIONS} whose queue URL variable ({@code
 * <NAME>_QUEUE_URL}) is set, with its queue, step lease and step timeout. Every part of a function
 * that needs the capabilities (validator, planner, leases, {@code GET /v1/capabilities}, the
 * OpenAPI document) is given this one instance; before, each re-read the declarations (four times
 * per API start).
 */
public final class DeployedCapabilities {
  /** The longest one delivery of a step of an undeclared capability may take: Lambda's 900 s. */
  static final long UNDECLARED_TIMEOUT_SECONDS = 900;

  private final CapabilityCatalogue catalogue;
  private final Map<String, String> queueUrls;
  private final Map<String, Duration> leases;
  private final Map<String, Duration> timeouts;
  private final Function<String, Optional<String>> variables;
  private final Duration jobLease;
  private final Duration retention;

  private DeployedCapabilities(
      CapabilityCatalogue catalogue,
      Function<String, Optional<String>> variables,
      Duration jobLease,
      Duration retention) {
    this.catalogue = catalogue;
    this.variables = variables;
    this.jobLease = jobLease;
    this.retention = retention;
    Map<String, String> urls = new LinkedHashMap<>();
    Map<String, Duration> lease = new LinkedHashMap<>();
    Map<String, Duration> timeout = new LinkedHashMap<>();
    for (CapabilityDescriptor c : catalogue.capabilities()) {
      urls.put(c.name(), variables.apply(c.queueUrlVariable()).orElseThrow());
      lease.put(
          c.name(),
          seconds(variable(c.name(), "_STEP_LEASE_SECONDS"), c.timeBudget().leaseSeconds())
              .plus(retention));
      timeout.put(
          c.name(),
          seconds(variable(c.name(), "_STEP_TIMEOUT_SECONDS"), c.timeBudget().timeoutSeconds()));
    }
    this.queueUrls = Map.copyOf(urls);
    this.leases = Map.copyOf(lease);
    this.timeouts = Map.copyOf(timeout);
  }

  /**
   * Reads the declarations {@code config} names and keeps those whose queue URL variable {@code
   * variables} (name to value, blank as unset) gives; their overrides are validated now.
   *
   * @throws dev.derive.protocol.capability.InvalidDeclarationException if a declaration is invalid,
   *     the declarations break a rule they share, or there are none
   * @throws MissingSettingException if a capability's override is not a positive whole number
   */
  public static DeployedCapabilities load(
      CoordinatorConfig config, Function<String, Optional<String>> variables) {
    List<CapabilityDescriptor> deployed =
        CapabilityDeclarations.load(config.capabilityDeclarations()).stream()
            .filter(c -> variables.apply(c.queueUrlVariable()).isPresent())
            .toList();
    return new DeployedCapabilities(
        new CapabilityCatalogue(deployed),
        variables,
        config.leases().job(),
        config.leases().stepQueueRetention());
  }

  /** The deployed capabilities' catalogue (declarations, options, presets, formats). */
  public CapabilityCatalogue catalogue() {
    return catalogue;
  }

  /** The deployed capabilities' declarations. */
  public List<CapabilityDescriptor> descriptors() {
    return catalogue.capabilities();
  }

  /**
   * The queue of {@code capability}'s steps.
   *
   * @throws MissingSettingException if it is not deployed (its {@code <NAME>_QUEUE_URL} unset)
   */
  public String queueUrl(String capability) {
    String url = queueUrls.get(capability);
    if (url == null) {
      throw new MissingSettingException(CapabilityDescriptor.queueUrlVariableOf(capability));
    }
    return url;
  }

  /**
   * The lease of a dispatched step of {@code capability}: as long as a message of the step may
   * still be delivered, so a job is neither read as stalled nor claimed again while its step waits
   * in a backlog (issue 26 item 13). It is the time the message may wait in its queue ({@code
   * STEP_QUEUE_RETENTION_SECONDS}) plus how long it may take through every delivery its queue
   * allows: {@code <CAPABILITY>_STEP_LEASE_SECONDS} (e.g. {@code IMAGE_STEP_LEASE_SECONDS}) where a
   * deployment overrides it, else the declaration's {@code timeBudget.leaseSeconds}; for a
   * capability this deployment has no declaration of (a job planned before it was removed), the
   * override else {@code JOB_LEASE_SECONDS}.
   *
   * @throws MissingSettingException if an undeclared capability's override is not a positive whole
   *     number
   */
  public Duration stepLease(String capability) {
    Duration lease = leases.get(capability);
    return lease != null
        ? lease
        : seconds(variable(capability, "_STEP_LEASE_SECONDS"), jobLease.toSeconds())
            .plus(retention);
  }

  /**
   * The longest one delivery of a step of {@code capability} may take: {@code
   * <CAPABILITY>_STEP_TIMEOUT_SECONDS} where a deployment overrides it, else the declaration's
   * {@code timeBudget.timeoutSeconds} (its worker function's {@code Timeout}); 900 s, Lambda's
   * largest, for a capability without a declaration.
   *
   * @throws MissingSettingException if an undeclared capability's override is not a positive whole
   *     number
   */
  public Duration stepTimeout(String capability) {
    Duration timeout = timeouts.get(capability);
    return timeout != null
        ? timeout
        : seconds(variable(capability, "_STEP_TIMEOUT_SECONDS"), UNDECLARED_TIMEOUT_SECONDS);
  }

  private Duration seconds(String variable, long fallback) {
    Optional<String> value = variables.apply(variable);
    if (value.isEmpty()) {
      return Duration.ofSeconds(fallback);
    }
    try {
      return Duration.ofSeconds(Seconds.number(value.get(), 1, "a positive whole number"));
    } catch (IllegalArgumentException e) {
      throw new MissingSettingException(variable + " " + e.getMessage());
    }
  }

  private static String variable(String capability, String suffix) {
    return capability.toUpperCase(Locale.ROOT).replace('-', '_') + suffix;
  }
}
