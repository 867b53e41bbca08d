package dev.derive.infra.local.template;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * An {@code AWS::Serverless::Function} with {@code Globals.Function} merged in and every intrinsic
 * evaluated.
 *
 * @param logicalId the resource's logical id
 * @param functionName the function's name ({@code FunctionName}, else {@code <stack>-<logicalId>})
 * @param code the {@code CodeUri}: a zip file or a folder, absolute; for a container image the zip
 *     its Dockerfile copies in ({@link ContainerImageCode})
 * @param handler the handler string, e.g. {@code pkg.Class::method} ({@code ImageConfig.Command}
 *     for a container image)
 * @param runtime e.g. {@code java21}; empty for a container image, which brings its own
 * @param architecture the instruction set of {@code Architectures}: {@code x86_64} (SAM's default)
 *     or {@code arm64}
 * @param layers the {@code Layers}, in order (later ones overwrite files of earlier ones in {@code
 *     /opt}, as on Lambda)
 * @param memorySizeMb {@code MemorySize} in MB (SAM's default 128)
 * @param timeoutSeconds {@code Timeout} in seconds (SAM's default 3)
 * @param environment {@code Environment.Variables}, the function's own over the globals
 * @param reservedConcurrency {@code ReservedConcurrentExecutions}, if set
 * @param httpApiEvents the events of {@code Type: HttpApi}
 * @param sqsEvents the events of {@code Type: SQS}
 */
public record FunctionDefinition(
    String logicalId,
    String functionName,
    Path code,
    String handler,
    Optional<String> runtime,
    String architecture,
    List<LayerDefinition> layers,
    int memorySizeMb,
    int timeoutSeconds,
    Map<String, String> environment,
    OptionalInt reservedConcurrency,
    List<HttpApiEvent> httpApiEvents,
    List<SqsEvent> sqsEvents) {
  public FunctionDefinition {
    layers = List.copyOf(layers);
  }

  /**
   * An HTTP API route to the function.
   *
   * @param method an HTTP method or {@code ANY}; {@code null} with a {@code null} path for the
   *     {@code $default} route
   * @param path e.g. {@code /v1/derivatives/{id}} or {@code /{proxy+}}
   */
  public record HttpApiEvent(String eventId, String method, String path) {
    /** API Gateway's route key, e.g. {@code GET /v1/capabilities} or {@code $default}. */
    public String routeKey() {
      return path == null ? "$default" : method + " " + path;
    }
  }

  /**
   * An SQS event source mapping.
   *
   * @param queueArn the queue's ARN ({@code Queue})
   * @param batchSize {@code BatchSize} (Lambda's default 10)
   * @param maximumBatchingWindowSeconds {@code MaximumBatchingWindowInSeconds} (default 0)
   * @param reportBatchItemFailures whether {@code FunctionResponseTypes} has {@code
   *     ReportBatchItemFailures}
   * @param maximumConcurrency {@code ScalingConfig.MaximumConcurrency}, if set
   * @param enabled {@code Enabled} (default true)
   */
  public record SqsEvent(
      String eventId,
      String queueArn,
      int batchSize,
      int maximumBatchingWindowSeconds,
      boolean reportBatchItemFailures,
      OptionalInt maximumConcurrency,
      boolean enabled) {}
}
