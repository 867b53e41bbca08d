package dev.derive.infra.local.lambda;

import java.nio.charset.StandardCharsets;

/** How one invocation ended: the function's response, or an error as Lambda reports it. */
public sealed interface InvocationResult {

  /** The function returned {@code payload} (the bytes its handler wrote). */
  record Success(byte[] payload) implements InvocationResult {
    /** The payload as UTF-8 text. */
    public String text() {
      return new String(payload, StandardCharsets.UTF_8);
    }
  }

  /**
   * The invocation failed.
   *
   * @param errorType e.g. the exception class the runtime reported, {@code Sandbox.Timedout},
   *     {@code Runtime.ExitError}
   * @param errorMessage a one-line description
   * @param payload the error document the runtime posted (JSON), or a synthesized one
   */
  record Failure(String errorType, String errorMessage, byte[] payload)
      implements InvocationResult {
    /** A failure whose payload is Lambda's {@code {"errorMessage","errorType"}} document. */
    public static Failure of(String errorType, String errorMessage) {
      String json =
          "{\"errorMessage\":\""
              + escape(errorMessage)
              + "\",\"errorType\":\""
              + escape(errorType)
              + "\"}";
      return new Failure(errorType, errorMessage, json.getBytes(StandardCharsets.UTF_8));
    }

    private static String escape(String text) {
      StringBuilder out = new StringBuilder();
      for (char c : text.toCharArray()) {
        switch (c) {
          case '"' -> out.append("\\\"");
          case '\\' -> out.append("\\\\");
          case '\n' -> out.append("\\n");
          case '\r' -> out.append("\\r");
          case '\t' -> out.append("\\t");
          default -> {
            if (c < 0x20) {
              out.append(String.format("\\u%04x", (int) c));
            } else {
              out.append(c);
            }
          }
        }
      }
      return out.toString();
    }
  }
}
