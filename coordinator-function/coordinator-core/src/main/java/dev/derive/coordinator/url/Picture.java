package dev.derive.coordinator.url;

/**
 * An image the API answers an image URL with itself, in place of a redirect: a placeholder or the
 * fallback image (docs/image-urls.md).
 *
 * @param bytes the encoded image
 * @param mediaType its media type
 * @param kind where it comes from: {@value #THUMBHASH} or {@value #FALLBACK}
 */
public record Picture(byte[] bytes, String mediaType, String kind) {
  /** A picture decoded from the source's ThumbHash. */
  public static final String THUMBHASH = "thumbhash";

  /** The deployment's fallback image. */
  public static final String FALLBACK = "fallback";
}
