package dev.derive.coordinator.api;

import com.fasterxml.jackson.databind.JsonNode;
import dev.derive.coordinator.upload.Upload;
import dev.derive.coordinator.upload.UploadService;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.util.Map;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.enums.SchemaType;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.media.SchemaProperty;
import org.eclipse.microprofile.openapi.annotations.parameters.RequestBody;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;

/**
 * {@code /v1/uploads}: a presigned PUT into the source bucket, so clients upload sources without
 * AWS credentials. The bytes go straight to S3, never through Lambda (6 MB payload limit).
 */
@Path("/v1/uploads")
@Produces(MediaType.APPLICATION_JSON)
public class UploadsResource {
  private final UploadService uploads;

  UploadsResource(UploadService uploads) {
    this.uploads = uploads;
  }

  /**
   * The body of a created upload.
   *
   * @param key the source key to name in {@code POST /v1/derivatives} once uploaded
   * @param upload how to upload: method, URL, headers to send unchanged, expiry (RFC 3339)
   */
  public record UploadResponse(String key, Map<String, Object> upload) {}

  /** Declares an upload; answers 201 with the key and the presigned PUT. */
  @POST
  @Consumes(MediaType.APPLICATION_JSON)
  @Operation(summary = "Get a presigned upload for a new source object")
  @RequestBody(
      description = "{\"fileName\":\"cat.jpg\",\"contentType\":\"image/jpeg\",\"size\":123456}",
      required = true,
      content =
          @Content(
              mediaType = MediaType.APPLICATION_JSON,
              schema =
                  @Schema(
                      type = SchemaType.OBJECT,
                      additionalProperties = Schema.False.class,
                      requiredProperties = {"fileName", "contentType", "size"},
                      properties = {
                        @SchemaProperty(
                            name = "fileName",
                            type = SchemaType.STRING,
                            description = "the file's name; the key's last segment"),
                        @SchemaProperty(
                            name = "contentType",
                            type = SchemaType.STRING,
                            description = "the media type the PUT must send"),
                        @SchemaProperty(
                            name = "size",
                            type = SchemaType.INTEGER,
                            minimum = "1",
                            description = "bytes the PUT must send (Content-Length)")
                      })))
  @APIResponse(
      responseCode = "201",
      description = "Upload with PUT to upload.url",
      content =
          @Content(
              mediaType = MediaType.APPLICATION_JSON,
              schema = @Schema(implementation = UploadResponse.class)))
  @APIResponse(responseCode = "400", description = "Invalid declaration (problem+json)")
  @APIResponse(responseCode = "413", description = "Declared size over the limit")
  public Response create(JsonNode body) {
    Upload upload = uploads.create(body);
    return Response.status(Response.Status.CREATED)
        .entity(
            new UploadResponse(
                upload.key(),
                Map.of(
                    "method", "PUT",
                    "url", upload.put().url().toString(),
                    "headers", upload.put().headers(),
                    "expiresAt", upload.put().expiresAt().toString())))
        .build();
  }
}
