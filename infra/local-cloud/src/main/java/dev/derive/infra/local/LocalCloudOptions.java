package dev.derive.infra.local;

import dev.derive.infra.endpoint.AwsEndpoint;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * How to start a {@link LocalCloud}. Build with {@link #builder(Path)}; every setting but the
 * template has a default.
 *
 * @param template the SAM template to run
 * @param workDir where function code is extracted and moto logs ({@code <template dir>/.derive})
 * @param httpPort the HTTP API's port on 127.0.0.1 (3000; 0 picks a free one)
 * @param stackName the value of {@code AWS::StackName} ({@code derive-local})
 * @param parameterOverrides template parameter values replacing the defaults
 * @param propertyOverrides resource property values replacing the template's, by {@code
 *     LogicalId.Property[.Key...]} ({@link dev.derive.infra.local.template.PropertyOverrides})
 * @param endpoint an AWS endpoint to use, or {@code null} to start the default one (then it is
 *     stopped with the local cloud)
 * @param log receives every line the local cloud and its functions print ({@code System.out})
 * @param defaultConcurrency instances per function and pollers per SQS event when the template sets
 *     no limit (2)
 * @param initTimeout how long a function instance may take to initialise (60 s)
 * @param pollWaitSeconds the long-polling wait of SQS pollers (2 s; shorter stops faster)
 * @param integrationTimeout how long the HTTP API waits for a function before answering 503 (API
 *     Gateway's 30 s)
 */
public record LocalCloudOptions(
    Path template,
    Path workDir,
    int httpPort,
    String stackName,
    Map<String, String> parameterOverrides,
    Map<String, String> propertyOverrides,
    AwsEndpoint endpoint,
    Consumer<String> log,
    int defaultConcurrency,
    Duration initTimeout,
    int pollWaitSeconds,
    Duration integrationTimeout) {

  /** A builder for {@code template} with every other setting at its default. */
  public static Builder builder(Path template) {
    return new Builder(template);
  }

  /** Builds {@link LocalCloudOptions}. */
  public static final class Builder {
    private final Path template;
    private Path workDir;
    private int httpPort = 3000;
    private String stackName = "derive-local";
    private final Map<String, String> parameterOverrides = new LinkedHashMap<>();
    private final Map<String, String> propertyOverrides = new LinkedHashMap<>();
    private AwsEndpoint endpoint;
    private Consumer<String> log = System.out::println;
    private int defaultConcurrency = 2;
    private Duration initTimeout = Duration.ofSeconds(60);
    private int pollWaitSeconds = 2;
    private Duration integrationTimeout = Duration.ofSeconds(30);

    private Builder(Path template) {
      this.template = Objects.requireNonNull(template, "template").toAbsolutePath().normalize();
    }

    /** Where code is extracted and logs go. */
    public Builder workDir(Path value) {
      this.workDir = value;
      return this;
    }

    /** The HTTP API's port; 0 for a free one. */
    public Builder httpPort(int value) {
      this.httpPort = value;
      return this;
    }

    /** The stack name ({@code AWS::StackName}). */
    public Builder stackName(String value) {
      this.stackName = value;
      return this;
    }

    /** Sets template parameter {@code name} to {@code value}. */
    public Builder parameter(String name, String value) {
      this.parameterOverrides.put(name, value);
      return this;
    }

    /**
     * Replaces the property at {@code path} ({@code LogicalId.Property[.Key...]}, e.g. {@code
     * ImageQueue.VisibilityTimeout}) with {@code value}; the property must exist in the template
     * ({@link dev.derive.infra.local.template.PropertyOverrides}).
     */
    public Builder property(String path, String value) {
      this.propertyOverrides.put(path, value);
      return this;
    }

    /** Uses {@code value} instead of starting an endpoint; the caller keeps ownership. */
    public Builder endpoint(AwsEndpoint value) {
      this.endpoint = value;
      return this;
    }

    /** Where output lines go. */
    public Builder log(Consumer<String> value) {
      this.log = value;
      return this;
    }

    /** Concurrency when the template sets none. */
    public Builder defaultConcurrency(int value) {
      this.defaultConcurrency = value;
      return this;
    }

    /** How long an instance may take to initialise. */
    public Builder initTimeout(Duration value) {
      this.initTimeout = value;
      return this;
    }

    /** The SQS long-polling wait in seconds (0–20). */
    public Builder pollWaitSeconds(int value) {
      this.pollWaitSeconds = value;
      return this;
    }

    /** How long the HTTP API waits for a function before answering 503. */
    public Builder integrationTimeout(Duration value) {
      this.integrationTimeout = value;
      return this;
    }

    /** The options. */
    public LocalCloudOptions build() {
      Path dir = workDir != null ? workDir : template.getParent().resolve(".derive");
      return new LocalCloudOptions(
          template,
          dir.toAbsolutePath().normalize(),
          httpPort,
          stackName,
          Map.copyOf(parameterOverrides),
          java.util.Collections.unmodifiableMap(new LinkedHashMap<>(propertyOverrides)),
          endpoint,
          log,
          defaultConcurrency,
          initTimeout,
          pollWaitSeconds,
          integrationTimeout);
    }
  }
}
