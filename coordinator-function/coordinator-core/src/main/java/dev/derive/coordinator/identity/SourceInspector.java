package dev.derive.coordinator.identity;

import dev.derive.coordinator.memory.LeastRecentlyUsed;
import dev.derive.coordinator.validate.SourceSpec;
import dev.derive.protocol.capability.CapabilityDescriptor;
import dev.derive.protocol.capability.Conversion;
import dev.derive.protocol.message.ObjectRef;
import dev.derive.protocol.message.PinnedObject;
import dev.derive.storage.ObjectMetadata;
import dev.derive.storage.ObjectStart;
import dev.derive.storage.ObjectStore;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * Establishes a source's identity: a HEAD tells existence, size, ETag, version and SHA-256
 * checksum, a ranged GET of that version its first bytes, and the bytes detect the media type from
 * content; the key's last segment only refines what the bytes leave open (see {@link
 * MediaTypeDetector#detect(byte[], String)}). A source is never known by its ETag alone (an MD5,
 * which two different contents can share): a remembered identity is reused only while the object
 * has its ETag and its version.
 */
public final class SourceInspector {
  private final ObjectStore objects;
  private final MediaTypeDetector detector;
  private final String sourceBucket;
  private final long maxSourceBytes;
  private final Set<String> readable;

  /**
   * The sources this instance identified, by key and version: asked again whether they still have
   * the ETag and the version they had, a source still the same costs a HEAD (no bytes, no
   * detection) and one that changed is read and detected anew, so a remembered identity is never
   * stale. Bounded to {@value #REMEMBERED_SOURCES} entries, least recently used dropped first.
   */
  private final LeastRecentlyUsed<String, SourceIdentity> identities =
      new LeastRecentlyUsed<>(REMEMBERED_SOURCES);

  /** Source identities remembered at most: a few MB. */
  public static final int REMEMBERED_SOURCES = 10_000;

  /**
   * @param sourceBucket bucket named by {@code SOURCE_BUCKET}
   * @param maxSourceBytes largest accepted source, in bytes
   * @param capabilities the capabilities whose source media types are accepted
   */
  public SourceInspector(
      ObjectStore objects,
      MediaTypeDetector detector,
      String sourceBucket,
      long maxSourceBytes,
      List<CapabilityDescriptor> capabilities) {
    this.objects = objects;
    this.detector = detector;
    this.sourceBucket = sourceBucket;
    this.maxSourceBytes = maxSourceBytes;
    Set<String> sources = new TreeSet<>();
    for (CapabilityDescriptor capability : capabilities) {
      for (Conversion conversion : capability.conversions()) {
        sources.add(conversion.source());
      }
    }
    this.readable = Set.copyOf(sources);
  }

  /** The media types a capability reads: what a detector may answer. */
  public Set<String> readable() {
    return readable;
  }

  private static String fileName(String key) {
    return key.substring(key.lastIndexOf('/') + 1);
  }

  /**
   * The identity this instance found for {@code source} when it last inspected it, unconfirmed: the
   * object may have changed since (only {@link #inspect} says). For starting work that {@link
   * #inspect} then confirms or discards.
   */
  public Optional<SourceIdentity> remembered(SourceSpec source) {
    return Optional.ofNullable(identities.get(memoryKey(source)));
  }

  private static String memoryKey(SourceSpec source) {
    return source.key() + '\0' + source.versionId();
  }

  /**
   * Identifies the source of a request.
   *
   * @throws SourceNotFoundException if the object (or version) does not exist
   * @throws SourceTooLargeException if it is larger than the limit
   * @throws UnsupportedMediaTypeException if its content is no media type a capability reads, or it
   *     is empty
   * @throws PasswordProtectedSourceException if it is a password-protected Office document
   * @throws dev.derive.storage.ObjectStoreException if S3 fails otherwise
   */
  public SourceIdentity inspect(SourceSpec source) {
    String memoryKey = memoryKey(source);
    SourceIdentity known = identities.get(memoryKey);
    ObjectRef ref = new ObjectRef(sourceBucket, source.key(), source.versionId());
    ObjectStart start = readStart(ref, known == null ? null : known.etag());
    if (start.unchanged()) {
      if (known != null && Objects.equals(known.versionId(), versionOf(source, start.metadata()))) {
        return known;
      }
      // the same ETag, another version: rewritten (perhaps other bytes with the same MD5)
      start = readStart(ref, null);
    }
    ObjectMetadata head = start.metadata();
    if (head.sizeBytes() > maxSourceBytes) {
      throw new SourceTooLargeException(source.key(), head.sizeBytes(), maxSourceBytes);
    }
    if (head.sizeBytes() == 0) {
      // the detector would go by the key's extension alone
      throw UnsupportedMediaTypeException.empty(source.key());
    }
    byte[] prefix = start.firstBytes();
    Optional<String> detected = detector.detect(prefix, fileName(source.key()));
    if (detected.filter(TikaMediaTypeDetector.PROTECTED_OOXML::equals).isPresent()) {
      throw new PasswordProtectedSourceException(source.key());
    }
    String mediaType =
        detected
            .filter(readable::contains)
            .orElseThrow(
                () ->
                    detector
                        .unreadableBecause(prefix, fileName(source.key()))
                        .map(reason -> UnsupportedMediaTypeException.because(source.key(), reason))
                        .orElseGet(
                            () ->
                                new UnsupportedMediaTypeException(
                                    source.key(), new TreeSet<>(readable))));
    SourceIdentity identity =
        new SourceIdentity(
            sourceBucket,
            source.key(),
            versionOf(source, head),
            head.etag(),
            head.sizeBytes(),
            mediaType,
            head.sha256());
    identities.put(memoryKey, identity);
    return identity;
  }

  /**
   * Another object of the source bucket as it is now (a watermark a parameter names), pinned to its
   * version, else its ETag; empty when there is none. Its content is the worker's to judge.
   *
   * @throws dev.derive.storage.ObjectStoreException if S3 fails otherwise
   */
  public Optional<PinnedObject> object(String key) {
    return objects
        .head(ObjectRef.of(sourceBucket, key))
        .map(
            head -> {
              String version = head.versionId();
              return new PinnedObject(
                  new ObjectRef(
                      sourceBucket,
                      key,
                      version == null || version.equals("null") ? null : version),
                  head.etag());
            });
  }

  private ObjectStart readStart(ObjectRef ref, String knownEtag) {
    return objects
        .readStart(ref, detector.prefixBytes(), knownEtag)
        .orElseThrow(() -> new SourceNotFoundException(ref.key(), ref.versionId()));
  }

  /**
   * The version a source is identified by: the one the request named, else the one {@code head}
   * read, unless the bucket keeps none ({@code null}, or S3's {@code "null"} for an object written
   * before versioning was enabled, which a later write replaces in place).
   */
  private static String versionOf(SourceSpec source, ObjectMetadata head) {
    if (source.versionId() != null) {
      return source.versionId();
    }
    String version = head.versionId();
    return version == null || version.equals("null") ? null : version;
  }
}
