package dev.derive.coordinator.onupload;

import dev.derive.coordinator.CoordinatorException;
import dev.derive.coordinator.dispatch.DispatchFailedException;
import dev.derive.coordinator.identity.SourceNotFoundException;
import dev.derive.coordinator.job.JobFailedException;
import dev.derive.coordinator.preset.PresetCatalogue;
import dev.derive.coordinator.service.DerivativeAnswer;
import dev.derive.coordinator.service.DerivativeAsk;
import dev.derive.coordinator.service.DerivativeService;
import dev.derive.coordinator.service.FrontDoor;
import dev.derive.coordinator.validate.RequestValidator;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Makes the configured presets of a source as soon as it is uploaded ("eager" derivatives): for
 * each preset {@link UploadPresets} gives the key, the body {@code {"source": {"key": …}, "preset":
 * …}} goes through the {@link FrontDoor} a {@code POST /v1/derivatives} with that body goes through
 * (preset expansion, {@link RequestValidator}, {@link DerivativeService#submit}: cache, claim,
 * dispatch).
 *
 * <p>The source is named by key only, with no version id, as image URLs and most JSON requests name
 * it: the derivative so gets the fingerprint those later requests compute (from the current
 * version's ETag), and they find it in the cache. It also makes repeats free: an event delivered
 * twice, or the same bytes uploaded again, has the same fingerprint, so its submission is a cache
 * hit or joins the job in flight. An event that arrives after a newer upload of the key makes the
 * newer version's derivatives, which that upload's own event then finds made.
 *
 * <p>Outcomes that no retry can change are reported and the preset skipped: the source was deleted
 * since, is too large, of an unsupported type, or no preset path leads from it to the preset's
 * target (a {@code thumb} of a text file), the preset is not defined, or an earlier identical job
 * failed permanently. A failure to reach AWS (or to queue the first step) is thrown, so the event
 * is delivered again; presets already submitted are then cache hits or joins.
 */
public final class UploadDerivatives {
  private static final System.Logger LOG = System.getLogger(UploadDerivatives.class.getName());

  private final UploadPresets uploadPresets;
  private final FrontDoor door;
  private final String sourceBucket;

  /**
   * @param sourceBucket the only bucket whose uploads are handled ({@code SOURCE_BUCKET})
   */
  public UploadDerivatives(
      UploadPresets uploadPresets,
      PresetCatalogue presets,
      RequestValidator validator,
      DerivativeService service,
      String sourceBucket) {
    this.uploadPresets = uploadPresets;
    // an upload's presets are not called back: no callback registrar
    this.door = new FrontDoor(presets, validator, service, Optional.empty());
    this.sourceBucket = sourceBucket;
  }

  /** What became of one preset of an upload. */
  public record Outcome(String preset, String jobId, String status, String skipped) {
    /** Whether the preset was submitted (made, joined or started); otherwise {@link #skipped}. */
    public boolean submitted() {
      return skipped == null;
    }

    /** {@code thumb: job <id> PENDING}, or {@code thumb: skipped, <reason>}, for the log. */
    @Override
    public String toString() {
      return preset + (submitted() ? ": job " + jobId + " " + status : ": skipped, " + skipped);
    }
  }

  /**
   * Submits the presets configured for {@code key}, uploaded to {@code bucket}.
   *
   * @param traceId id correlating the logs of the jobs this upload starts
   * @return one outcome per configured preset, in order; empty for another bucket or a key under no
   *     configured prefix
   * @throws DispatchFailedException if a first step could not be queued (retry the event)
   * @throws RuntimeException if AWS could not be reached (retry the event)
   */
  public List<Outcome> onUpload(String bucket, String key, String traceId) {
    List<Outcome> outcomes = new ArrayList<>();
    if (!sourceBucket.equals(bucket)) {
      LOG.log(
          System.Logger.Level.WARNING,
          () -> "ignoring an upload to " + bucket + ", not the source bucket");
      return outcomes;
    }
    for (String preset : uploadPresets.presetsFor(key)) {
      Outcome outcome = submit(preset, key, traceId);
      LOG.log(System.Logger.Level.INFO, () -> "upload " + key + ": " + outcome);
      outcomes.add(outcome);
    }
    return outcomes;
  }

  private Outcome submit(String preset, String key, String traceId) {
    try {
      return submitted(preset, key, traceId);
    } catch (SourceNotFoundException missing) {
      String decoded = URLDecoder.decode(key, StandardCharsets.UTF_8);
      if (!decoded.equals(key)) {
        // S3's classic notifications URL-encode keys; accept an event that does too
        return submit(preset, decoded, traceId);
      }
      return new Outcome(preset, null, null, missing.kind() + ": " + missing.getMessage());
    } catch (DispatchFailedException retryable) {
      throw retryable;
    } catch (CoordinatorException permanent) {
      return new Outcome(preset, null, null, permanent.kind() + ": " + permanent.getMessage());
    }
  }

  private Outcome submitted(String preset, String key, String traceId) {
    return switch (door.answer(new DerivativeAsk.Preset(key, preset, traceId))) {
      case DerivativeAnswer.Cached cached ->
          new Outcome(preset, cached.jobId(), "SUCCEEDED (cached)", null);
      case DerivativeAnswer.Made made ->
          new Outcome(preset, made.jobId(), made.view().status().name(), null);
      case DerivativeAnswer.Running running ->
          new Outcome(preset, running.jobId(), running.submission().status().name(), null);
      case DerivativeAnswer.Failed failed -> {
        JobFailedException permanent = failed.problem();
        yield new Outcome(preset, null, null, permanent.kind() + ": " + permanent.getMessage());
      }
    };
  }
}
