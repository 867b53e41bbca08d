package dev.derive.aws.s3;

import dev.derive.protocol.io.ByteCaps;
import dev.derive.protocol.message.ObjectRef;
import dev.derive.storage.ObjectChangedException;
import dev.derive.storage.ObjectMetadata;
import dev.derive.storage.ObjectNotFoundException;
import dev.derive.storage.ObjectStart;
import dev.derive.storage.ObjectStore;
import dev.derive.storage.ObjectStoreException;
import dev.derive.storage.ObjectTooLargeException;
import dev.derive.storage.PresignedDownload;
import dev.derive.storage.PresignedUpload;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;
import software.amazon.awssdk.core.ResponseInputStream;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.GetObjectResponse;
import software.amazon.awssdk.services.s3.model.HeadObjectResponse;
import software.amazon.awssdk.services.s3.model.NoSuchBucketException;
import software.amazon.awssdk.services.s3.model.NoSuchKeyException;
import software.amazon.awssdk.services.s3.model.S3Exception;
import software.amazon.awssdk.services.s3.presigner.S3Presigner;
import software.amazon.awssdk.services.s3.presigner.model.PresignedGetObjectRequest;
import software.amazon.awssdk.services.s3.presigner.model.PresignedPutObjectRequest;

/**
 * The {@link ObjectStore} on Amazon S3: HeadObject, ranged and conditional GetObject, GetObject
 * streamed to a file (with {@code If-Match} when an ETag is pinned), PutObject from a file, and
 * SigV4 presigning.
 *
 * <p>What counts as missing ({@link #isMissing}): NoSuchKey, NoSuchBucket, any 404 (a HEAD has no
 * body, so S3 answers it without an error code), and a 400 when a version id was given (S3's answer
 * to a malformed version id). A 412 on a pinned read is {@link ObjectChangedException}. Every other
 * SDK exception becomes an {@link ObjectStoreException} with the SDK's exception as its cause.
 */
public final class S3ObjectStore implements ObjectStore {
  private static final int HTTP_BAD_REQUEST = 400;
  private static final int HTTP_NOT_FOUND = 404;
  private static final int HTTP_PRECONDITION_FAILED = 412;
  private static final int HTTP_RANGE_NOT_SATISFIABLE = 416;

  private final S3Client s3;
  private final S3Presigner presigner;

  /**
   * @param s3 the client for requests; the caller owns (and closes) it
   * @param presigner the presigner for URLs, or {@code null} for a store that never presigns (a
   *     worker's)
   */
  public S3ObjectStore(S3Client s3, S3Presigner presigner) {
    this.s3 = Objects.requireNonNull(s3, "s3");
    this.presigner = presigner;
  }

  /** A store that reads and writes but does not presign (what a worker needs). */
  public S3ObjectStore(S3Client s3) {
    this(s3, null);
  }

  @Override
  public Optional<ObjectMetadata> head(ObjectRef ref) {
    try {
      HeadObjectResponse head =
          s3.headObject(b -> b.bucket(ref.bucket()).key(ref.key()).versionId(ref.versionId()));
      long size = head.contentLength() == null ? 0 : head.contentLength();
      return Optional.of(new ObjectMetadata(size, head.eTag(), head.versionId()));
    } catch (S3Exception e) {
      if (isMissing(e, ref)) {
        return Optional.empty();
      }
      throw failed("HeadObject", ref, e);
    } catch (SdkException e) {
      throw failed("HeadObject", ref, e);
    }
  }

  @Override
  public Optional<ObjectStart> readStart(ObjectRef ref, int maxBytes, String ifNoneMatch) {
    if (ifNoneMatch != null) {
      Optional<Boolean> unchanged = unchanged(ref, ifNoneMatch);
      if (unchanged.isEmpty()) {
        return Optional.empty();
      }
      if (unchanged.get()) {
        return Optional.of(ObjectStart.unchanged(ifNoneMatch, ref.versionId()));
      }
    }
    if (maxBytes <= 0) {
      return head(ref).map(head -> new ObjectStart(head, new byte[0]));
    }
    try (ResponseInputStream<GetObjectResponse> in =
        s3.getObject(
            b ->
                b.bucket(ref.bucket())
                    .key(ref.key())
                    .versionId(ref.versionId())
                    .range("bytes=0-" + (maxBytes - 1)))) {
      GetObjectResponse response = in.response();
      byte[] first = in.readNBytes(maxBytes);
      long size = wholeSize(response.contentRange(), response.contentLength());
      Long sent = response.contentLength();
      if (sent != null && sent > first.length) {
        // A store that ignored the range sends the whole object: do not read the rest (this
        // closes the connection; a ranged answer is read to its end and keeps it for reuse).
        in.abort();
      }
      return Optional.of(
          new ObjectStart(new ObjectMetadata(size, response.eTag(), response.versionId()), first));
    } catch (S3Exception e) {
      if (e.statusCode() == HTTP_RANGE_NOT_SATISFIABLE) {
        // An empty object has no first byte to range over (RFC 9110 section 15.5.17).
        return head(ref).map(head -> new ObjectStart(head, new byte[0]));
      }
      if (isMissing(e, ref)) {
        return Optional.empty();
      }
      throw failed("GetObject", ref, e);
    } catch (SdkException | IOException e) {
      throw failed("GetObject", ref, e);
    }
  }

  /**
   * Whether {@code ref} still has the entity tag {@code etag}, from a plain HEAD whose ETag is
   * compared here; empty when the object does not exist. Not a conditional HEAD ({@code
   * If-None-Match}, answered 304): that is the same round trip, but the SDK turns every 304 into an
   * exception (building its error details and stack trace, consulting the retry policy), which on
   * the local endpoint cost ~0.5 ms of a 6 ms hit; a 200 is the SDK's ordinary path. An entity tag
   * is compared byte for byte, quotes included, as S3 sends it (RFC 9110 section 8.8.3.2, strong
   * comparison: S3's tags are strong). Only a source that did change pays a second round trip.
   */
  private Optional<Boolean> unchanged(ObjectRef ref, String etag) {
    return head(ref).map(head -> etag.equals(head.etag()));
  }

  /**
   * The whole object's size from a ranged answer's {@code Content-Range: bytes 0-4095/123456} (RFC
   * 9110 section 14.4), or its {@code Content-Length} when the store sent the whole object.
   */
  static long wholeSize(String contentRange, Long contentLength) {
    if (contentRange != null) {
      int slash = contentRange.lastIndexOf('/');
      String total = slash < 0 ? "" : contentRange.substring(slash + 1).trim();
      if (!total.isEmpty() && !total.equals("*")) {
        try {
          return Long.parseLong(total);
        } catch (NumberFormatException e) {
          // fall through to the length
        }
      }
    }
    return contentLength == null ? 0 : contentLength;
  }

  @Override
  public long download(ObjectRef ref, String ifMatchEtag, Path target, long maxBytes)
      throws IOException {
    ResponseInputStream<GetObjectResponse> body;
    try {
      body =
          s3.getObject(
              b ->
                  b.bucket(ref.bucket())
                      .key(ref.key())
                      .versionId(ref.versionId())
                      .ifMatch(ifMatchEtag));
    } catch (S3Exception e) {
      if (isMissing(e, ref)) {
        throw new ObjectNotFoundException(ref, e);
      }
      if (ifMatchEtag != null && e.statusCode() == HTTP_PRECONDITION_FAILED) {
        throw new ObjectChangedException(ref, ifMatchEtag, e);
      }
      throw failed("GetObject", ref, e);
    } catch (SdkException e) {
      throw failed("GetObject", ref, e);
    }
    try (body;
        OutputStream out = Files.newOutputStream(target)) {
      Long declared = body.response().contentLength();
      if (declared != null && declared > maxBytes) {
        body.abort();
        throw new ObjectTooLargeException(ref, maxBytes);
      }
      long copied = ByteCaps.copyAtMost(body, out, maxBytes);
      if (copied > maxBytes) {
        body.abort();
        throw new ObjectTooLargeException(ref, maxBytes);
      }
      return copied;
    } catch (SdkException e) {
      throw failed("GetObject", ref, e);
    }
  }

  @Override
  public void upload(Path source, ObjectRef ref, String contentType) {
    try {
      s3.putObject(
          b -> b.bucket(ref.bucket()).key(ref.key()).contentType(contentType),
          RequestBody.fromFile(source));
    } catch (SdkException e) {
      throw failed("PutObject", ref, e);
    }
  }

  @Override
  public PresignedDownload presignGet(String bucket, String key, Duration lifetime) {
    PresignedGetObjectRequest presigned =
        presigner()
            .presignGetObject(
                b ->
                    b.signatureDuration(lifetime).getObjectRequest(g -> g.bucket(bucket).key(key)));
    return new PresignedDownload(presigned.url(), Instant.from(presigned.expiration()));
  }

  @Override
  public PresignedUpload presignPut(
      String bucket, String key, String contentType, long contentLength, Duration lifetime) {
    PresignedPutObjectRequest presigned =
        presigner()
            .presignPutObject(
                b ->
                    b.signatureDuration(lifetime)
                        .putObjectRequest(
                            p ->
                                p.bucket(bucket)
                                    .key(key)
                                    .contentType(contentType)
                                    .contentLength(contentLength)));
    Map<String, String> headers = new TreeMap<>();
    presigned
        .signedHeaders()
        .forEach(
            (name, values) -> {
              // Host and Content-Length are set by any HTTP client (and refused from callers by
              // some, e.g. java.net.http); the declared size is signed all the same.
              if (!name.equalsIgnoreCase("host")
                  && !name.equalsIgnoreCase("content-length")
                  && !values.isEmpty()) {
                headers.put(name, String.join(",", values));
              }
            });
    return new PresignedUpload(presigned.url(), headers, Instant.from(presigned.expiration()));
  }

  private S3Presigner presigner() {
    if (presigner == null) {
      throw new IllegalStateException("this S3ObjectStore was built without a presigner");
    }
    return presigner;
  }

  /** Whether S3's answer means "no such object, version or bucket" (see the class comment). */
  static boolean isMissing(S3Exception e, ObjectRef ref) {
    return e instanceof NoSuchKeyException
        || e instanceof NoSuchBucketException
        || e.statusCode() == HTTP_NOT_FOUND
        || (ref.versionId() != null && e.statusCode() == HTTP_BAD_REQUEST);
  }

  private static ObjectStoreException failed(String operation, ObjectRef ref, Exception cause) {
    return new ObjectStoreException(operation + " " + ref + " failed", cause);
  }
}
