package dev.derive.coordinator.identity;

import dev.derive.coordinator.CoordinatorException;
import java.util.Collection;

/** Thrown when the source's content is not a media type any capability reads. */
public class UnsupportedMediaTypeException extends CoordinatorException {
  /** The stable error kind. */
  public static final String KIND = "unsupported-media-type";

  /** Lists the media types Derive reads. */
  public UnsupportedMediaTypeException(String key, Collection<String> supported) {
    this(
        "the content of source object '"
            + key
            + "' is not a supported media type; supported: "
            + String.join(", ", supported));
  }

  private UnsupportedMediaTypeException(String message) {
    super(KIND, message);
  }

  /**
   * The source's bytes are of a kind Derive reads only when told more, as {@code reason} says (a
   * ZIP package whose name does not say which document it is).
   */
  public static UnsupportedMediaTypeException because(String key, String reason) {
    return new UnsupportedMediaTypeException(
        "the content of source object '" + key + "' is not a supported media type: " + reason);
  }

  /**
   * The source has no bytes at all: no content to identify, whatever its name says (a key ending in
   * {@code .jpg} is not a JPEG), and nothing to make a derivative of.
   */
  public static UnsupportedMediaTypeException empty(String key) {
    return new UnsupportedMediaTypeException(
        "source object '" + key + "' is empty (0 bytes): there is nothing to make a derivative of");
  }
}
