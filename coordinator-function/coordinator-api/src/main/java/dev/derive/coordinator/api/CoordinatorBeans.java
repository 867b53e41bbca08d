package dev.derive.coordinator.api;

import dev.derive.coordinator.completion.CallbackRegistrar;
import dev.derive.coordinator.config.CoordinatorConfig;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;
import java.util.Optional;

/**
 * The API function's own part of its composition root; the coordinator's parts come from
 * coordinator-core's producers ({@code dev.derive.coordinator.aws.CoordinatorProducers} and its
 * siblings), read from {@link CoordinatorConfig}.
 */
public class CoordinatorBeans {

  /** The callbacks of {@code POST /v1/derivatives} requests ({@code CALLBACK_QUEUE_URL}). */
  @Produces
  @Singleton
  CallbackRequests callbackRequests(Optional<CallbackRegistrar> registrar) {
    return new CallbackRequests(registrar);
  }
}
