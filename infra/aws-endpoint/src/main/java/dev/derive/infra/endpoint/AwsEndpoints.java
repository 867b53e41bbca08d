package dev.derive.infra.endpoint;

import java.net.URI;
import java.nio.file.Path;
import java.util.Locale;

/**
 * Chooses the AWS endpoint for local work and tests, by one setting: the system property {@value
 * #PROPERTY} (or the environment variable {@value #VARIABLE}).
 *
 * <ul>
 *   <li>{@code moto}: a moto server started on a free loopback port;
 *   <li>{@code external}: the endpoint named by {@code AWS_ENDPOINT_URL} (e.g. a LocalStack already
 *       running), which must be set;
 *   <li>{@code localstack}: LocalStack through Testcontainers ({@link LocalStackEndpoint}), which
 *       needs a Docker engine;
 *   <li>unset: {@code external} if {@code AWS_ENDPOINT_URL} is set, otherwise {@code moto}.
 * </ul>
 *
 * A mode that cannot start fails with {@link EndpointUnavailableException}; there is no fallback to
 * another mode.
 */
public final class AwsEndpoints {
  /** The system property naming the mode. */
  public static final String PROPERTY = "derive.endpoint";

  /** The environment variable naming the mode when the property is not set. */
  public static final String VARIABLE = "DERIVE_ENDPOINT";

  /** The endpoint modes. */
  public enum Mode {
    /** A moto server this process starts. */
    MOTO,
    /** LocalStack in a container started through Testcontainers. */
    LOCALSTACK,
    /** An endpoint someone else runs, named by {@code AWS_ENDPOINT_URL}. */
    EXTERNAL
  }

  private AwsEndpoints() {}

  /**
   * The selected mode: {@value #PROPERTY}, else {@value #VARIABLE}, else {@code EXTERNAL} if {@code
   * AWS_ENDPOINT_URL} is set, else {@code MOTO}.
   *
   * @throws EndpointUnavailableException if the setting names no mode
   */
  public static Mode selectedMode() {
    String value = System.getProperty(PROPERTY);
    if (value == null || value.isBlank()) {
      value = System.getenv(VARIABLE);
    }
    if (value == null || value.isBlank()) {
      return endpointUrl() == null ? Mode.MOTO : Mode.EXTERNAL;
    }
    try {
      return Mode.valueOf(value.trim().toUpperCase(Locale.ROOT));
    } catch (IllegalArgumentException e) {
      throw new EndpointUnavailableException(
          PROPERTY + "=" + value + " names no endpoint mode; use moto, localstack or external");
    }
  }

  /**
   * Starts (or, for {@code external}, names) the endpoint of the {@linkplain #selectedMode()
   * selected mode}.
   *
   * @param workDir folder for the endpoint's log ({@code moto.log})
   * @throws EndpointUnavailableException if it cannot start; the message says what to install
   */
  public static AwsEndpoint startDefault(Path workDir) {
    return start(selectedMode(), workDir);
  }

  /**
   * Starts (or names) the endpoint of {@code mode}.
   *
   * @throws EndpointUnavailableException if it cannot start: moto not installed, no Docker engine
   *     for LocalStack, or {@code AWS_ENDPOINT_URL} unset for {@code external}
   */
  public static AwsEndpoint start(Mode mode, Path workDir) {
    return switch (mode) {
      case MOTO -> MotoServerEndpoint.start(workDir.resolve("moto.log"));
      case LOCALSTACK -> LocalStackEndpoint.start();
      case EXTERNAL -> {
        String url = endpointUrl();
        if (url == null) {
          throw new EndpointUnavailableException(
              PROPERTY + "=external needs AWS_ENDPOINT_URL, e.g. http://localhost:4566");
        }
        yield new ExternalEndpoint(URI.create(url));
      }
    };
  }

  private static String endpointUrl() {
    String configured = System.getenv("AWS_ENDPOINT_URL");
    return configured == null || configured.isBlank() ? null : configured.trim();
  }
}
