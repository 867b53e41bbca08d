package dev.derive.infra.local.template;

/** Thrown when a template cannot be read or a value in it cannot be resolved; says where. */
public class TemplateException extends RuntimeException {
  /** An error described by {@code message}. */
  public TemplateException(String message) {
    super(message);
  }

  /** An error described by {@code message}, caused by {@code cause}. */
  public TemplateException(String message, Throwable cause) {
    super(message, cause);
  }
}
