package dev.derive.protocol.message;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;

/**
 * JSON encoding of the SQS message bodies ({@link StepMessage}, {@link StepResult}), a tolerant
 * reader: functions are updated one by one in a deploy, so a receiver reads the messages of older
 * and newer senders alike. A field it does not know is ignored, a field an older sender did not
 * write reads as its default ({@code null}, 0, false; each record says what that means), and only
 * what no version can do without (the job, the step, the capability, the objects) is required. The
 * rule for senders that keeps this safe, so the messages carry no version number: fields are only
 * added, never renamed or given a new meaning, and a new enum constant is advisory (a receiver that
 * does not know it drops the message as malformed). {@code docs/job-lifecycle.md}, "Messages".
 */
public final class MessageCodec {
  private static final ObjectMapper MAPPER =
      JsonMapper.builder().disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES).build();

  private MessageCodec() {}

  /** Encodes a message as a JSON string (an SQS body holds at most 1 MiB; ours are < 4 KiB). */
  public static String encode(Object message) {
    try {
      return MAPPER.writeValueAsString(message);
    } catch (JsonProcessingException e) {
      throw new IllegalArgumentException("cannot encode " + message.getClass().getSimpleName(), e);
    }
  }

  /**
   * Decodes a JSON message body.
   *
   * @throws MalformedMessageException if the body is not valid JSON of that type
   */
  public static <T> T decode(String body, Class<T> type) {
    try {
      T value = MAPPER.readValue(body, type);
      if (value == null) {
        throw new MalformedMessageException("empty " + type.getSimpleName() + " body", null);
      }
      return value;
    } catch (JsonProcessingException | RuntimeException e) {
      if (e instanceof MalformedMessageException m) {
        throw m;
      }
      throw new MalformedMessageException(
          "not a valid " + type.getSimpleName() + ": " + e.getMessage(), e);
    }
  }
}
