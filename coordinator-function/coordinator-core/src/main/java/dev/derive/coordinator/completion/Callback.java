package dev.derive.coordinator.completion;

import java.util.Map;

/**
 * A request's wish to be called back when its derivative is done, as stored with its job.
 *
 * @param id the delivery's stable id (a random UUID given when the request registered it), sent as
 *     {@code Derive-Delivery-Id} and {@code id} on every attempt, so a receiver can dedupe
 * @param url where the signed POST goes (validated by {@link
 *     dev.derive.coordinator.validate.CallbackUrlPolicy})
 * @param request what the request asked for, echoed to the receiver: {@code preset}, {@code target}
 *     or {@code steps}, and {@code source}
 */
public record Callback(String id, String url, Map<String, Object> request) {
  public Callback {
    request = Map.copyOf(request);
  }
}
