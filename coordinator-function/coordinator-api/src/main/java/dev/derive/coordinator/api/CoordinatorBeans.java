package dev.derive.coordinator.api;

import dev.derive.coordinator.aws.CoordinatorClients;
import dev.derive.coordinator.aws.CoordinatorFactory;
import dev.derive.coordinator.config.CoordinatorSettings;
import dev.derive.coordinator.preset.PresetCatalogue;
import dev.derive.coordinator.service.DerivativeService;
import dev.derive.coordinator.service.FrontDoor;
import dev.derive.coordinator.upload.UploadService;
import dev.derive.coordinator.url.ImageUrlFallbacks;
import dev.derive.coordinator.url.SigningKeySource;
import dev.derive.coordinator.url.UrlOptions;
import dev.derive.coordinator.validate.RequestValidator;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;
import org.eclipse.microprofile.config.Config;

/**
 * Makes the framework-free coordinator core available as CDI beans. Settings are read from Quarkus
 * config by the variable names {@code template.yaml} uses, so an environment variable overrides the
 * default in {@code application.properties}.
 */
public class CoordinatorBeans {

  /** The coordinator's settings. */
  @Produces
  @Singleton
  CoordinatorSettings settings(Config config) {
    return CoordinatorSettings.from(name -> config.getOptionalValue(name, String.class));
  }

  /** The function's one client per AWS service, shared by every part. */
  @Produces
  @Singleton
  CoordinatorClients clients(CoordinatorSettings settings) {
    return new CoordinatorClients(settings.s3PathStyle());
  }

  /** The request flow behind {@code /v1/derivatives}, wired onto AWS. */
  @Produces
  @Singleton
  DerivativeService derivativeService(CoordinatorSettings settings, CoordinatorClients clients) {
    return CoordinatorFactory.derivativeService(settings, clients);
  }

  /** The validation of {@code POST /v1/derivatives} bodies. */
  @Produces
  @Singleton
  RequestValidator requestValidator(CoordinatorSettings settings) {
    return CoordinatorFactory.requestValidator(settings);
  }

  /**
   * The presets in force ({@code PRESETS_LOCATION}, or the built-in ones), validated by the same
   * validator as requests; an invalid document stops the start-up.
   */
  @Produces
  @Singleton
  PresetCatalogue presetCatalogue(
      CoordinatorSettings settings, CoordinatorClients clients, RequestValidator validator) {
    return CoordinatorFactory.presetCatalogue(settings, clients, validator);
  }

  /** The image URL options and formats the deployed capabilities declare. */
  @Produces
  @Singleton
  UrlOptions urlOptions(RequestValidator validator) {
    return UrlOptions.of(validator.capabilities());
  }

  /** What image URLs answer instead of a problem: placeholders and the fallback image. */
  @Produces
  @Singleton
  ImageUrlFallbacks imageUrlFallbacks(
      CoordinatorSettings settings,
      CoordinatorClients clients,
      DerivativeService service,
      RequestValidator validator) {
    return CoordinatorFactory.imageUrlFallbacks(settings, clients, service, validator);
  }

  /**
   * The keys image URLs are signed with ({@code URL_SIGNING_SECRET} or {@code URL_SIGNING_KEYS}).
   */
  @Produces
  @Singleton
  SigningKeySource signingKeys(CoordinatorSettings settings, CoordinatorClients clients) {
    return CoordinatorFactory.signingKeys(settings, clients);
  }

  /**
   * The one way in of a derivative request, JSON or image URL, with the callbacks of {@code POST
   * /v1/derivatives} requests ({@code CALLBACK_QUEUE_URL}).
   */
  @Produces
  @Singleton
  FrontDoor frontDoor(
      CoordinatorSettings settings,
      CoordinatorClients clients,
      PresetCatalogue presets,
      RequestValidator validator,
      DerivativeService service) {
    return new FrontDoor(
        presets, validator, service, CoordinatorFactory.callbackRegistrar(settings, clients));
  }

  /** The presigned uploads behind {@code /v1/uploads}. */
  @Produces
  @Singleton
  UploadService uploadService(CoordinatorSettings settings, CoordinatorClients clients) {
    return CoordinatorFactory.uploadService(settings, clients);
  }
}
