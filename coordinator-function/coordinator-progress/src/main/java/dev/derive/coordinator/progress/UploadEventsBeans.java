package dev.derive.coordinator.progress;

import dev.derive.coordinator.aws.CoordinatorClients;
import dev.derive.coordinator.aws.CoordinatorFactory;
import dev.derive.coordinator.config.CoordinatorSettings;
import dev.derive.coordinator.onupload.UploadDerivatives;
import dev.derive.coordinator.onupload.UploadPresets;
import dev.derive.coordinator.validate.RequestValidator;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;

/**
 * The beans of the upload-events function ({@link UploadEventsHandler}): the coordinator's own
 * request path (presets, validation, cache, claim, dispatch) wired onto AWS as the API function
 * wires it. Made on first use, so the progress function, which shares this artifact, never builds
 * them.
 */
public class UploadEventsBeans {

  /**
   * What the upload of a key under a configured prefix ({@code UPLOAD_PRESETS}) submits.
   *
   * @throws IllegalArgumentException if {@code UPLOAD_PRESETS} is malformed
   */
  @Produces
  @Singleton
  UploadDerivatives uploadDerivatives(CoordinatorSettings settings, CoordinatorClients clients) {
    RequestValidator validator = CoordinatorFactory.requestValidator(settings);
    return new UploadDerivatives(
        UploadPresets.parse(settings.lookup().apply("UPLOAD_PRESETS").orElse("")),
        CoordinatorFactory.presetCatalogue(settings, clients, validator),
        validator,
        CoordinatorFactory.derivativeService(settings, clients),
        settings.sourceBucket());
  }
}
