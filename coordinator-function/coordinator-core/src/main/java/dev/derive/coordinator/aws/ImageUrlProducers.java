package dev.derive.coordinator.aws;

import dev.derive.aws.s3.S3ObjectStore;
import dev.derive.coordinator.config.CoordinatorConfig;
import dev.derive.coordinator.identity.TikaMediaTypeDetector;
import dev.derive.coordinator.preset.PresetCatalogue;
import dev.derive.coordinator.preset.PresetSource;
import dev.derive.coordinator.service.DerivativeService;
import dev.derive.coordinator.url.FallbackImage;
import dev.derive.coordinator.url.ImageUrlFallbacks;
import dev.derive.coordinator.url.SigningKeySource;
import dev.derive.coordinator.url.UrlOptions;
import dev.derive.coordinator.url.UrlSigningKeys;
import dev.derive.coordinator.validate.RequestValidator;
import jakarta.enterprise.context.Dependent;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;
import java.time.Clock;
import java.time.Duration;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;

/**
 * The composition root's parts for presets and image URLs ({@link CoordinatorProducers} has the
 * rest).
 */
@Dependent
public class ImageUrlProducers {

  /** How long the signing keys read from their secret are used before it is read again: 300 s. */
  public static final Duration SIGNING_KEYS_TTL = Duration.ofSeconds(300);

  /** How long the fallback image is served before its object is looked at again: 60 s. */
  public static final Duration FALLBACK_IMAGE_TTL = Duration.ofSeconds(60);

  /**
   * The presets in force: the document {@code PRESETS_LOCATION} names ({@code ssm:<name>}, {@code
   * s3://<bucket>/<key>} or {@code file:<path>}), re-read every {@code PRESETS_TTL_SECONDS}, or the
   * built-in presets when it is unset; validated by the same validator as requests.
   *
   * @throws dev.derive.coordinator.preset.InvalidPresetsException if the document is invalid
   * @throws IllegalArgumentException if the location has another form
   */
  @Produces
  @Singleton
  public PresetCatalogue presetCatalogue(
      CoordinatorConfig config, CoordinatorClients clients, RequestValidator validator) {
    PresetSource source =
        config
            .presets()
            .location()
            .map(location -> PresetLocations.of(location, clients::ssm, clients::s3))
            .orElse(null);
    return new PresetCatalogue(source, validator, config.presets().ttl(), Clock.systemUTC());
  }

  /** The image URL options and formats the deployed capabilities declare. */
  @Produces
  @Singleton
  public UrlOptions urlOptions(RequestValidator validator) {
    return UrlOptions.of(validator.capabilities());
  }

  /**
   * The keys image URLs are signed with: the Secrets Manager secret {@code URL_SIGNING_SECRET}
   * names (re-read every 300 s, so a rotation needs no deployment), else the keys given in {@code
   * URL_SIGNING_KEYS} (local work), else none, and then no image URL is served.
   *
   * @throws IllegalArgumentException if a key is malformed
   */
  @Produces
  @Singleton
  public SigningKeySource signingKeys(CoordinatorConfig config, CoordinatorClients clients) {
    CoordinatorConfig.ImageUrls urls = config.imageUrls();
    if (urls.signingSecret().isPresent()) {
      return SecretsManagerSigningKeys.fromSecret(
          clients.secretsManager(),
          urls.signingSecret().get(),
          SIGNING_KEYS_TTL,
          Clock.systemUTC());
    }
    return SigningKeySource.fixed(
        urls.signingKeys().map(UrlSigningKeys::parse).orElse(UrlSigningKeys.none()));
  }

  /**
   * What image URLs answer instead of a problem (docs/image-urls.md): placeholders as {@code
   * IMAGE_URL_PLACEHOLDER} says ({@code thumbhash}, the default; {@code fallback}; {@code none}),
   * drawn from the derivatives {@code service} has made for {@code validator}'s requests, and the
   * fallback image {@code IMAGE_URL_FALLBACK_KEY} names in the source bucket, if any.
   *
   * @throws IllegalArgumentException if {@code IMAGE_URL_PLACEHOLDER} is none of those
   */
  @Produces
  @Singleton
  public ImageUrlFallbacks imageUrlFallbacks(
      CoordinatorConfig config,
      S3ObjectStore objects,
      DerivativeService service,
      RequestValidator validator) {
    Optional<FallbackImage> fallback =
        config.imageUrls().fallbackKey().map(key -> fallbackImage(config, objects, validator, key));
    return new ImageUrlFallbacks(
        config.imageUrls().placeholder(),
        fallback,
        validator.capabilities().imageUrls().map(u -> u.placeholder()),
        body -> service.madeContent(validator.validate(body), ImageUrlFallbacks.MAX_DOCUMENT_BYTES),
        java.time.Clock.systemUTC());
  }

  /**
   * The fallback image {@code key} of the source bucket: served only in a format {@code f:} names.
   */
  private static FallbackImage fallbackImage(
      CoordinatorConfig config, S3ObjectStore objects, RequestValidator validator, String key) {
    Set<String> made = Set.copyOf(validator.capabilities().formatNames().values());
    TikaMediaTypeDetector detector = new TikaMediaTypeDetector(made);
    Function<byte[], Optional<String>> identify =
        bytes -> detector.detect(bytes).filter(made::contains);
    return new FallbackImage(
        objects, config.sourceBucket(), key, FALLBACK_IMAGE_TTL, Clock.systemUTC(), identify);
  }
}
