package dev.derive.protocol.message;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;

/**
 * JSON encoding of the SQS message bodies ({@link StepMessage}, {@link StepResult}). Unknown fields
 * are rejected so that a sender and a receiver of different versions fail loudly.
 */
public final class MessageCodec {
  private static final ObjectMapper MAPPER =
      JsonMapper.builder().enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES).build();

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
