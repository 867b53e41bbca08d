package dev.derive.coordinator.aws;

import dev.derive.coordinator.completion.CompletionEvent;
import dev.derive.coordinator.completion.CompletionPublishException;
import dev.derive.coordinator.completion.CompletionPublisher;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.eventbridge.EventBridgeClient;
import software.amazon.awssdk.services.eventbridge.model.PutEventsRequestEntry;
import software.amazon.awssdk.services.eventbridge.model.PutEventsResponse;

/**
 * Publishes completion events with {@code PutEvents} on the bus named by {@code EVENT_BUS_NAME}
 * (one entry per call; a failed entry, reported in the response rather than thrown, is thrown here
 * as well).
 */
public final class EventBridgeCompletionPublisher implements CompletionPublisher {
  private final EventBridgeClient events;
  private final String busName;

  /** Publishes on bus {@code busName} (a name or ARN). */
  public EventBridgeCompletionPublisher(EventBridgeClient events, String busName) {
    this.events = events;
    this.busName = busName;
  }

  @Override
  public void publish(CompletionEvent event) {
    PutEventsResponse response;
    try {
      response =
          events.putEvents(
              b ->
                  b.entries(
                      PutEventsRequestEntry.builder()
                          .eventBusName(busName)
                          .source(CompletionEvent.SOURCE)
                          .detailType(event.detailType())
                          .detail(event.detailJson())
                          .build()));
    } catch (SdkException e) {
      throw new CompletionPublishException(
          "PutEvents of " + event.eventId() + " on bus " + busName + " failed", e);
    }
    if (response.failedEntryCount() != null && response.failedEntryCount() > 0) {
      var entry = response.entries().get(0);
      throw new CompletionPublishException(
          "bus "
              + busName
              + " refused "
              + event.eventId()
              + ": "
              + entry.errorCode()
              + " "
              + entry.errorMessage(),
          null);
    }
  }
}
