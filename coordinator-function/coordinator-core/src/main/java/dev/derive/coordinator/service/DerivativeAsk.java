package dev.derive.coordinator.service;

import com.fasterxml.jackson.databind.JsonNode;
import dev.derive.coordinator.url.ImageUrl;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * A request for a derivative as one of Derive's entry points receives it, before preset expansion
 * and validation ({@link FrontDoor#answer}).
 */
public sealed interface DerivativeAsk {
  /** Id correlating the logs of the request's job. */
  String traceId();

  /**
   * A {@code POST /v1/derivatives} body: a target, steps or a preset, with its own {@code wait} and
   * {@code callback}.
   */
  record Json(JsonNode body, String traceId) implements DerivativeAsk {
    public Json {
      Objects.requireNonNull(body, "body");
    }
  }

  /**
   * Preset {@code preset} of source {@code sourceKey} (no version: the current one), made at once
   * and not waited for (an upload's presets).
   */
  record Preset(String sourceKey, String preset, String traceId) implements DerivativeAsk {}

  /**
   * An image URL's options, waited for up to {@code maxWait}.
   *
   * @param autoMediaType the format {@code f:auto} negotiated from {@code Accept}
   * @param hintedDpr the device pixel ratio a client hint gave, if any
   */
  record Url(
      ImageUrl url,
      String autoMediaType,
      Optional<String> hintedDpr,
      Duration maxWait,
      String traceId)
      implements DerivativeAsk {}
}
