package dev.derive.aws;

import java.net.URI;
import java.time.Duration;
import java.util.Objects;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.awscore.client.builder.AwsClientBuilder;
import software.amazon.awssdk.awscore.client.builder.AwsSyncClientBuilder;
import software.amazon.awssdk.core.client.config.ClientOverrideConfiguration;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Configuration;
import software.amazon.awssdk.services.s3.presigner.S3Presigner;

/**
 * The one way Derive builds AWS SDK v2 clients, for the functions, the local cloud and the tests.
 *
 * <ul>
 *   <li><b>HTTP client</b>: always the synchronous {@link UrlConnectionHttpClient} on the JDK's URL
 *       connection: small and fast to start on Lambda; no Apache or Netty client is shipped (every
 *       SDK dependency excludes them).
 *   <li><b>Endpoint, region, credentials</b>: in the functions, from the SDK's default chains only
 *       ({@code AWS_ENDPOINT_URL} / {@code aws.endpointUrl}, {@code AWS_REGION}, the Lambda role),
 *       so no local-only code path exists: the local cloud starts functions with those variables
 *       set. Tools and tests that talk to a known endpoint (moto, LocalStack) pass an {@link
 *       Endpoint} instead, with static credentials.
 *   <li><b>S3 addressing</b>: path-style ({@code http://host/bucket/key}) iff the caller asks;
 *       local endpoints need it since {@code bucket.127.0.0.1} does not resolve ({@code
 *       DERIVE_S3_PATH_STYLE=true}).
 *   <li><b>Timeouts</b>: the SDK sets no call timeout by default, so a hung endpoint would meet the
 *       function's timeout (issue 9, items 3 and 11). Each caller picks a {@link Timeouts}; the
 *       values differ on purpose, see {@link #COORDINATOR}, {@link #WORKER_S3}, {@link #WORKER_SQS}
 *       and {@link #TOOLS}.
 * </ul>
 *
 * <p>This class names no service client but S3's presigner, so a caller depends only on the
 * services it uses: {@code configure(DynamoDbClient.builder(), COORDINATOR).build()}.
 */
public final class AwsClients {

  /**
   * The bounds of a client's calls.
   *
   * @param connect longest TCP connect
   * @param socketRead longest wait for the next byte of a response (the URL connection's socket
   *     timeout)
   * @param apiCallAttempt longest single HTTP attempt (for GetObject: until the response headers
   *     arrive, the body is read afterwards from the returned stream), or {@code null} for none
   * @param apiCall longest call with its retries, or {@code null} for none
   */
  public record Timeouts(
      Duration connect, Duration socketRead, Duration apiCallAttempt, Duration apiCall) {
    public Timeouts {
      Objects.requireNonNull(connect, "connect");
      Objects.requireNonNull(socketRead, "socketRead");
    }
  }

  /**
   * The coordinator functions' clients (S3, SQS, DynamoDB, SSM, Secrets Manager, EventBridge): 2 s
   * per attempt and to connect or wait for a byte, 5 s per call with retries, well under the API
   * function's 29 s timeout (API Gateway's integration limit), so an endpoint that hangs makes the
   * request fail fast with 503 instead of meeting the function's timeout between a claim and its
   * dispatch. Every coordinator call is small (HEAD, a ranged GET of 4 KiB, single items, single
   * messages).
   */
  public static final Timeouts COORDINATOR =
      new Timeouts(
          Duration.ofSeconds(2),
          Duration.ofSeconds(2),
          Duration.ofSeconds(2),
          Duration.ofSeconds(5));

  /**
   * A worker's S3 client: 60 s per attempt, 100 s per call; the URL connection's defaults (2 s to
   * connect, 30 s without a byte). An attempt of GetObject ends when the headers arrive, so a
   * download of any length that keeps flowing is never cut (the step's budget bounds it). An
   * attempt of PutObject includes sending the body: 60 s carries the 100 MiB limit ({@code
   * MAX_SOURCE_BYTES}) at 1.7 MiB/s, far below what Lambda reaches to S3 in its region. The call
   * timeout lets a quick retry follow a failed attempt and stays below the shortest worker timeout
   * of {@code template.yaml} (120 s).
   */
  public static final Timeouts WORKER_S3 =
      new Timeouts(
          Duration.ofSeconds(2),
          Duration.ofSeconds(30),
          Duration.ofSeconds(60),
          Duration.ofSeconds(100));

  /**
   * A worker's SQS client: 3 s per attempt, 10 s per call. A step result is a SendMessage of at
   * most a few KiB, answered in milliseconds; 10 s leaves room for the SDK's retries and stays
   * within the default 10 s deadline margin in which the last results of a batch are sent.
   */
  public static final Timeouts WORKER_SQS =
      new Timeouts(
          Duration.ofSeconds(2),
          Duration.ofSeconds(30),
          Duration.ofSeconds(3),
          Duration.ofSeconds(10));

  /**
   * Tools and tests (the local cloud, the bench, provisioning): the URL connection's defaults and
   * no call timeout, since they provision stacks and move whole corpora and a person is watching.
   */
  public static final Timeouts TOOLS =
      new Timeouts(Duration.ofSeconds(2), Duration.ofSeconds(30), null, null);

  /**
   * An endpoint the caller names instead of the SDK's default chains (moto, LocalStack).
   *
   * @param uri the endpoint, e.g. {@code http://127.0.0.1:5000}
   * @param region the region to sign for
   * @param accessKeyId static access key id
   * @param secretAccessKey static secret access key
   */
  public record Endpoint(URI uri, String region, String accessKeyId, String secretAccessKey) {
    public Endpoint {
      Objects.requireNonNull(uri, "uri");
      Objects.requireNonNull(region, "region");
      Objects.requireNonNull(accessKeyId, "accessKeyId");
      Objects.requireNonNull(secretAccessKey, "secretAccessKey");
    }
  }

  private AwsClients() {}

  /**
   * Sets the HTTP client and {@code timeouts} on {@code builder}; endpoint, region and credentials
   * stay with the SDK's default chains.
   *
   * @return {@code builder}, for service-specific settings and {@code build()}
   */
  public static <B extends AwsSyncClientBuilder<B, ?> & AwsClientBuilder<B, ?>> B configure(
      B builder, Timeouts timeouts) {
    builder.httpClientBuilder(http(timeouts));
    builder.overrideConfiguration(bounds(timeouts));
    return builder;
  }

  /**
   * As {@link #configure(AwsSyncClientBuilder, Timeouts)}, against {@code endpoint} with its region
   * and static credentials.
   */
  public static <B extends AwsSyncClientBuilder<B, ?> & AwsClientBuilder<B, ?>> B configure(
      B builder, Timeouts timeouts, Endpoint endpoint) {
    configure(builder, timeouts);
    builder
        .endpointOverride(endpoint.uri())
        .region(Region.of(endpoint.region()))
        .credentialsProvider(credentials(endpoint));
    return builder;
  }

  /**
   * An S3 presigner (it makes no request, so it has no HTTP client or timeouts); path-style URLs
   * iff {@code pathStyle}; endpoint, region and credentials from the SDK's default chains.
   */
  public static S3Presigner s3Presigner(boolean pathStyle) {
    return S3Presigner.builder().serviceConfiguration(pathStyle(pathStyle)).build();
  }

  /** An S3 presigner against {@code endpoint}; path-style URLs iff {@code pathStyle}. */
  public static S3Presigner s3Presigner(boolean pathStyle, Endpoint endpoint) {
    return S3Presigner.builder()
        .serviceConfiguration(pathStyle(pathStyle))
        .endpointOverride(endpoint.uri())
        .region(Region.of(endpoint.region()))
        .credentialsProvider(credentials(endpoint))
        .build();
  }

  /** The call and attempt timeouts of {@code timeouts} as the SDK's override configuration. */
  public static ClientOverrideConfiguration bounds(Timeouts timeouts) {
    return ClientOverrideConfiguration.builder()
        .apiCallAttemptTimeout(timeouts.apiCallAttempt())
        .apiCallTimeout(timeouts.apiCall())
        .build();
  }

  private static UrlConnectionHttpClient.Builder http(Timeouts timeouts) {
    return UrlConnectionHttpClient.builder()
        .connectionTimeout(timeouts.connect())
        .socketTimeout(timeouts.socketRead());
  }

  private static S3Configuration pathStyle(boolean pathStyle) {
    return S3Configuration.builder().pathStyleAccessEnabled(pathStyle).build();
  }

  private static StaticCredentialsProvider credentials(Endpoint endpoint) {
    return StaticCredentialsProvider.create(
        AwsBasicCredentials.create(endpoint.accessKeyId(), endpoint.secretAccessKey()));
  }
}
