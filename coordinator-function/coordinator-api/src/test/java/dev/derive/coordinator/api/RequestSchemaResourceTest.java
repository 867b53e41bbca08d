package dev.derive.coordinator.api;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.startsWith;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.derive.coordinator.Declarations;
import dev.derive.coordinator.validate.RequestValidator;
import dev.derive.protocol.capability.RequestSchema;
import io.quarkus.smallrye.openapi.runtime.OpenApiConstants;
import io.quarkus.smallrye.openapi.runtime.OpenApiDocumentService;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.smallrye.openapi.runtime.io.Format;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;

/**
 * {@code GET /v1/schema} and the OpenAPI document's request body of {@code POST /v1/derivatives}.
 * Both are larger than the 8190 bytes Quarkus's mock event server can return (quarkus#44551), so
 * the route is checked with HEAD, the body on the resource, and the document as Quarkus serves it
 * (its document service, after the filter ran at start-up); the end-to-end suite can fetch both
 * through the real Lambda runtime path.
 */
@QuarkusTest
@QuarkusTestResource(LocalCloudResource.class)
class RequestSchemaResourceTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  @Inject SchemaResource resource;
  @Inject RequestValidator validator;
  @Inject OpenApiDocumentService openApi;

  @Test
  void theSchemaIsRoutedAsJsonSchema() {
    given()
        .when()
        .head("/v1/schema")
        .then()
        .statusCode(200)
        .contentType(startsWith(SchemaResource.SCHEMA_JSON));
  }

  @Test
  void theSchemaServedIsTheOneRequestsAreValidatedAgainst() throws Exception {
    JsonNode served = JSON.readTree(resource.schema());

    assertThat(served).isEqualTo(validator.schema());
    assertThat(served.path("$schema").asText()).isEqualTo(RequestSchema.DIALECT);
    assertThat(served.at("/properties/target/properties/mediaType/enum").toString())
        .contains("image/jpeg", "application/pdf", "text/plain");
    assertThat(
            served
                .at("/properties/steps/items/allOf")
                .findValues("angle")
                .getFirst()
                .path("multipleOf")
                .asInt())
        .isEqualTo(90);
  }

  @Test
  void theOpenApiRequestBodyOfPostDerivativesIsTheRequestSchema() throws Exception {
    JsonNode document =
        JSON.readTree(openApi.getDocument(OpenApiConstants.DEFAULT_DOCUMENT_NAME, Format.JSON));

    assertThat(
            document
                .at(
                    "/paths/~1v1~1derivatives/post/requestBody/content/application~1json/schema/$ref")
                .asText())
        .isEqualTo("#/components/schemas/" + RequestSchemaOpenApiFilter.COMPONENT);
    JsonNode component = document.at("/components/schemas/" + RequestSchemaOpenApiFilter.COMPONENT);
    assertThat(component)
        .isEqualTo(RequestSchema.of(Declarations.ALL, Declarations.TARGET_OPTIONS))
        .isEqualTo(validator.schema());
  }

  /**
   * Issue 30 item 16: the answers of POST /v1/derivatives are typed, every error answer is
   * problem+json, the uploads body is typed and the image route declares its parameters.
   */
  @Test
  void theOpenApiDocumentTypesAnswersProblemsUploadsAndImageUrls() throws Exception {
    JsonNode document =
        JSON.readTree(openApi.getDocument(OpenApiConstants.DEFAULT_DOCUMENT_NAME, Format.JSON));
    JsonNode post = document.at("/paths/~1v1~1derivatives/post/responses");

    assertThat(post.at("/200/content/application~1json/schema/oneOf").findValuesAsText("$ref"))
        .containsExactlyInAnyOrder(
            "#/components/schemas/SubmissionResponse", "#/components/schemas/JobResponse");
    assertThat(post.at("/202/content/application~1json/schema/$ref").asText())
        .isEqualTo("#/components/schemas/SubmissionResponse");
    assertThat(document.at("/components/schemas/SubmissionResponse/properties").has("outcome"))
        .isTrue();
    JsonNode problem = document.at("/components/schemas/Problem/properties");
    assertThat(problem.has("type") && problem.has("title") && problem.has("detail")).isTrue();
    document
        .at("/paths")
        .forEach(
            path ->
                path.forEach(
                    operation ->
                        operation
                            .path("responses")
                            .properties()
                            .forEach(
                                answer -> {
                                  if (answer.getKey().matches("[45]\\d\\d")) {
                                    assertThat(
                                            answer
                                                .getValue()
                                                .at(
                                                    "/content/application~1problem+json/schema/$ref")
                                                .asText())
                                        .as("%s %s", operation.path("summary"), answer.getKey())
                                        .isEqualTo("#/components/schemas/Problem");
                                  }
                                })));
    JsonNode upload =
        document.at("/paths/~1v1~1uploads/post/requestBody/content/application~1json/schema");
    assertThat(upload.at("/properties/size/type").asText()).isEqualTo("integer");
    assertThat(upload.path("required").toString()).contains("fileName", "contentType", "size");
    JsonNode image = document.at("/paths/~1v1~1{signature}~1{path}/get/parameters");
    // (OpenAPI ignores a header parameter named Accept: the path's description says what f:auto
    // reads; the DPR client hints are listed)
    assertThat(image.findValuesAsText("name"))
        .containsExactlyInAnyOrder("signature", "path", "Sec-CH-DPR", "DPR");
  }
}
