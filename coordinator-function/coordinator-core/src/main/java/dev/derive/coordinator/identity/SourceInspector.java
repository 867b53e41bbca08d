package dev.derive.coordinator.identity;

import dev.derive.coordinator.memory.LeastRecentlyUsed;
import dev.derive.coordinator.validate.SourceSpec;
import dev.derive.protocol.capability.CapabilityDescriptor;
import dev.derive.protocol.capability.Conversion;
import dev.derive.protocol.message.ObjectRef;
import dev.derive.storage.ObjectMetadata;
import dev.derive.storage.ObjectStart;
import dev.derive.storage.ObjectStore;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * Establishes a source's identity in one round trip: a ranged GET of its first bytes tells
 * existence, whole size (from {@code Content-Range}) and ETag, and the bytes detect the media type
 * from content; the key's last segment only refines what the bytes leave open (see {@link
 * MediaTypeDetector#detect(byte[], String)}).
 */
public final class SourceInspector {
  private final ObjectStore objects;
  private final MediaTypeDetector detector;
  private final String sourceBucket;
  private final long maxSourceBytes;
  private final Set<String> readable;

  /**
   * The sources this instance identified, by key and version: asked again whether they still have
   * the ETag they had, a source still the same costs a HEAD (no bytes, no detection) and one that
   * changed is read and detected anew, so a remembered identity is never stale. Bounded to {@value
   * #REMEMBERED_SOURCES} entries, least recently used dropped first.
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
    ObjectStart start =
        objects
            .readStart(
                new ObjectRef(sourceBucket, source.key(), source.versionId()),
                detector.prefixBytes(),
                known == null ? null : known.etag())
            .orElseThrow(() -> new SourceNotFoundException(source.key(), source.versionId()));
    if (start.unchanged() && known != null) {
      return known;
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
                () -> new UnsupportedMediaTypeException(source.key(), new TreeSet<>(readable)));
    SourceIdentity identity =
        new SourceIdentity(
            sourceBucket,
            source.key(),
            source.versionId(),
            head.etag(),
            head.sizeBytes(),
            mediaType);
    identities.put(memoryKey, identity);
    return identity;
  }
}
