package dev.derive.coordinator.progress;

import dev.derive.aws.lambda.SnapStartPriming;
import dev.derive.coordinator.config.CoordinatorConfig;
import dev.derive.protocol.MediaTypes;
import dev.derive.protocol.message.MessageCodec;
import dev.derive.protocol.message.ObjectRef;
import dev.derive.protocol.message.Operation;
import dev.derive.protocol.message.StepMessage;
import dev.derive.protocol.message.StepResult;
import io.quarkus.arc.ClientProxy;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.event.Startup;
import jakarta.enterprise.inject.Instance;
import jakarta.inject.Inject;
import java.util.List;
import java.util.Map;

/**
 * What this artifact's functions prime for SnapStart ({@link SnapStartPriming}), by the handler
 * {@code quarkus.lambda.handler} selects; no function builds another handler's beans.
 *
 * <ul>
 *   <li>step results: the lifecycle and its DynamoDB, SQS and S3 clients;
 *   <li>upload events: Tika's detector, the planner, the presets and the coordinator's clients. A
 *       {@code PRESETS_LOCATION} in SSM or S3 is read then: the one AWS request of any priming,
 *       harmless since the document is re-read once its TTL (60 s) has passed after a restore and
 *       the SDK re-resolves credentials;
 *   <li>callbacks: nothing beyond the codec; its sender needs a signing key, which a stack may
 *       leave unset, and building it early would turn that into a failed start.
 * </ul>
 *
 * <p>Then, for every handler, a sample step result and next step go through the message codec. All
 * of it before the snapshot only, not at startup: a function without SnapStart (the local cloud)
 * makes each part on its first batch, and its Init is Quarkus alone (issue 31 item 7).
 */
@ApplicationScoped
public class ProgressPriming {
  private final String handler;
  private final Instance<StepResultBatch> stepResults;
  private final Instance<UploadEventBatch> uploadEvents;
  private SnapStartPriming registration;

  /**
   * @param config the handler this function runs ({@code QUARKUS_LAMBDA_HANDLER})
   */
  @Inject
  ProgressPriming(
      CoordinatorConfig config,
      Instance<StepResultBatch> stepResults,
      Instance<UploadEventBatch> uploadEvents) {
    this.handler = config.function().handler().orElse(StepResultsHandler.NAME);
    this.stepResults = stepResults;
    this.uploadEvents = uploadEvents;
  }

  /** Registers the priming (CDI {@link Startup}). */
  void register(@Observes Startup startup) {
    registration =
        SnapStartPriming.register(
            () -> {
              if (handler.equals(StepResultsHandler.NAME)) {
                ClientProxy.unwrap(stepResults.get()); // the batch bean itself, not its proxy
              }
              if (handler.equals(UploadEventsHandler.NAME)) {
                ClientProxy.unwrap(uploadEvents.get());
              }
              prime();
            });
  }

  /** The registration, kept for the process's lifetime. */
  SnapStartPriming registration() {
    return registration;
  }

  /**
   * Encodes and decodes a sample step message and its successful result. The step is of no
   * capability in particular (the codec treats every capability alike): one operation whose
   * parameters are one of each type a declaration may give, so this function primes the same
   * whichever capabilities are deployed.
   *
   * @throws dev.derive.protocol.message.MalformedMessageException if the codec cannot (a broken
   *     build, which should fail the deployment)
   */
  static void prime() {
    StepMessage step =
        new StepMessage(
            "0".repeat(64),
            0,
            1,
            "priming",
            List.of(new Operation("sample", Map.of("size", 256, "mode", "any", "flag", true))),
            ObjectRef.of("priming-source", "uploads/priming/sample"),
            MediaTypes.APPLICATION_OCTET_STREAM,
            ObjectRef.of("priming-derivatives", "derivatives/" + "0".repeat(64)),
            MediaTypes.APPLICATION_OCTET_STREAM,
            "priming");
    MessageCodec.decode(MessageCodec.encode(step), StepMessage.class);
    StepResult result = StepResult.success(step, 1, 0, 1, false);
    MessageCodec.decode(MessageCodec.encode(result), StepResult.class);
  }
}
