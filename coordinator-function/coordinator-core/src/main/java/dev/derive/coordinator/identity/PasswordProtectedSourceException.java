package dev.derive.coordinator.identity;

import dev.derive.coordinator.CoordinatorException;
import dev.derive.protocol.message.StepErrorTypes;

/**
 * Thrown when the source is a password-protected Office document (an encrypted OOXML package, which
 * Tika calls {@code application/x-tika-ooxml-protected}): no capability can read it without the
 * password, so it is answered as an encrypted PDF's step ends, {@code password-required}.
 */
public class PasswordProtectedSourceException extends CoordinatorException {
  /** The stable error kind: the step error type an encrypted PDF fails with. */
  public static final String KIND = StepErrorTypes.PASSWORD_REQUIRED;

  /** Names the source. */
  public PasswordProtectedSourceException(String key) {
    super(
        KIND,
        "the source object '"
            + key
            + "' is a password-protected Office document; remove the password (save it"
            + " unprotected) and upload it again");
  }
}
