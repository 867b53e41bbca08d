package dev.derive.coordinator.completion;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One callback to deliver, as a message of the callback queue: where to, and the exact body to POST
 * (fixed when enqueued, so every attempt signs and sends the same bytes).
 *
 * @param id the delivery id ({@link Callback#id})
 * @param url the receiver
 * @param body the JSON body: {@code {"id", "type", "eventId", "request", "detail"}} ({@code
 *     docs/completion-events.md})
 */
public record CallbackDelivery(String id, String url, String body) {
  private static final ObjectMapper JSON = JsonMapper.builder().build();

  /** The delivery of {@code event} to {@code callback}. */
  public static CallbackDelivery of(Callback callback, CompletionEvent event) {
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("id", callback.id());
    body.put("type", event.detailType());
    body.put("eventId", event.eventId());
    body.put("request", callback.request());
    body.put("detail", event.detail());
    return new CallbackDelivery(callback.id(), callback.url(), CompletionEvent.json(body));
  }

  /**
   * The derivative and execution this delivery tells of, for correlating log lines: the body's
   * {@code detail.fingerprint}, and the execution from its {@code eventId} ({@code
   * <fingerprint>:<executionId>}; none for a cache hit, which ended no execution). Empty values
   * when the body does not say.
   */
  public Subject subject() {
    try {
      JsonNode node = JSON.readTree(body);
      String fingerprint = node.path("detail").path("fingerprint").asText(null);
      String eventId = node.path("eventId").asText("");
      int colon = eventId.indexOf(':');
      String execution = colon > 0 ? eventId.substring(colon + 1) : null;
      return new Subject(fingerprint, execution);
    } catch (JsonProcessingException e) {
      return new Subject(null, null);
    }
  }

  /**
   * What a delivery tells of.
   *
   * @param fingerprint the derivative's fingerprint (the job id), or null
   * @param executionId the execution that ended, or null
   */
  public record Subject(String fingerprint, String executionId) {}

  /** This delivery as a queue message. */
  public String encode() {
    Map<String, Object> message = new LinkedHashMap<>();
    message.put("id", id);
    message.put("url", url);
    message.put("body", body);
    return CompletionEvent.json(message);
  }

  /**
   * A delivery from its queue message.
   *
   * @throws IllegalArgumentException if the message is not one
   */
  public static CallbackDelivery decode(String message) {
    try {
      JsonNode node = JSON.readTree(message);
      if (node == null
          || !node.path("id").isTextual()
          || !node.path("url").isTextual()
          || !node.path("body").isTextual()) {
        throw new IllegalArgumentException("not a callback delivery: needs id, url and body");
      }
      return new CallbackDelivery(
          node.get("id").asText(), node.get("url").asText(), node.get("body").asText());
    } catch (JsonProcessingException e) {
      throw new IllegalArgumentException("not a callback delivery: " + e.getOriginalMessage(), e);
    }
  }
}
