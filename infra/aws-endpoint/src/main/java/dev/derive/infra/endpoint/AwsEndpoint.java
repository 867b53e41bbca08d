package dev.derive.infra.endpoint;

import java.net.URI;
import java.util.Map;

/**
 * An AWS-compatible endpoint serving S3, SQS and DynamoDB (a moto server, LocalStack, or any
 * endpoint named by {@code AWS_ENDPOINT_URL}). Functions and tests reach it only through the SDK's
 * standard settings, which {@link #environment()} lists.
 */
public interface AwsEndpoint extends AutoCloseable {

  /** The endpoint's base URI, e.g. {@code http://127.0.0.1:41234}. */
  URI uri();

  /** The region to sign requests for. */
  default String region() {
    return "us-east-1";
  }

  /** The access key id to sign requests with (any value works on a local endpoint). */
  default String accessKeyId() {
    return "test";
  }

  /** The secret access key to sign requests with. */
  default String secretAccessKey() {
    return "test";
  }

  /**
   * The environment variables that point an AWS SDK (and Derive's functions) at this endpoint:
   * {@code AWS_ENDPOINT_URL}, {@code AWS_REGION}, credentials, and {@code DERIVE_S3_PATH_STYLE} (a
   * local endpoint cannot serve virtual-hosted bucket names).
   */
  default Map<String, String> environment() {
    return Map.of(
        "AWS_ENDPOINT_URL", uri().toString(),
        "AWS_REGION", region(),
        "AWS_DEFAULT_REGION", region(),
        "AWS_ACCESS_KEY_ID", accessKeyId(),
        "AWS_SECRET_ACCESS_KEY", secretAccessKey(),
        "DERIVE_S3_PATH_STYLE", "true");
  }

  /** A short description for logs, e.g. {@code moto server at http://127.0.0.1:41234}. */
  String describe();

  /** Stops the endpoint if this process started it; otherwise does nothing. */
  @Override
  void close();
}
