package dev.derive.infra.local.resources;

/** Thrown when a template resource cannot be created on the AWS endpoint. */
public class ResourceProvisioningException extends RuntimeException {
  /** An error described by {@code message}, caused by {@code cause}. */
  public ResourceProvisioningException(String message, Throwable cause) {
    super(message, cause);
  }

  /** An error described by {@code message}. */
  public ResourceProvisioningException(String message) {
    super(message);
  }
}
