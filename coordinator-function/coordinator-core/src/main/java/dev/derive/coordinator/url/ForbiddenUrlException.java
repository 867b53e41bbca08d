package dev.derive.coordinator.url;

import dev.derive.coordinator.CoordinatorException;

/**
 * Thrown when an image URL may not be served: its signature is missing or wrong ({@link
 * #INVALID_SIGNATURE}), it has expired ({@link #EXPIRED}), or the preset it was signed for has
 * changed since ({@link #PRESET_CHANGED}). Answered 403; the message never says what the right
 * signature or digest would be.
 */
public class ForbiddenUrlException extends CoordinatorException {
  /** The signature does not verify under any key in force. */
  public static final String INVALID_SIGNATURE = "invalid-signature";

  /** The URL's {@code exp:} time has passed. */
  public static final String EXPIRED = "expired-url";

  /** The preset the URL names ({@code pr:name:digest}) has another definition now. */
  public static final String PRESET_CHANGED = "preset-changed";

  /**
   * @param kind {@link #INVALID_SIGNATURE}, {@link #EXPIRED} or {@link #PRESET_CHANGED}
   */
  public ForbiddenUrlException(String kind, String message) {
    super(kind, message);
  }
}
