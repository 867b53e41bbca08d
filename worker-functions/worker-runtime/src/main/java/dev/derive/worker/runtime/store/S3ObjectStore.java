package dev.derive.worker.runtime.store;

import dev.derive.protocol.io.ByteCaps;
import dev.derive.protocol.message.ObjectRef;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Objects;
import java.util.OptionalLong;
import software.amazon.awssdk.core.ResponseInputStream;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.GetObjectRequest;
import software.amazon.awssdk.services.s3.model.GetObjectResponse;
import software.amazon.awssdk.services.s3.model.HeadObjectRequest;
import software.amazon.awssdk.services.s3.model.NoSuchBucketException;
import software.amazon.awssdk.services.s3.model.NoSuchKeyException;
import software.amazon.awssdk.services.s3.model.PutObjectRequest;
import software.amazon.awssdk.services.s3.model.S3Exception;

/**
 * {@link ObjectStore} on Amazon S3: HeadObject, GetObject streamed to a file (with {@code If-Match}
 * when an ETag is pinned), PutObject from a file. A 404 (NoSuchKey, NoSuchBucket, or a HEAD without
 * body) means "does not exist" ({@link ObjectNotFoundException}), a 412 on a pinned read means "the
 * object changed" ({@link ObjectChangedException}); every other SDK exception propagates for the
 * runtime to retry.
 */
public final class S3ObjectStore implements ObjectStore {
  private static final int HTTP_NOT_FOUND = 404;
  private static final int HTTP_PRECONDITION_FAILED = 412;

  private final S3Client s3;

  /**
   * @param s3 the client to use; the caller owns (and closes) it
   */
  public S3ObjectStore(S3Client s3) {
    this.s3 = Objects.requireNonNull(s3, "s3");
  }

  @Override
  public OptionalLong size(ObjectRef ref) {
    try {
      Long length =
          s3.headObject(
                  HeadObjectRequest.builder()
                      .bucket(ref.bucket())
                      .key(ref.key())
                      .versionId(ref.versionId())
                      .build())
              .contentLength();
      return OptionalLong.of(length == null ? 0 : length);
    } catch (S3Exception e) {
      if (isNotFound(e)) {
        return OptionalLong.empty();
      }
      throw e;
    }
  }

  @Override
  public long download(ObjectRef ref, Path target, long maxBytes) throws IOException {
    return download(ref, null, target, maxBytes);
  }

  @Override
  public long download(ObjectRef ref, String ifMatchEtag, Path target, long maxBytes)
      throws IOException {
    GetObjectRequest request =
        GetObjectRequest.builder()
            .bucket(ref.bucket())
            .key(ref.key())
            .versionId(ref.versionId())
            .ifMatch(ifMatchEtag)
            .build();
    ResponseInputStream<GetObjectResponse> body;
    try {
      body = s3.getObject(request);
    } catch (S3Exception e) {
      if (isNotFound(e)) {
        throw new ObjectNotFoundException(ref, e);
      }
      if (ifMatchEtag != null && e.statusCode() == HTTP_PRECONDITION_FAILED) {
        throw new ObjectChangedException(ref, ifMatchEtag, e);
      }
      throw e;
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
    }
  }

  @Override
  public void upload(Path source, ObjectRef ref, String contentType) {
    s3.putObject(
        PutObjectRequest.builder()
            .bucket(ref.bucket())
            .key(ref.key())
            .contentType(contentType)
            .build(),
        RequestBody.fromFile(source));
  }

  private static boolean isNotFound(S3Exception e) {
    return e instanceof NoSuchKeyException
        || e instanceof NoSuchBucketException
        || e.statusCode() == HTTP_NOT_FOUND;
  }
}
