package dev.derive.infra.endpoint;

import java.util.Map;

/**
 * Points every AWS SDK v2 client created in this JVM at an {@link AwsEndpoint} through the SDK's
 * standard system properties ({@code aws.endpointUrl}, {@code aws.region}, {@code aws.accessKeyId},
 * {@code aws.secretAccessKey}), the in-process twin of the environment that {@link
 * AwsEndpoint#environment()} gives a function process. For tests that run function code in the test
 * JVM (e.g. {@code @QuarkusTest}).
 */
public final class SdkSystemProperties {
  private SdkSystemProperties() {}

  /** Sets the properties for {@code endpoint}. */
  public static void set(AwsEndpoint endpoint) {
    properties(endpoint).forEach(System::setProperty);
  }

  /** Clears the properties {@link #set} sets. */
  public static void clear() {
    for (String name :
        new String[] {"aws.endpointUrl", "aws.region", "aws.accessKeyId", "aws.secretAccessKey"}) {
      System.clearProperty(name);
    }
  }

  private static Map<String, String> properties(AwsEndpoint endpoint) {
    return Map.of(
        "aws.endpointUrl", endpoint.uri().toString(),
        "aws.region", endpoint.region(),
        "aws.accessKeyId", endpoint.accessKeyId(),
        "aws.secretAccessKey", endpoint.secretAccessKey());
  }
}
