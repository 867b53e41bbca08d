package dev.derive.coordinator.url;

import dev.derive.coordinator.CoordinatorException;

/**
 * Thrown when an image URL may not be served: its signature is missing or wrong ({@link
 * #INVALID_SIGNATURE}), or it has expired ({@link #EXPIRED}). Answered 403; the message never says
 * what the right signature would be.
 */
public class ForbiddenUrlException extends CoordinatorException {
  /** The signature does not verify under any key in force. */
  public static final String INVALID_SIGNATURE = "invalid-signature";

  /** The URL's {@code exp:} time has passed. */
  public static final String EXPIRED = "expired-url";

  /**
   * @param kind {@link #INVALID_SIGNATURE} or {@link #EXPIRED}
   */
  public ForbiddenUrlException(String kind, String message) {
    super(kind, message);
  }
}
