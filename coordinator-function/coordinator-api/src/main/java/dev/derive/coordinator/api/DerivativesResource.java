package dev.derive.coordinator.api;

import com.fasterxml.jackson.databind.JsonNode;
import dev.derive.coordinator.job.DerivativeService;
import dev.derive.coordinator.job.Submission;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.net.URI;
import java.util.UUID;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.parameters.RequestBody;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;

/**
 * {@code /v1/derivatives}: request a derivative and follow its job. A thin adapter: the coordinator
 * core does the work, this class maps its answers to HTTP.
 */
@Path("/v1/derivatives")
@Produces(MediaType.APPLICATION_JSON)
public class DerivativesResource {
  private final DerivativeService service;

  DerivativesResource(DerivativeService service) {
    this.service = service;
  }

  /** Requests a derivative: 200 with a download when cached, else 202 with the job. */
  @POST
  @Consumes(MediaType.APPLICATION_JSON)
  @Operation(summary = "Request a derivative of a source object")
  @RequestBody(
      description =
          "{\"source\":{\"key\":\"...\",\"versionId\":\"...\"},\"target\":{\"mediaType\":"
              + "\"image/jpeg\",\"width\":256,\"height\":256,\"fit\":\"inside\"}}")
  @APIResponse(responseCode = "200", description = "The derivative exists; download it")
  @APIResponse(responseCode = "202", description = "A job makes it; follow Location")
  @APIResponse(responseCode = "400", description = "Invalid request (problem+json)")
  @APIResponse(responseCode = "404", description = "No such source object")
  @APIResponse(responseCode = "413", description = "Source too large")
  @APIResponse(responseCode = "415", description = "Source media type not supported")
  public Response submit(JsonNode body) {
    Submission submission = service.submit(body, UUID.randomUUID().toString());
    SubmissionResponse entity =
        new SubmissionResponse(
            submission.jobId(), submission.status(), DownloadResponse.of(submission.download()));
    if (submission.isReady()) {
      return Response.ok(entity).build();
    }
    return Response.accepted(entity)
        .location(URI.create("/v1/derivatives/" + submission.jobId()))
        .build();
  }

  /** The job's status, steps, error or download; 404 for an unknown id. */
  @GET
  @Path("/{id}")
  @Operation(summary = "Status of a derivative's job")
  @APIResponse(responseCode = "200", description = "The job")
  @APIResponse(responseCode = "404", description = "No such job or derivative")
  public JobResponse status(@PathParam("id") String id) {
    return JobResponse.of(service.status(id));
  }
}
