package dev.derive.coordinator.progress;

import com.amazonaws.services.lambda.runtime.events.SQSBatchResponse;
import com.amazonaws.services.lambda.runtime.events.SQSEvent;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.derive.coordinator.onupload.UploadDerivatives;
import jakarta.enterprise.context.ApplicationScoped;

/**
 * Handles a batch from the upload-events queue, where an EventBridge rule puts the source bucket's
 * {@code Object Created} events (S3's EventBridge notification, {@code source} {@code aws.s3}; the
 * rule's pattern already chose the bucket and the key prefixes): each event's bucket and key go to
 * {@link UploadDerivatives}. A message that is no such event can never succeed, so it is logged and
 * dropped; one whose submission fails for another reason (AWS unreachable, a step not queued) is a
 * batch item failure, delivered again and, after {@code maxReceiveCount}, moved to the dead-letter
 * queue.
 */
@ApplicationScoped
public class UploadEventBatch {
  private static final System.Logger LOG = System.getLogger(UploadEventBatch.class.getName());
  private static final ObjectMapper JSON = new ObjectMapper();

  private final UploadDerivatives uploads;

  UploadEventBatch(UploadDerivatives uploads) {
    this.uploads = uploads;
  }

  /** Processes every message; returns the ids of those to be delivered again. */
  public SQSBatchResponse process(SQSEvent event) {
    return PartialBatch.process(
        event, PartialBatch.redeliveredOnException(LOG, "upload event", this::apply));
  }

  private void apply(SQSEvent.SQSMessage message) {
    JsonNode event;
    try {
      event = JSON.readTree(message.getBody() == null ? "" : message.getBody());
    } catch (JsonProcessingException e) {
      LOG.log(
          System.Logger.Level.ERROR,
          () -> "dropping upload event %s: not JSON".formatted(message.getMessageId()));
      return;
    }
    JsonNode object = event == null ? null : event.path("detail").path("object");
    String bucket = event == null ? "" : event.path("detail").path("bucket").path("name").asText();
    boolean objectCreated =
        event != null
            && "aws.s3".equals(event.path("source").asText())
            && "Object Created".equals(event.path("detail-type").asText());
    if (!objectCreated || bucket.isEmpty() || !object.path("key").isTextual()) {
      LOG.log(
          System.Logger.Level.ERROR,
          () ->
              "dropping upload event %s: not an S3 Object Created event with a bucket and a key"
                  .formatted(message.getMessageId()));
      return;
    }
    uploads.onUpload(bucket, object.path("key").asText(), message.getMessageId());
  }
}
