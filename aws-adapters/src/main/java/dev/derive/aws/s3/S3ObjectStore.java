package dev.derive.aws.s3;

import dev.derive.aws.SdkFailures;
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
import software.amazon.awssdk.services.s3.model.ChecksumMode;
import software.amazon.awssdk.services.s3.model.GetObjectResponse;
import software.amazon.awssdk.services.s3.model.HeadObjectResponse;
import software.amazon.awssdk.services.s3.model.NoSuchBucketException;
import software.amazon.awssdk.services.s3.model.NoSuchKeyException;
import software.amazon.awssdk.services.s3.model.S3Exception;
import software.amazon.awssdk.services.s3.presigner.S3Presigner;
import software.amazon.awssdk.services.s3.presigner.model.PresignedGetObjectRequest;
import software.amazon.awssdk.services.s3.presigner.model.PresignedPutObjectRequest;

/**
 * The {@link ObjectStore} on Amazon S3: HeadObject (with the object's checksum), ranged and
 * conditional GetObject, GetObject streamed to a file (with {@code If-Match} when an ETag is
 * pinned), PutObject from a file, and SigV4 presigning (of a PUT with its SHA-256 when given).
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
          s3.headObject(
              b ->
                  b.bucket(ref.bucket())
                      .key(ref.key())
                      .versionId(ref.versionId())
                      .checksumMode(ChecksumMode.ENABLED));
      long size = head.contentLength() == null ? 0 : head.contentLength();
      return Optional.of(new ObjectMetadata(size, head.eTag(), head.versionId(), sha256(head)));
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
    return readStart(ref, maxBytes, ifNoneMatch, true);
  }

  private Optional<ObjectStart> readStart(
      ObjectRef ref, int maxBytes, String ifNoneMatch, boolean againIfReplaced) {
    Optional<ObjectMetadata> found = head(ref);
    if (found.isEmpty()) {
      return Optional.empty();
    }
    ObjectMetadata head = found.get();
    if (ifNoneMatch != null && ifNoneMatch.equals(head.etag())) {
      return Optional.of(ObjectStart.unchanged(head));
    }
    if (maxBytes <= 0 || head.sizeBytes() == 0) {
      // an empty object has no first byte to range over (RFC 9110 section 15.5.17)
      return Optional.of(new ObjectStart(head, new byte[0]));
    }
    // the version the HEAD described, or (unversioned) only while it has the HEAD's entity tag
    String version = head.versionId() != null ? head.versionId() : ref.versionId();
    try (ResponseInputStream<GetObjectResponse> in =
        s3.getObject(
            b ->
                b.bucket(ref.bucket())
                    .key(ref.key())
                    .versionId(version)
                    .ifMatch(version == null ? head.etag() : null)
                    .range("bytes=0-" + (maxBytes - 1)))) {
      GetObjectResponse response = in.response();
      byte[] first = in.readNBytes(maxBytes);
      Long sent = response.contentLength();
      if (sent != null && sent > first.length) {
        // A store that ignored the range sends the whole object: do not read the rest (this
        // closes the connection; a ranged answer is read to its end and keeps it for reuse).
        in.abort();
      }
      return Optional.of(new ObjectStart(head, first));
    } catch (S3Exception e) {
      if (againIfReplaced && (e.statusCode() == HTTP_PRECONDITION_FAILED || isMissing(e, ref))) {
        // replaced or deleted between the HEAD and the GET: read it again as it is now, once
        return readStart(ref, maxBytes, null, false);
      }
      throw failed("GetObject", ref, e);
    } catch (SdkException | IOException e) {
      throw failed("GetObject", ref, e);
    }
  }

  /**
   * The whole-object SHA-256 a HEAD with {@code ChecksumMode.ENABLED} gives, or null: none, or a
   * checksum of a multipart upload's parts ({@code <base64>-<parts>}, checksum type COMPOSITE),
   * which is no hash of the bytes.
   */
  private static String sha256(HeadObjectResponse head) {
    String sha256 = head.checksumSHA256();
    boolean wholeObject =
        sha256 != null
            && !sha256.contains("-")
            && head.checksumType()
                != software.amazon.awssdk.services.s3.model.ChecksumType.COMPOSITE;
    return wholeObject ? sha256 : null;
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
    return presignPut(bucket, key, contentType, contentLength, null, lifetime);
  }

  @Override
  public PresignedUpload presignPut(
      String bucket,
      String key,
      String contentType,
      long contentLength,
      String sha256,
      Duration lifetime) {
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
                                    .contentLength(contentLength)
                                    .checksumSHA256(sha256)));
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
    return new ObjectStoreException(
        operation + " " + ref + " failed", cause, SdkFailures.describe(cause));
  }
}
