package dev.derive.coordinator.api;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.derive.aws.lambda.SnapStartPriming;
import dev.derive.coordinator.service.DerivativeService;
import dev.derive.coordinator.upload.UploadService;
import dev.derive.coordinator.validate.InvalidRequestException;
import dev.derive.coordinator.validate.RequestValidator;
import dev.derive.protocol.JobStatus;
import dev.derive.protocol.capability.CapabilityCatalogue;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.event.Startup;
import jakarta.enterprise.inject.Instance;
import jakarta.inject.Inject;
import java.io.IOException;

/**
 * What the coordinator API primes for SnapStart ({@link SnapStartPriming}): before the snapshot
 * only, the services (so their S3, presigner, DynamoDB and SQS clients) are built and {@link
 * #prime} runs a sample request through Jackson and the request validator, so their classes and
 * caches are in the snapshot. Nothing of it at startup: a function without SnapStart (the local
 * cloud, a deployment that turns it off) starts without them and makes each on its first use, so
 * its Init is Quarkus alone (issue 31 item 7: the API's Init was 1.8 s, most of it these parts).
 */
@ApplicationScoped
public class ApiPriming {
  private final ObjectMapper mapper;
  private final Instance<RequestValidator> validator;
  private final Instance<DerivativeService> derivatives;
  private final Instance<UploadService> uploads;
  private SnapStartPriming registration;

  /**
   * @param mapper the REST layer's mapper
   * @param validator the validator requests go through (its schema compiled once)
   * @param derivatives built before the snapshot, with its SDK clients
   * @param uploads built before the snapshot, with the presigner
   */
  @Inject
  ApiPriming(
      ObjectMapper mapper,
      Instance<RequestValidator> validator,
      Instance<DerivativeService> derivatives,
      Instance<UploadService> uploads) {
    this.mapper = mapper;
    this.validator = validator;
    this.derivatives = derivatives;
    this.uploads = uploads;
  }

  /**
   * A representative {@code POST /v1/derivatives} body, made from the deployed declarations: the
   * first declared preset spelled out (its target or steps), else a target of the first media type
   * a capability writes.
   */
  static ObjectNode sampleRequest(RequestValidator validator) {
    ObjectNode body = JsonNodeFactory.instance.objectNode();
    body.putObject("source").put("key", "uploads/priming/sample");
    CapabilityCatalogue capabilities = validator.capabilities();
    var presets = capabilities.presets().properties().iterator();
    if (presets.hasNext()) {
      JsonNode preset = presets.next().getValue();
      String member = preset.has("target") ? "target" : "steps";
      body.set(member, preset.get(member).deepCopy());
    } else if (!capabilities.capabilities().isEmpty()) {
      body.putObject("target")
          .put("mediaType", capabilities.capabilities().getFirst().writes().getFirst());
    }
    return body;
  }

  /** Registers the priming when the application starts (CDI {@link Startup}). */
  void register(@Observes Startup startup) {
    registration =
        SnapStartPriming.register(
            () -> {
              derivatives.get(); // @Singleton: the bean itself, built now
              uploads.get();
              prime(mapper, validator.get());
            });
  }

  /**
   * Parses, validates and writes back the sample request and a job answer, through the same
   * validator instance requests use (not a second one: compiling the schema again would be start-up
   * work done twice).
   *
   * @throws IOException if Jackson cannot (a broken build, which should fail the deployment)
   */
  static void prime(ObjectMapper mapper, RequestValidator validator) throws IOException {
    JsonNode body = mapper.readTree(mapper.writeValueAsString(sampleRequest(validator)));
    try {
      validator.validate(body);
    } catch (InvalidRequestException refused) {
      // a sample the deployment cannot make (a preset of an undeployed chain); the validator ran
    }
    mapper.writeValueAsString(body);
    mapper.writeValueAsString(
        new SubmissionResponse("0".repeat(64), JobStatus.PENDING, null, "started"));
  }
}
