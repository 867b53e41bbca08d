package dev.derive.coordinator.url;

import dev.derive.protocol.message.ObjectRef;
import dev.derive.storage.ObjectStart;
import dev.derive.storage.ObjectStore;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.function.Function;

/**
 * The fallback image of image URLs ({@code IMAGE_URL_FALLBACK_KEY}, docs/image-urls.md): an object
 * of the source bucket, read when first needed and again at most every {@code ttl} (a HEAD while it
 * keeps its entity tag), so a deployer replaces it by uploading another. Kept only when its bytes
 * are of a format image URLs can name ({@code f:}, the declared {@code formats}) and it holds at
 * most {@value #MAX_BYTES} bytes: it is sent in a Lambda response.
 */
public final class FallbackImage {
  private static final System.Logger LOG = System.getLogger(FallbackImage.class.getName());

  /** The largest fallback image served: 1 MiB. */
  public static final int MAX_BYTES = 1 << 20;

  private final ObjectStore objects;
  private final ObjectRef ref;
  private final Duration ttl;
  private final Clock clock;
  private final Function<byte[], Optional<String>> identify;
  private Optional<Picture> current = Optional.empty();
  private String etag;
  private Instant readAt;

  /**
   * @param key the object's key in {@code bucket}
   * @param ttl how long an image read is served before the object is looked at again
   * @param identify the media type of an image's bytes when it may be served, else empty
   */
  public FallbackImage(
      ObjectStore objects,
      String bucket,
      String key,
      Duration ttl,
      Clock clock,
      Function<byte[], Optional<String>> identify) {
    this.identify = identify;
    this.objects = objects;
    this.ref = ObjectRef.of(bucket, key);
    this.ttl = ttl;
    this.clock = clock;
  }

  /** The image, or empty when the object is missing, too large or not an image. */
  public synchronized Optional<Picture> picture() {
    Instant now = clock.instant();
    if (readAt != null && now.isBefore(readAt.plus(ttl))) {
      return current;
    }
    readAt = now;
    try {
      Optional<ObjectStart> start = objects.readStart(ref, MAX_BYTES + 1, etag);
      if (start.isEmpty()) {
        LOG.log(
            System.Logger.Level.WARNING,
            () -> "the fallback image " + ref.key() + " is not in the source bucket");
        current = Optional.empty();
        etag = null;
      } else if (!start.get().unchanged()) {
        etag = start.get().metadata().etag();
        current = picture(start.get());
      }
    } catch (RuntimeException e) {
      LOG.log(
          System.Logger.Level.WARNING,
          () -> "the fallback image could not be read (" + e.getMessage() + ")");
    }
    return current;
  }

  private Optional<Picture> picture(ObjectStart start) {
    byte[] bytes = start.firstBytes();
    Optional<String> mediaType =
        start.metadata().sizeBytes() > MAX_BYTES ? Optional.empty() : identify.apply(bytes);
    if (mediaType.isEmpty()) {
      LOG.log(
          System.Logger.Level.WARNING,
          () ->
              "the fallback image "
                  + ref.key()
                  + " is not an image of a format image URLs make, of at most "
                  + MAX_BYTES
                  + " bytes; none is served");
      return Optional.empty();
    }
    return Optional.of(new Picture(bytes, mediaType.get(), Picture.FALLBACK));
  }
}
