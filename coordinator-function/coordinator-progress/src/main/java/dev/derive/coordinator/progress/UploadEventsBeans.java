package dev.derive.coordinator.progress;

import dev.derive.coordinator.config.CoordinatorConfig;
import dev.derive.coordinator.onupload.UploadDerivatives;
import dev.derive.coordinator.onupload.UploadPresets;
import dev.derive.coordinator.preset.PresetCatalogue;
import dev.derive.coordinator.service.DerivativeService;
import dev.derive.coordinator.validate.RequestValidator;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;

/**
 * The upload-events function's own part of its composition root ({@link UploadEventsHandler}): the
 * coordinator's request path (presets, validation, cache, claim, dispatch) comes from
 * coordinator-core's producers, as in the API function. Made on first use, so the progress
 * function, which shares this artifact, never builds it.
 */
public class UploadEventsBeans {

  /**
   * What the upload of a key under a configured prefix ({@code UPLOAD_PRESETS}) submits.
   *
   * @throws IllegalArgumentException if {@code UPLOAD_PRESETS} is malformed
   */
  @Produces
  @Singleton
  UploadDerivatives uploadDerivatives(
      CoordinatorConfig config,
      PresetCatalogue presets,
      RequestValidator validator,
      DerivativeService service) {
    return new UploadDerivatives(
        UploadPresets.parse(config.presets().uploadPresets().orElse("")),
        presets,
        validator,
        service,
        config.sourceBucket());
  }
}
