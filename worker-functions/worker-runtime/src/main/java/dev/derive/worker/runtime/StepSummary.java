package dev.derive.worker.runtime;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import dev.derive.protocol.message.ObjectRef;
import dev.derive.protocol.message.StepResult;
import dev.derive.storage.ObjectStore;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

/**
 * The summary a step's success carries when one of its operations declares {@code "summary": true}:
 * its output, a JSON object of at most {@link StepResult#MAX_SUMMARY_BYTES}, read back from the
 * local output or, when the output already existed (a redelivery), from the bucket. A summary is
 * information, not the step's work: an output too large, not a JSON object or not readable gives no
 * summary (logged), never a failed step.
 */
final class StepSummary {
  private static final System.Logger LOG = System.getLogger(StepSummary.class.getName());
  private static final ObjectMapper JSON = JsonMapper.builder().build();

  private StepSummary() {}

  /** Whether {@code step} reports a summary. */
  static boolean declared(DeclaredStep step) {
    return step.operations().stream().anyMatch(Parameters::summarises);
  }

  /** The summary of {@code step} whose output was written to {@code output}; {@code null}: none. */
  static Map<String, Object> ofWritten(DeclaredStep step, Path output) {
    if (!declared(step)) {
      return null;
    }
    try {
      if (Files.size(output) > StepResult.MAX_SUMMARY_BYTES) {
        LOG.log(
            System.Logger.Level.WARNING,
            "no summary of "
                + step
                + ": its output is over "
                + StepResult.MAX_SUMMARY_BYTES
                + " B");
        return null;
      }
      return JSON.readValue(output.toFile(), new TypeReference<Map<String, Object>>() {});
    } catch (IOException | RuntimeException e) {
      LOG.log(System.Logger.Level.WARNING, "no summary of " + step + ": " + e.getMessage());
      return null;
    }
  }

  /**
   * The summary of {@code step} whose output {@code existing} was already in the bucket, downloaded
   * into {@code scratch} (an empty file); {@code null}: none.
   */
  static Map<String, Object> ofExisting(
      DeclaredStep step, ObjectStore store, ObjectRef existing, Path scratch) {
    if (!declared(step)) {
      return null;
    }
    try {
      store.download(existing, null, scratch, StepResult.MAX_SUMMARY_BYTES);
    } catch (IOException | RuntimeException e) {
      LOG.log(System.Logger.Level.WARNING, "no summary of " + step + ": " + e.getMessage());
      return null;
    }
    return ofWritten(step, scratch);
  }
}
