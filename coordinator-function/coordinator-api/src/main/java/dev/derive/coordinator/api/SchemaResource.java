package dev.derive.coordinator.api;

import dev.derive.coordinator.validate.RequestValidator;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;

/**
 * {@code GET /v1/schema}: the JSON Schema (draft 2020-12) every {@code POST /v1/derivatives} body
 * is validated against, generated from the capabilities this deployment dispatches to
 * (docs/request-schema.md). The OpenAPI document embeds the same schema for the request body.
 */
@Path("/v1/schema")
public class SchemaResource {
  /** The media type of a JSON Schema (JSON Schema core, draft 2020-12, section 13). */
  static final String SCHEMA_JSON = "application/schema+json";

  private final String schema;

  SchemaResource(RequestValidator validator) {
    this.schema = validator.schema().toString();
  }

  /** The request schema, as JSON text. */
  @GET
  @Produces(SCHEMA_JSON)
  @Operation(summary = "The JSON Schema of a POST /v1/derivatives body")
  @APIResponse(responseCode = "200", description = "The schema (draft 2020-12)")
  public String schema() {
    return schema;
  }
}
