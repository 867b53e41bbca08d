package dev.derive.worker.runtime.aws;

import java.time.Duration;
import java.util.Map;
import software.amazon.awssdk.core.client.config.ClientOverrideConfiguration;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.sqs.SqsClient;

/**
 * Builds the SDK clients a worker function uses, the way every Derive function does: the {@link
 * UrlConnectionHttpClient} (small, fast to start; no Apache or Netty client in the artifact),
 * region and credentials from the SDK's default chains, and the endpoint only from the SDK's own
 * {@code AWS_ENDPOINT_URL} environment variable or {@code aws.endpointUrl} system property support,
 * so no local-only code path exists.
 *
 * <p>Every client has API-call and API-call-attempt timeouts (the SDK sets none by default, so a
 * hung call would meet the function's timeout; issue 9, items 3 and 11). The HTTP client keeps its
 * defaults below them: 2 s to connect, 30 s without a byte read.
 *
 * <ul>
 *   <li>SQS ({@link #SQS_API_CALL_ATTEMPT_TIMEOUT} 3 s, {@link #SQS_API_CALL_TIMEOUT} 10 s): a step
 *       result is a SendMessage of at most a few KiB, answered in milliseconds; 10 s leaves room
 *       for the SDK's retries and stays within the default 10 s deadline margin in which the last
 *       results of a batch are sent.
 *   <li>S3 ({@link #S3_API_CALL_ATTEMPT_TIMEOUT} 60 s, {@link #S3_API_CALL_TIMEOUT} 100 s): an
 *       attempt of GetObject ends when the response headers arrive, since the body is read
 *       afterwards from the returned stream (bounded by the step's budget, which the watchdog
 *       enforces, and the 30 s read timeout), so a download of any length that keeps flowing is
 *       never cut. An attempt of PutObject includes sending the body: 60 s carries the 100 MiB
 *       limit ({@code MAX_SOURCE_BYTES}) at 1.7 MiB/s, far below what Lambda reaches to S3 in its
 *       region. The call timeout lets a quick retry follow a failed attempt and stays below the
 *       shortest worker timeout of {@code template.yaml} (120 s).
 * </ul>
 */
public final class AwsClientFactory {
  /**
   * Environment variable that turns on S3 path-style addressing (needed by moto and LocalStack).
   */
  public static final String S3_PATH_STYLE_VARIABLE = "DERIVE_S3_PATH_STYLE";

  /** Longest single attempt of an SQS call. */
  public static final Duration SQS_API_CALL_ATTEMPT_TIMEOUT = Duration.ofSeconds(3);

  /** Longest SQS call, retries included. */
  public static final Duration SQS_API_CALL_TIMEOUT = Duration.ofSeconds(10);

  /** Longest single attempt of an S3 call (for GetObject: until the headers arrive). */
  public static final Duration S3_API_CALL_ATTEMPT_TIMEOUT = Duration.ofSeconds(60);

  /** Longest S3 call, retries included. */
  public static final Duration S3_API_CALL_TIMEOUT = Duration.ofSeconds(100);

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
   * An S3 client with the S3 timeouts.
   *
   * @param pathStyle whether to address buckets in the path ({@code http://host/bucket/key}) rather
   *     than the host name; local endpoints need it
   */
  public static S3Client s3(boolean pathStyle) {
    return S3Client.builder()
        .httpClient(UrlConnectionHttpClient.create())
        .forcePathStyle(pathStyle)
        .overrideConfiguration(s3Timeouts())
        .build();
  }

  /** An SQS client with the SQS timeouts. */
  public static SqsClient sqs() {
    return SqsClient.builder()
        .httpClient(UrlConnectionHttpClient.create())
        .overrideConfiguration(sqsTimeouts())
        .build();
  }

  /** The S3 clients' call and attempt timeouts. */
  public static ClientOverrideConfiguration s3Timeouts() {
    return ClientOverrideConfiguration.builder()
        .apiCallAttemptTimeout(S3_API_CALL_ATTEMPT_TIMEOUT)
        .apiCallTimeout(S3_API_CALL_TIMEOUT)
        .build();
  }

  /** The SQS clients' call and attempt timeouts. */
  public static ClientOverrideConfiguration sqsTimeouts() {
    return ClientOverrideConfiguration.builder()
        .apiCallAttemptTimeout(SQS_API_CALL_ATTEMPT_TIMEOUT)
        .apiCallTimeout(SQS_API_CALL_TIMEOUT)
        .build();
  }

  /** Whether {@code environment} asks for S3 path-style addressing. */
  public static boolean pathStyle(Map<String, String> environment) {
    return Boolean.parseBoolean(environment.getOrDefault(S3_PATH_STYLE_VARIABLE, "false"));
  }
}
