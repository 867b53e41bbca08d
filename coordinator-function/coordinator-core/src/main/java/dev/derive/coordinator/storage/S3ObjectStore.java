package dev.derive.coordinator.storage;

import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.s3.S3Client;
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
  public byte[] readPrefix(String bucket, String key, String versionId, int maxBytes) {
    if (maxBytes <= 0) {
      return new byte[0];
    }
    try {
      return s3.getObjectAsBytes(
              b ->
                  b.bucket(bucket).key(key).versionId(versionId).range("bytes=0-" + (maxBytes - 1)))
          .asByteArray();
    } catch (S3Exception e) {
      if (e.statusCode() == 416) {
        return new byte[0]; // an empty object has no first byte to range over
      }
      throw new ObjectStoreException("GetObject s3://" + bucket + "/" + key + " failed", e);
    } catch (SdkException e) {
      throw new ObjectStoreException("GetObject s3://" + bucket + "/" + key + " failed", e);
    }
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
