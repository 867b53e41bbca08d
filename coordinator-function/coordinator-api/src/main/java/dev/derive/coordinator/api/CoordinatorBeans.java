package dev.derive.coordinator.api;

import dev.derive.coordinator.completion.CallbackRegistrar;
import dev.derive.coordinator.config.CoordinatorConfig;
import dev.derive.coordinator.preset.PresetCatalogue;
import dev.derive.coordinator.service.DerivativeService;
import dev.derive.coordinator.service.FrontDoor;
import dev.derive.coordinator.validate.RequestValidator;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;
import java.util.Optional;

/**
 * The API function's own part of its composition root; the coordinator's parts come from
 * coordinator-core's producers ({@code dev.derive.coordinator.aws.CoordinatorProducers} and its
 * siblings), read from {@link CoordinatorConfig}.
 */
public class CoordinatorBeans {

  /**
   * The one way in of a derivative request, JSON or image URL, with the callbacks of {@code POST
   * /v1/derivatives} requests ({@code CALLBACK_QUEUE_URL}).
   */
  @Produces
  @Singleton
  FrontDoor frontDoor(
      PresetCatalogue presets,
      RequestValidator validator,
      DerivativeService service,
      Optional<CallbackRegistrar> callbacks) {
    return new FrontDoor(presets, validator, service, callbacks);
  }
}
