package dev.derive.coordinator.api;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.derive.aws.lambda.SnapStartPriming;
import dev.derive.coordinator.service.DerivativeService;
import dev.derive.coordinator.upload.UploadService;
import dev.derive.coordinator.validate.InvalidRequestException;
import dev.derive.coordinator.validate.RequestValidator;
import dev.derive.protocol.JobStatus;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.event.Startup;
import jakarta.inject.Inject;
import java.io.IOException;

/**
 * What the coordinator API primes for SnapStart ({@link SnapStartPriming}): injecting the services
 * at startup builds the S3, presigner, DynamoDB and SQS clients, and before the snapshot {@link
 * #prime} runs a sample request through Jackson and the request validator so their classes and
 * caches are in the snapshot too.
 */
@ApplicationScoped
public class ApiPriming {
  /** A representative {@code POST /v1/derivatives} body. */
  static final String SAMPLE_REQUEST =
      "{\"source\":{\"key\":\"uploads/priming/sample.jpg\"},\"target\":{\"mediaType\":"
          + "\"image/jpeg\",\"width\":256,\"height\":256,\"fit\":\"inside\"}}";

  private final ObjectMapper mapper;
  private final RequestValidator validator;
  private SnapStartPriming registration;

  /**
   * @param mapper the REST layer's mapper
   * @param validator the validator requests go through (its schema compiled once, at startup)
   * @param derivatives injected only so the SDK clients are built at startup
   * @param uploads injected only so the presigner is built at startup
   */
  @Inject
  ApiPriming(
      ObjectMapper mapper,
      RequestValidator validator,
      DerivativeService derivatives,
      UploadService uploads) {
    this.mapper = mapper;
    this.validator = validator;
  }

  /** Registers the priming when the application starts (CDI {@link Startup}). */
  void register(@Observes Startup startup) {
    registration = SnapStartPriming.register(() -> prime(mapper, validator));
  }

  /**
   * Parses, validates and writes back the sample request and a job answer, through the same
   * validator instance requests use (not a second one: compiling the schema again would be start-up
   * work done twice).
   *
   * @throws IOException if Jackson cannot (a broken build, which should fail the deployment)
   */
  static void prime(ObjectMapper mapper, RequestValidator validator) throws IOException {
    JsonNode body = mapper.readTree(SAMPLE_REQUEST);
    try {
      validator.validate(body);
    } catch (InvalidRequestException refused) {
      // a deployment without the image capability refuses the sample; the validator still ran
    }
    mapper.writeValueAsString(body);
    mapper.writeValueAsString(
        new SubmissionResponse("0".repeat(64), JobStatus.PENDING, null, "started"));
  }
}
