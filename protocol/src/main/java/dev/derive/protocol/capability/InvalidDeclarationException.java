package dev.derive.protocol.capability;

/**
 * A capability declaration that cannot be read or breaks a rule of declarations (an unknown field,
 * a default out of its own range, two declarations of one name, two capabilities disagreeing on a
 * shared target option …). Thrown when the declarations are loaded, so a coordinator or worker with
 * a broken declaration does not start.
 */
public final class InvalidDeclarationException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  /**
   * @param origin where the declaration came from (a file or class path resource)
   * @param detail what is wrong, naming the member
   */
  public InvalidDeclarationException(String origin, String detail) {
    super(origin + ": " + detail);
  }

  /** As {@link #InvalidDeclarationException(String, String)}, with the cause. */
  public InvalidDeclarationException(String origin, String detail, Throwable cause) {
    super(origin + ": " + detail, cause);
  }
}
