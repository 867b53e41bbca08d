package dev.derive.coordinator.plan;

import dev.derive.coordinator.identity.SourceIdentity;
import dev.derive.protocol.identity.Fingerprint;
import dev.derive.protocol.message.ObjectRef;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The fingerprint of a derivative: {@link Fingerprint#of} over {@code {pipelineVersion, source:
 * {bucket, key, sha256 or versionId or etag}, steps: [{capability, operations, outputMediaType}]}}.
 * The source is named by its content's SHA-256 when S3 checked one at upload, else by its version
 * (each write is a new one), and by its ETag only in a bucket without versions: an ETag is an MD5,
 * which two different contents can share, so two uploads with one MD5 never share a fingerprint
 * where there is a version or a checksum. Two requests that mean the same bytes get the same
 * fingerprint (parameters are normalised and defaults filled in before this), and new bytes or any
 * changed parameter give a new one. The fingerprint is the job id, and the derivative lives at
 * {@code derivatives/<fingerprint>}; an intermediate step output is addressed by the fingerprint of
 * the source and the steps up to it and lives at {@code intermediates/<fingerprint>}, so a bucket
 * lifecycle rule can expire intermediates sooner than derivatives.
 */
public final class DerivativeFingerprint {
  /**
   * Version of the whole pipeline's output. Raise it when a change to a worker changes the bytes it
   * writes for the same request, so that the cache is not served stale. 2: images resized by
   * libvips (shrink-on-load, its CMYK profile) and PDF pages drawn whole or refused.
   */
  public static final String PIPELINE_VERSION = "2";

  /** Key prefix of final derivatives in the derivatives bucket. */
  public static final String KEY_PREFIX = "derivatives/";

  /** Key prefix of intermediate step outputs in the derivatives bucket. */
  public static final String INTERMEDIATE_PREFIX = "intermediates/";

  private DerivativeFingerprint() {}

  /**
   * Fingerprints the output of {@code steps} applied to {@code source}.
   *
   * @throws IllegalArgumentException if {@code steps} is empty
   */
  public static String of(SourceIdentity source, List<PlannedStep> steps) {
    if (steps.isEmpty()) {
      throw new IllegalArgumentException("a derivative has at least one step");
    }
    Map<String, Object> sourcePart = new LinkedHashMap<>();
    sourcePart.put("bucket", source.bucket());
    sourcePart.put("key", source.key());
    if (source.sha256() != null) {
      sourcePart.put("sha256", source.sha256());
    } else if (source.versionId() != null) {
      sourcePart.put("versionId", source.versionId());
    } else {
      sourcePart.put("etag", source.etag());
    }
    List<Map<String, Object>> stepParts = new ArrayList<>();
    for (PlannedStep step : steps) {
      Map<String, Object> part = new LinkedHashMap<>();
      part.put("capability", step.capability());
      part.put("operations", step.operations());
      part.put("outputMediaType", step.outputMediaType());
      if (!step.objects().isEmpty()) {
        // only where there are any, so every other fingerprint stays as it was
        Map<String, Object> objects = new java.util.TreeMap<>();
        step.objects()
            .forEach(
                (name, pinned) ->
                    objects.put(
                        name,
                        pinned.ref().versionId() != null
                            ? Map.of("versionId", pinned.ref().versionId())
                            : Map.of("etag", String.valueOf(pinned.etag()))));
        part.put("objects", objects);
      }
      stepParts.add(part);
    }
    Map<String, Object> identity = new LinkedHashMap<>();
    identity.put("pipelineVersion", PIPELINE_VERSION);
    identity.put("source", sourcePart);
    identity.put("steps", stepParts);
    return Fingerprint.of(identity);
  }

  /** The object key of the derivative with this fingerprint. */
  public static String objectKey(String fingerprint) {
    return KEY_PREFIX + fingerprint;
  }

  /** The object key of the intermediate step output with this fingerprint. */
  public static String intermediateKey(String fingerprint) {
    return INTERMEDIATE_PREFIX + fingerprint;
  }

  /**
   * Where the same step output lives when it was requested as a derivative itself: {@code
   * derivatives/<fp>} for {@code intermediates/<fp>}; empty for any other key.
   */
  public static java.util.Optional<ObjectRef> asDerivative(ObjectRef intermediate) {
    if (!intermediate.key().startsWith(INTERMEDIATE_PREFIX)) {
      return java.util.Optional.empty();
    }
    String fingerprint = intermediate.key().substring(INTERMEDIATE_PREFIX.length());
    return java.util.Optional.of(ObjectRef.of(intermediate.bucket(), objectKey(fingerprint)));
  }
}
