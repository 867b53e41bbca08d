package dev.derive.coordinator.trace;

import java.util.Optional;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The trace id of a request: the id the client sent, so its own logs and Derive's lines of the job
 * share it, else a new random one. Looked for, in order, in {@value #REQUEST_ID} (any id the client
 * chose), {@value #TRACEPARENT} (W3C Trace Context: its 32-hex trace id) and {@value
 * #AMZN_TRACE_ID} (X-Ray: its {@code Root}). A value that is longer than {@value #MAX_LENGTH}
 * characters or holds characters outside letters, digits and {@code . _ : - = / +} is ignored, so
 * no client can put line breaks or markup into Derive's logs.
 */
public final class ClientTraceId {
  /** A request id header many proxies and clients set. */
  public static final String REQUEST_ID = "X-Request-Id";

  /** W3C Trace Context: {@code version-traceid-parentid-flags}. */
  public static final String TRACEPARENT = "traceparent";

  /** X-Ray's header: {@code Root=1-…;Parent=…;Sampled=1}. */
  public static final String AMZN_TRACE_ID = "X-Amzn-Trace-Id";

  /** The longest id taken from a client. */
  public static final int MAX_LENGTH = 128;

  private static final Pattern SAFE = Pattern.compile("[A-Za-z0-9._:=/+-]{1," + MAX_LENGTH + "}");
  private static final Pattern W3C = Pattern.compile("[0-9a-f]{2}-([0-9a-f]{32})-[0-9a-f]{16}-.*");
  private static final Pattern XRAY_ROOT = Pattern.compile("(?:^|;)\\s*Root=([^;\\s]+)");

  private ClientTraceId() {}

  /**
   * The request's trace id.
   *
   * @param requestId the {@value #REQUEST_ID} header, or {@code null}
   * @param traceparent the {@value #TRACEPARENT} header, or {@code null}
   * @param amznTraceId the {@value #AMZN_TRACE_ID} header, or {@code null}
   * @return the first usable id, else a random UUID
   */
  public static String of(String requestId, String traceparent, String amznTraceId) {
    return safe(requestId)
        .or(() -> group(W3C, traceparent))
        .or(() -> group(XRAY_ROOT, amznTraceId))
        .orElseGet(() -> UUID.randomUUID().toString());
  }

  private static Optional<String> group(Pattern pattern, String header) {
    if (header == null) {
      return Optional.empty();
    }
    Matcher m = pattern.matcher(header.trim());
    return m.find() ? safe(m.group(1)) : Optional.empty();
  }

  private static Optional<String> safe(String value) {
    if (value == null) {
      return Optional.empty();
    }
    String trimmed = value.trim();
    return SAFE.matcher(trimmed).matches() ? Optional.of(trimmed) : Optional.empty();
  }
}
