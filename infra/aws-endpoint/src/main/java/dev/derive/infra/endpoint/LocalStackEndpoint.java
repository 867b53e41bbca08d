package dev.derive.infra.endpoint;

import java.net.URI;
import java.util.Map;
import org.testcontainers.DockerClientFactory;
import org.testcontainers.localstack.LocalStackContainer;
import org.testcontainers.utility.DockerImageName;

/**
 * LocalStack in a container started through Testcontainers (needs a Docker engine), serving S3, SQS
 * and DynamoDB. {@code LOCALSTACK_AUTH_TOKEN} is passed into the container when set (LocalStack
 * asks for one). The image is {@value #DEFAULT_IMAGE} unless {@code -Dderive.localstack.image}
 * names another.
 */
public final class LocalStackEndpoint implements AwsEndpoint {
  /** The LocalStack image used unless {@code derive.localstack.image} is set. */
  public static final String DEFAULT_IMAGE = "localstack/localstack:4.10";

  private final LocalStackContainer container;

  private LocalStackEndpoint(LocalStackContainer container) {
    this.container = container;
  }

  /**
   * Starts a LocalStack container and waits until it serves requests.
   *
   * @throws EndpointUnavailableException if Testcontainers is not on the class path, no Docker
   *     engine is reachable, or the container does not start; the message says what is needed
   */
  public static LocalStackEndpoint start() {
    try {
      Class.forName("org.testcontainers.DockerClientFactory");
    } catch (ClassNotFoundException e) {
      throw new EndpointUnavailableException(
          "the LocalStack endpoint needs org.testcontainers:testcontainers-localstack on the class"
              + " path",
          e);
    }
    if (!dockerAvailable()) {
      throw new EndpointUnavailableException(
          "the LocalStack endpoint (derive.endpoint=localstack) needs a Docker engine, and none is"
              + " reachable here: install and start Docker (or set DOCKER_HOST), or use"
              + " derive.endpoint=moto (the default) or derive.endpoint=external with"
              + " AWS_ENDPOINT_URL");
    }
    String image = System.getProperty("derive.localstack.image", DEFAULT_IMAGE);
    LocalStackContainer container =
        new LocalStackContainer(
                DockerImageName.parse(image).asCompatibleSubstituteFor("localstack/localstack"))
            .withServices("s3", "sqs", "dynamodb");
    String token = System.getenv("LOCALSTACK_AUTH_TOKEN");
    if (token != null && !token.isBlank()) {
      container.withEnv(Map.of("LOCALSTACK_AUTH_TOKEN", token));
    }
    try {
      container.start();
    } catch (RuntimeException e) {
      container.close();
      throw new EndpointUnavailableException(
          "LocalStack (" + image + ") did not start: " + e.getMessage(), e);
    }
    return new LocalStackEndpoint(container);
  }

  /** Whether Testcontainers finds a Docker engine (it tries DOCKER_HOST, the socket, …). */
  public static boolean dockerAvailable() {
    try {
      return DockerClientFactory.instance().isDockerAvailable();
    } catch (RuntimeException | LinkageError unavailable) {
      return false;
    }
  }

  @Override
  public URI uri() {
    return container.getEndpoint();
  }

  @Override
  public String region() {
    return container.getRegion();
  }

  @Override
  public String accessKeyId() {
    return container.getAccessKey();
  }

  @Override
  public String secretAccessKey() {
    return container.getSecretKey();
  }

  @Override
  public String describe() {
    return "LocalStack at " + uri() + " (container " + container.getContainerId() + ")";
  }

  @Override
  public void close() {
    container.close();
  }
}
