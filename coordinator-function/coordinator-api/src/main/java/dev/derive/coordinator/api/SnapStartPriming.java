package dev.derive.coordinator.api;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.derive.coordinator.service.DerivativeService;
import dev.derive.coordinator.upload.UploadService;
import dev.derive.coordinator.validate.RequestValidator;
import dev.derive.protocol.JobStatus;
import dev.derive.protocol.capability.Capabilities;
import io.quarkus.runtime.Startup;
import jakarta.annotation.PostConstruct;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.io.IOException;
import org.crac.Context;
import org.crac.Core;
import org.crac.Resource;

/**
 * Lambda SnapStart priming of the coordinator API (CRaC {@code beforeCheckpoint}, see the Quarkus
 * "AWS Lambda SnapStart" guide): injecting the services at startup builds the S3, presigner,
 * DynamoDB and SQS clients before the snapshot, and {@link #prime} runs a sample request through
 * Jackson and the request validator so their classes and caches are in the snapshot too.
 *
 * <p>Nothing unique is captured: no request reaches AWS (no connection, no credentials resolved),
 * no id or random value is generated.
 */
@Startup
@ApplicationScoped
public class SnapStartPriming implements Resource {
  /** A representative {@code POST /v1/derivatives} body. */
  static final String SAMPLE_REQUEST =
      "{\"source\":{\"key\":\"uploads/priming/sample.jpg\"},\"target\":{\"mediaType\":"
          + "\"image/jpeg\",\"width\":256,\"height\":256,\"fit\":\"inside\"}}";

  private final ObjectMapper mapper;

  /**
   * @param mapper the REST layer's mapper
   * @param derivatives injected only so the SDK clients are built before the snapshot
   * @param uploads injected only so the presigner is built before the snapshot
   */
  @Inject
  SnapStartPriming(ObjectMapper mapper, DerivativeService derivatives, UploadService uploads) {
    this.mapper = mapper;
  }

  @PostConstruct
  void register() {
    Core.getGlobalContext().register(this);
  }

  @Override
  public void beforeCheckpoint(Context<? extends Resource> context) throws IOException {
    prime(mapper);
  }

  @Override
  public void afterRestore(Context<? extends Resource> context) {
    // Nothing to renew: the SDK resolves credentials and opens connections on first use.
  }

  /**
   * Parses, validates and writes back the sample request and a job answer.
   *
   * @throws IOException if Jackson cannot (a broken build, which should fail the deployment)
   */
  static void prime(ObjectMapper mapper) throws IOException {
    JsonNode body = mapper.readTree(SAMPLE_REQUEST);
    new RequestValidator(Capabilities.ALL).validate(body);
    mapper.writeValueAsString(body);
    mapper.writeValueAsString(
        new SubmissionResponse("0".repeat(64), JobStatus.PENDING, null, "started"));
  }
}
