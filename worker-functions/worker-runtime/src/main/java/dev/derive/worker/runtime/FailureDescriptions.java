package dev.derive.worker.runtime;

import dev.derive.protocol.message.StepErrorTypes;
import dev.derive.storage.ObjectStoreException;
import dev.derive.worker.runtime.report.ReportNotSentException;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.IdentityHashMap;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * Turns the cause of a transient failure into a short human sentence for a step error's detail,
 * e.g. "the worker ran out of memory": never a Java class name or a stack trace (the API shows the
 * detail to its clients; the step log and the function log keep the technical cause). A failed call
 * to AWS is worded by the adapter that made it ({@link ObjectStoreException#description}, {@link
 * ReportNotSentException#description}), so this class names no AWS type.
 */
final class FailureDescriptions {
  /** A qualified or simple Java exception or error class name, with a following colon. */
  private static final Pattern CLASS_NAME =
      Pattern.compile("\\b(?:[A-Za-z_$][\\w$]*\\.)*[A-Z][\\w$]*(?:Exception|Error)\\b:?\\s*");

  /**
   * What a user must never read: a qualified Java name ({@code org.apache.tika.parser.pdf.
   * PDFParser}), an exception class's simple name, an identity hash ({@code @139696b4}), a stack
   * frame or the worker's scratch files.
   */
  static final Pattern JAVA_INTERNALS =
      Pattern.compile(
          "\\b[a-z][a-z0-9_]*(?:\\.[a-z0-9_]+)+\\.[A-Z][\\w$]*"
              + "|\\b[A-Z][\\w$]*(?:Exception|Error)\\b"
              + "|@[0-9a-f]{6,}\\b"
              + "|\\bat [\\w$.]+\\("
              + "|/tmp/|derive-step-|\\binput\\.tmp\\b");

  private static final int MAX_MESSAGE_CHARS = 200;

  private FailureDescriptions() {}

  /**
   * The first {@link VirtualMachineError} (out of memory, stack overflow …) in {@code failure}'s
   * cause chain, or {@code null}: a failure with one is the worker's, whatever wraps it.
   */
  static VirtualMachineError virtualMachineError(Throwable failure) {
    Map<Throwable, Boolean> seen = new IdentityHashMap<>();
    for (Throwable t = failure; t != null && seen.put(t, Boolean.TRUE) == null; t = t.getCause()) {
      if (t instanceof VirtualMachineError error) {
        return error;
      }
    }
    return null;
  }

  /** A human sentence (no leading capital, no full stop) saying what went wrong. */
  static String describe(Throwable failure) {
    VirtualMachineError vm = virtualMachineError(failure);
    if (vm instanceof OutOfMemoryError) {
      return "the worker ran out of memory";
    }
    if (vm instanceof StackOverflowError) {
      return "the worker ran out of stack space (the input may be nested too deeply)";
    }
    if (vm != null) {
      return "the worker's Java virtual machine failed";
    }
    if (failure instanceof ObjectStoreException store) {
      if (store.description() != null) {
        return store.description(); // the adapter's words for the service's answer
      }
      if (store.getCause() != null) {
        return describe(store.getCause()); // the store's own answer says more than "failed"
      }
    }
    if (failure instanceof ReportNotSentException report) {
      return report.description();
    }
    if (failure instanceof DeadlineExceededException) {
      return "the step did not finish in the time its invocation had left (earlier steps of the"
          + " batch used the rest)";
    }
    if (failure instanceof InterruptedIOException) {
      return "the worker was interrupted";
    }
    String message = message(failure);
    if (failure instanceof IOException) {
      return "a local input/output error" + (message == null ? "" : ": " + message);
    }
    return "an unexpected error in the worker" + (message == null ? "" : ": " + message);
  }

  /**
   * The detail of a reported error as a user may read it: {@code detail} itself, or, when a
   * capability let a library's text into it (a class name, an identity hash, a temp path), only the
   * sentence before that text's first colon-separated part, else a sentence for {@code type}. The
   * caller logs the original.
   */
  static String forUser(String type, String detail) {
    if (detail == null || detail.isBlank()) {
      return generic(type);
    }
    java.util.regex.Matcher internals = JAVA_INTERNALS.matcher(detail);
    if (!internals.find()) {
      return detail;
    }
    String before = detail.substring(0, internals.start());
    int colon = before.indexOf(": ");
    String sentence = colon < 0 ? "" : before.substring(0, colon).trim();
    return sentence.length() < 8 ? generic(type) : sentence;
  }

  /** A sentence for an error of {@code type} whose own detail cannot be shown. */
  private static String generic(String type) {
    return switch (type == null ? "" : type) {
      case StepErrorTypes.CORRUPT_INPUT -> "the input is damaged or cut short and cannot be read";
      case StepErrorTypes.UNSUPPORTED_INPUT ->
          "the input uses a format or a feature this capability does not read";
      case StepErrorTypes.PASSWORD_REQUIRED -> "the input is protected by a password";
      case StepErrorTypes.INPUT_TOO_LARGE -> "the input is larger than this capability accepts";
      case StepErrorTypes.OUTPUT_TOO_LARGE -> "the result would be larger than the limit";
      case StepErrorTypes.INVALID_STEP -> "the step's operations or parameters are not valid";
      default -> "the step failed";
    };
  }

  /** The first line of the failure's message without class names, shortened; null if none. */
  private static String message(Throwable failure) {
    String message = failure.getMessage();
    if (message == null) {
      return null;
    }
    String line = CLASS_NAME.matcher(message.lines().findFirst().orElse("")).replaceAll("").trim();
    java.util.regex.Matcher internals = JAVA_INTERNALS.matcher(line);
    if (internals.find()) {
      line = line.substring(0, internals.start()).trim();
    }
    if (line.isEmpty()) {
      return null;
    }
    return line.length() <= MAX_MESSAGE_CHARS ? line : line.substring(0, MAX_MESSAGE_CHARS) + "…";
  }
}
