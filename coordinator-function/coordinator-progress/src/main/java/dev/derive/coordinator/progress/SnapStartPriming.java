package dev.derive.coordinator.progress;

import dev.derive.coordinator.lifecycle.JobLifecycle;
import dev.derive.protocol.capability.Capabilities;
import dev.derive.protocol.message.MessageCodec;
import dev.derive.protocol.message.ObjectRef;
import dev.derive.protocol.message.Operation;
import dev.derive.protocol.message.StepMessage;
import dev.derive.protocol.message.StepResult;
import io.quarkus.runtime.Startup;
import jakarta.annotation.PostConstruct;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.List;
import java.util.Map;
import org.crac.Context;
import org.crac.Core;
import org.crac.Resource;

/**
 * Lambda SnapStart priming of the progress function (CRaC {@code beforeCheckpoint}, see the Quarkus
 * "AWS Lambda SnapStart" guide): injecting the lifecycle at startup builds the DynamoDB and SQS
 * clients before the snapshot, and {@link #prime} round-trips a sample step result and next step
 * through the message codec (the Jackson mapper every message goes through).
 *
 * <p>Nothing unique is captured: no request reaches AWS (no connection, no credentials resolved),
 * no id or random value is generated.
 */
@Startup
@ApplicationScoped
public class SnapStartPriming implements Resource {

  /**
   * @param lifecycle injected only so the SDK clients are built before the snapshot
   */
  @Inject
  SnapStartPriming(JobLifecycle lifecycle) {}

  @PostConstruct
  void register() {
    Core.getGlobalContext().register(this);
  }

  @Override
  public void beforeCheckpoint(Context<? extends Resource> context) {
    prime();
  }

  @Override
  public void afterRestore(Context<? extends Resource> context) {
    // Nothing to renew: the SDK resolves credentials and opens connections on first use.
  }

  /**
   * Encodes and decodes a sample step message and its successful result.
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
            Capabilities.IMAGE,
            List.of(
                new Operation(
                    Capabilities.RESIZE, Map.of("width", 256, "height", 256, "fit", "inside"))),
            ObjectRef.of("priming-source", "uploads/priming/sample.jpg"),
            "image/jpeg",
            ObjectRef.of("priming-derivatives", "derivatives/" + "0".repeat(64)),
            "image/jpeg",
            "priming");
    MessageCodec.decode(MessageCodec.encode(step), StepMessage.class);
    StepResult result = StepResult.success(step, 1, 0, 1, false);
    MessageCodec.decode(MessageCodec.encode(result), StepResult.class);
  }
}
