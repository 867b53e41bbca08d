package dev.derive.infra.local.sqs;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.util.LinkedHashSet;
import java.util.Set;

/**
 * Reads a partial batch response ({@code {"batchItemFailures":[{"itemIdentifier":"<messageId>"}]}})
 * with Lambda's rules: an empty or null response, or an empty list, means every message succeeded;
 * a response that is not such a document, or names an identifier that is empty or not in the batch,
 * fails the whole batch. See
 * https://docs.aws.amazon.com/lambda/latest/dg/services-sqs-errorhandling.html.
 */
public final class BatchItemFailures {
  private static final ObjectMapper JSON = new ObjectMapper();

  private BatchItemFailures() {}

  /**
   * The message ids to keep on the queue.
   *
   * @param response the function's response payload
   * @param batch the message ids of the batch
   * @return the ids that failed ({@code batch} itself when the whole batch fails)
   */
  public static Set<String> failedIds(byte[] response, Set<String> batch) {
    if (response == null || response.length == 0) {
      return Set.of();
    }
    JsonNode document;
    try {
      document = JSON.readTree(response);
    } catch (IOException invalid) {
      return batch;
    }
    if (document == null || document.isNull() || document.isMissingNode()) {
      return Set.of();
    }
    if (!document.isObject()) {
      return batch;
    }
    JsonNode failures = document.get("batchItemFailures");
    if (failures == null || failures.isNull()) {
      return Set.of();
    }
    if (!failures.isArray()) {
      return batch;
    }
    Set<String> failed = new LinkedHashSet<>();
    for (JsonNode failure : failures) {
      JsonNode id = failure.get("itemIdentifier");
      if (id == null || !id.isTextual() || id.asText().isEmpty() || !batch.contains(id.asText())) {
        return batch;
      }
      failed.add(id.asText());
    }
    return failed;
  }
}
