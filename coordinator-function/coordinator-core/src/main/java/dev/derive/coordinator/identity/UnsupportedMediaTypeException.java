package dev.derive.coordinator.identity;

import dev.derive.coordinator.CoordinatorException;
import java.util.Collection;

/** Thrown when the source's content is not a media type any capability reads. */
public class UnsupportedMediaTypeException extends CoordinatorException {
  /** The stable error kind. */
  public static final String KIND = "unsupported-media-type";

  /** Lists the media types Derive reads. */
  public UnsupportedMediaTypeException(String key, Collection<String> supported) {
    super(
        KIND,
        "the content of source object '"
            + key
            + "' is not a supported media type; supported: "
            + String.join(", ", supported));
  }
}
