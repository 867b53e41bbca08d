package dev.derive.worker.runtime.aws;

import java.util.Map;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.sqs.SqsClient;

/**
 * Builds the SDK clients a worker function uses, the way every Derive function does: the {@link
 * UrlConnectionHttpClient} (small, fast to start; no Apache or Netty client in the artifact),
 * region and credentials from the SDK's default chains, and the endpoint only from the SDK's own
 * {@code AWS_ENDPOINT_URL} environment variable or {@code aws.endpointUrl} system property support,
 * so no local-only code path exists.
 */
public final class AwsClientFactory {
  /**
   * Environment variable that turns on S3 path-style addressing (needed by moto and LocalStack).
   */
  public static final String S3_PATH_STYLE_VARIABLE = "DERIVE_S3_PATH_STYLE";

  private AwsClientFactory() {}

  /** An S3 client; path-style addressing iff env {@code DERIVE_S3_PATH_STYLE} is {@code true}. */
  public static S3Client s3() {
    return s3(System.getenv());
  }

  /**
   * An S3 client; path-style addressing iff {@code environment} maps {@code DERIVE_S3_PATH_STYLE}
   * to {@code true} (case-insensitive).
   */
  public static S3Client s3(Map<String, String> environment) {
    return s3(pathStyle(environment));
  }

  /**
   * An S3 client.
   *
   * @param pathStyle whether to address buckets in the path ({@code http://host/bucket/key}) rather
   *     than the host name; local endpoints need it
   */
  public static S3Client s3(boolean pathStyle) {
    return S3Client.builder()
        .httpClient(UrlConnectionHttpClient.create())
        .forcePathStyle(pathStyle)
        .build();
  }

  /** An SQS client. */
  public static SqsClient sqs() {
    return SqsClient.builder().httpClient(UrlConnectionHttpClient.create()).build();
  }

  /** Whether {@code environment} asks for S3 path-style addressing. */
  public static boolean pathStyle(Map<String, String> environment) {
    return Boolean.parseBoolean(environment.getOrDefault(S3_PATH_STYLE_VARIABLE, "false"));
  }
}
