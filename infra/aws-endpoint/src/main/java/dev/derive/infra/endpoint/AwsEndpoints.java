package dev.derive.infra.endpoint;

import java.net.URI;
import java.nio.file.Path;

/** Chooses the AWS endpoint for local work and tests. */
public final class AwsEndpoints {
  private AwsEndpoints() {}

  /**
   * Returns the endpoint named by {@code AWS_ENDPOINT_URL} when it is set, otherwise starts a moto
   * server on a free loopback port.
   *
   * @param workDir folder for the endpoint's log ({@code moto.log})
   * @throws EndpointUnavailableException if neither is available; the message says what to install
   */
  public static AwsEndpoint startDefault(Path workDir) {
    String configured = System.getenv("AWS_ENDPOINT_URL");
    if (configured != null && !configured.isBlank()) {
      return new ExternalEndpoint(URI.create(configured.trim()));
    }
    return MotoServerEndpoint.start(workDir.resolve("moto.log"));
  }
}
