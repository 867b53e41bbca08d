package dev.derive.coordinator.api;

import com.fasterxml.jackson.databind.JsonNode;
import dev.derive.coordinator.service.DerivativeAnswer;
import dev.derive.coordinator.service.DerivativeAsk;
import dev.derive.coordinator.service.DerivativeService;
import dev.derive.coordinator.service.FrontDoor;
import dev.derive.storage.PresignedDownload;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.net.URI;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.parameters.RequestBody;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;

/**
 * {@code /v1/derivatives}: request a derivative and follow its job. A thin adapter: the coordinator
 * core does the work, this class maps its answers to HTTP.
 */
@Path("/v1/derivatives")
@Produces(MediaType.APPLICATION_JSON)
public class DerivativesResource {
  private final FrontDoor door;
  private final DerivativeService service;

  DerivativesResource(FrontDoor door, DerivativeService service) {
    this.door = door;
    this.service = service;
  }

  /**
   * Requests a derivative: 200 with a download when cached or made within {@code wait} seconds,
   * else 202 with the job and its Location; 422 problem+json with the step's error type when the
   * job failed permanently (recently) or within {@code wait}; 503 with Retry-After when AWS does
   * not answer in time.
   */
  @POST
  @Consumes(MediaType.APPLICATION_JSON)
  @Operation(summary = "Request a derivative of a source object")
  @RequestBody(
      description =
          "{\"source\":{\"key\":\"...\",\"versionId\":\"...\"},\"target\":{\"mediaType\":"
              + "\"image/jpeg\",\"width\":256,\"height\":256,\"fit\":\"inside\"},\"wait\":10}"
              + " or {\"source\":{...},\"steps\":[{\"capability\":\"pdf\",\"operation\":"
              + "\"render\",\"params\":{\"page\":1}}]}"
              + " or {\"source\":{...},\"preset\":\"thumb\"} (GET /v1/presets);"
              + " any of them may add \"callback\":\"https://...\" (docs/completion-events.md)")
  @APIResponse(
      responseCode = "200",
      description =
          "The derivative exists (the submission, with its download), or its job ended within"
              + " wait (the job)",
      content =
          @Content(
              mediaType = MediaType.APPLICATION_JSON,
              schema = @Schema(oneOf = {SubmissionResponse.class, JobResponse.class})))
  @APIResponse(
      responseCode = "202",
      description = "A job makes it; follow Location",
      content =
          @Content(
              mediaType = MediaType.APPLICATION_JSON,
              schema = @Schema(implementation = SubmissionResponse.class)))
  @APIResponse(
      responseCode = "400",
      description = "Invalid request",
      content =
          @Content(
              mediaType = Problems.MEDIA_TYPE,
              schema = @Schema(implementation = Problem.class)))
  @APIResponse(responseCode = "404", description = "No such source object")
  @APIResponse(responseCode = "413", description = "Source too large")
  @APIResponse(responseCode = "415", description = "Source media type not supported")
  @APIResponse(
      responseCode = "422",
      description =
          "No chain reaches the target from this source, the source is a password-protected"
              + " document (password-required), or the derivative failed")
  @APIResponse(responseCode = "503", description = "AWS did not answer in time; retry")
  public Response submit(JsonNode body) {
    return switch (door.answer(new DerivativeAsk.Json(body, RequestTelemetry.traceId()))) {
      case DerivativeAnswer.Cached cached ->
          Response.ok(SubmissionResponse.of(cached.submission())).build();
      case DerivativeAnswer.Made made ->
          Response.ok(
                  JobResponse.of(made.view())
                      .withOutcome(SubmissionResponse.outcome(made.submission().outcome())))
              .build();
      case DerivativeAnswer.Running running ->
          Response.accepted(SubmissionResponse.of(running.submission()))
              .location(URI.create("/v1/derivatives/" + running.jobId()))
              .build();
      case DerivativeAnswer.Failed failed -> throw failed.problem();
    };
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

  /**
   * 303 to a presigned download of the derivative; 409 while not done; the job's own problem (its
   * error type, 422) if it failed, as a {@code POST} meeting the failed job answers.
   */
  @GET
  @Path("/{id}/content")
  @Operation(summary = "Redirect to the derivative's content")
  @APIResponse(responseCode = "303", description = "See Location: a presigned download URL")
  @APIResponse(responseCode = "404", description = "No such job or derivative")
  @APIResponse(responseCode = "409", description = "Not made yet; retry later")
  @APIResponse(
      responseCode = "422",
      description = "Its job failed: the job's error type (e.g. password-required, corrupt-input)")
  public Response content(@PathParam("id") String id) {
    PresignedDownload download = service.content(id);
    return Response.seeOther(URI.create(download.url().toString()))
        .header("Cache-Control", "no-store")
        .entity(DownloadResponse.of(download))
        .build();
  }
}
