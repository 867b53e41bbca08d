package dev.derive.coordinator.lifecycle;

import java.time.Duration;
import java.util.List;
import java.util.function.Function;

/**
 * The lease of a dispatched step, by capability: its whole retry horizon (its queue's visibility
 * timeout × maxReceiveCount plus a margin), so a queued step is never reclaimed while its message
 * may still be delivered. A deployment's leases come from its capabilities' declarations ({@link
 * #of(List, Function)}); a lambda gives one lease to every capability.
 */
@FunctionalInterface
public interface StepLeases {
  /** The lease of a dispatched step of {@code capability}. */
  Duration of(String capability);

  /**
   * The lease an advance writes before it knows the next step's capability: the longest of any
   * capability. For leases given as a lambda, its lease of a capability it has not been told of.
   */
  default Duration longest() {
    return of("");
  }

  /** The leases of {@code capabilities}, each {@code lease.apply(name)}; the longest of them. */
  static StepLeases of(List<String> capabilities, Function<String, Duration> lease) {
    Duration longest =
        capabilities.stream().map(lease).max(Duration::compareTo).orElse(lease.apply(""));
    return new StepLeases() {
      @Override
      public Duration of(String capability) {
        return lease.apply(capability);
      }

      @Override
      public Duration longest() {
        return longest;
      }
    };
  }
}
