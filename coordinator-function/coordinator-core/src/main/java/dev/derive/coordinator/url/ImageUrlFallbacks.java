package dev.derive.coordinator.url;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.derive.coordinator.memory.LeastRecentlyUsed;
import dev.derive.protocol.capability.CapabilityDescriptor;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.Locale;
import java.util.Optional;
import java.util.function.Function;

/**
 * What an image URL answers with instead of a problem, so an {@code <img>} never shows a broken
 * image (issue 29 part 3; docs/image-urls.md): while its derivative is still being made past the
 * wait, a placeholder drawn from the source's ThumbHash (the source's placeholder derivative a
 * capability declares, {@link CapabilityDescriptor.Placeholder}, when it has been made), else the
 * fallback image; when it failed, the fallback image.
 */
public final class ImageUrlFallbacks {
  private static final System.Logger LOG = System.getLogger(ImageUrlFallbacks.class.getName());
  private static final ObjectMapper JSON = new ObjectMapper();

  /** The largest placeholder document read: 64 KiB (an info document is under 2 KB). */
  public static final int MAX_DOCUMENT_BYTES = 64 * 1024;

  /** What a URL still being made answers with ({@code IMAGE_URL_PLACEHOLDER}). */
  public enum Placeholders {
    /** The source's ThumbHash when its placeholder derivative is made, else the fallback image. */
    THUMBHASH,
    /** The fallback image. */
    FALLBACK,
    /** No image: 503 problem+json, as for a client asking for JSON. */
    NONE;

    /**
     * The setting's value ({@code thumbhash}, {@code fallback} or {@code none}).
     *
     * @throws IllegalArgumentException for any other
     */
    public static Placeholders of(String setting) {
      try {
        return valueOf(setting.trim().toUpperCase(Locale.ROOT));
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException(
            "IMAGE_URL_PLACEHOLDER must be thumbhash, fallback or none, got " + setting);
      }
    }
  }

  /**
   * How long a ThumbHash placeholder drawn for a source key is answered again without reading the
   * source and its placeholder derivative anew: a browser asks again after {@code Retry-After} (2
   * s) until the derivative is made, and each read costs a HEAD of the source and a GET of the
   * document. A source replaced within it keeps its old placeholder that long (a blur of the
   * picture before; the derivative itself is the new source's). A source without a placeholder is
   * not remembered, so one whose placeholder derivative is being made gets it as soon as it is.
   */
  public static final Duration DRAWN_MEMORY = Duration.ofSeconds(10);

  /** Source keys whose drawn placeholder is remembered at most (a few KB each). */
  static final int DRAWN_CAPACITY = 1_000;

  private record Drawn(Picture picture, Instant until) {}

  private final Placeholders placeholders;
  private final Optional<FallbackImage> fallback;
  private final Optional<CapabilityDescriptor.Placeholder> declared;
  private final Function<ObjectNode, Optional<byte[]>> made;
  private final Clock clock;
  private final LeastRecentlyUsed<String, Drawn> drawn = new LeastRecentlyUsed<>(DRAWN_CAPACITY);

  /**
   * @param placeholders what a URL still being made answers with
   * @param fallback the fallback image, if the deployment has one
   * @param declared the placeholder derivative the capabilities declare, if any
   * @param made the bytes of the derivative a {@code POST /v1/derivatives} body asks for, when made
   *     (never starts a job)
   * @param clock what {@link #DRAWN_MEMORY} is counted by
   */
  public ImageUrlFallbacks(
      Placeholders placeholders,
      Optional<FallbackImage> fallback,
      Optional<CapabilityDescriptor.Placeholder> declared,
      Function<ObjectNode, Optional<byte[]>> made,
      Clock clock) {
    this.placeholders = placeholders;
    this.fallback = fallback;
    this.declared = declared;
    this.made = made;
    this.clock = clock;
  }

  /** Fallbacks that answer nothing: every answer stays a problem. */
  public static ImageUrlFallbacks none() {
    return new ImageUrlFallbacks(
        Placeholders.NONE,
        Optional.empty(),
        Optional.empty(),
        body -> Optional.empty(),
        Clock.systemUTC());
  }

  /**
   * Whether a client with this {@code Accept} header ({@code null} when absent) asked for JSON,
   * naming {@code application/problem+json} or {@code application/json} with a {@code q} above 0:
   * it keeps the problems, never a picture.
   */
  public static boolean asksForJson(String accept) {
    return FormatNegotiation.accepts(accept, "application/problem+json")
        || FormatNegotiation.accepts(accept, "application/json");
  }

  /** The placeholder of a URL of source {@code key} whose derivative is still being made. */
  public Optional<Picture> placeholder(String key) {
    if (placeholders == Placeholders.NONE) {
      return Optional.empty();
    }
    if (placeholders == Placeholders.THUMBHASH && declared.isPresent()) {
      Instant now = clock.instant();
      Drawn known = drawn.get(key);
      if (known != null && now.isBefore(known.until())) {
        return Optional.of(known.picture());
      }
      Optional<Picture> picture = thumbHash(key, declared.get());
      if (picture.isPresent()) {
        drawn.put(key, new Drawn(picture.get(), now.plus(DRAWN_MEMORY)));
        return picture;
      }
    }
    return failed();
  }

  /** The answer of a URL whose derivative failed: the fallback image, if any. */
  public Optional<Picture> failed() {
    return fallback.flatMap(FallbackImage::picture);
  }

  private Optional<Picture> thumbHash(String key, CapabilityDescriptor.Placeholder placeholder) {
    ObjectNode body = JSON.createObjectNode();
    body.putObject("source").put("key", key);
    body.putObject("target").put("mediaType", placeholder.mediaType());
    try {
      Optional<byte[]> document = made.apply(body);
      if (document.isEmpty()) {
        return Optional.empty();
      }
      JsonNode hash = JSON.readTree(document.get()).at(placeholder.thumbHash());
      if (!hash.isTextual()) {
        return Optional.empty();
      }
      ThumbHashPicture picture = ThumbHashPicture.decode(Base64.getDecoder().decode(hash.asText()));
      return Optional.of(
          new Picture(
              PngPicture.encode(picture.width(), picture.height(), picture.rgba()),
              PngPicture.MEDIA_TYPE,
              Picture.THUMBHASH));
    } catch (java.io.IOException | RuntimeException e) {
      // no placeholder is no worse than before: the caller answers with the fallback or the 503
      LOG.log(
          System.Logger.Level.WARNING,
          () -> "no ThumbHash placeholder for " + key + " (" + e.getMessage() + ")");
      return Optional.empty();
    }
  }
}
