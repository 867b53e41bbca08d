package dev.derive.coordinator.storage;

import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import software.amazon.awssdk.core.ResponseInputStream;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.GetObjectResponse;
import software.amazon.awssdk.services.s3.model.HeadObjectResponse;
import software.amazon.awssdk.services.s3.model.NoSuchKeyException;
import software.amazon.awssdk.services.s3.model.S3Exception;
import software.amazon.awssdk.services.s3.presigner.S3Presigner;
import software.amazon.awssdk.services.s3.presigner.model.PresignedGetObjectRequest;
import software.amazon.awssdk.services.s3.presigner.model.PresignedPutObjectRequest;

/** The {@link ObjectStore} on Amazon S3: HeadObject, ranged GetObject and SigV4 presigning. */
public final class S3ObjectStore implements ObjectStore {
  private final S3Client s3;
  private final S3Presigner presigner;

  /** Uses {@code s3} for requests and {@code presigner} for download URLs. */
  public S3ObjectStore(S3Client s3, S3Presigner presigner) {
    this.s3 = s3;
    this.presigner = presigner;
  }

  @Override
  public Optional<ObjectMetadata> head(String bucket, String key, String versionId) {
    try {
      HeadObjectResponse head = s3.headObject(b -> b.bucket(bucket).key(key).versionId(versionId));
      return Optional.of(new ObjectMetadata(head.contentLength(), head.eTag(), head.versionId()));
    } catch (NoSuchKeyException e) {
      return Optional.empty();
    } catch (S3Exception e) {
      // HEAD has no body, so S3 answers 404 without an error code; 400 for a malformed version id.
      if (e.statusCode() == 404 || (versionId != null && e.statusCode() == 400)) {
        return Optional.empty();
      }
      throw new ObjectStoreException("HeadObject s3://" + bucket + "/" + key + " failed", e);
    } catch (SdkException e) {
      throw new ObjectStoreException("HeadObject s3://" + bucket + "/" + key + " failed", e);
    }
  }

  @Override
  public Optional<ObjectStart> readStart(
      String bucket, String key, String versionId, int maxBytes, String ifNoneMatch) {
    if (maxBytes <= 0) {
      return head(bucket, key, versionId).map(head -> new ObjectStart(head, new byte[0]));
    }
    try (ResponseInputStream<GetObjectResponse> in =
        s3.getObject(
            b ->
                b.bucket(bucket)
                    .key(key)
                    .versionId(versionId)
                    .range("bytes=0-" + (maxBytes - 1))
                    .ifNoneMatch(ifNoneMatch))) {
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
    } catch (NoSuchKeyException e) {
      return Optional.empty();
    } catch (S3Exception e) {
      if (e.statusCode() == 304) {
        return Optional.of(ObjectStart.unchanged(ifNoneMatch, versionId));
      }
      if (e.statusCode() == 416) {
        // An empty object has no first byte to range over (RFC 9110 section 15.5.17).
        return head(bucket, key, versionId).map(head -> new ObjectStart(head, new byte[0]));
      }
      if (e.statusCode() == 404 || (versionId != null && e.statusCode() == 400)) {
        return Optional.empty();
      }
      throw new ObjectStoreException("GetObject s3://" + bucket + "/" + key + " failed", e);
    } catch (SdkException | IOException e) {
      throw new ObjectStoreException("GetObject s3://" + bucket + "/" + key + " failed", e);
    }
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
  public PresignedDownload presignGet(String bucket, String key, Duration lifetime) {
    PresignedGetObjectRequest presigned =
        presigner.presignGetObject(
            b -> b.signatureDuration(lifetime).getObjectRequest(g -> g.bucket(bucket).key(key)));
    return new PresignedDownload(presigned.url(), Instant.from(presigned.expiration()));
  }

  @Override
  public PresignedUpload presignPut(
      String bucket, String key, String contentType, long contentLength, Duration lifetime) {
    PresignedPutObjectRequest presigned =
        presigner.presignPutObject(
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
}
