package dev.derive.coordinator.api;

import io.quarkus.smallrye.openapi.OpenApiFilter;
import org.eclipse.microprofile.openapi.OASFactory;
import org.eclipse.microprofile.openapi.OASFilter;
import org.eclipse.microprofile.openapi.models.OpenAPI;

/**
 * Every error answer of the OpenAPI document ({@code 4xx}, {@code 5xx}) is {@code
 * application/problem+json} with the {@link Problem} schema, as every error of the API is ({@link
 * Problems}), so no resource repeats it on each of its responses. The schema itself is the one
 * generated from {@link Problem} (named by {@code POST /v1/derivatives}' 400).
 */
@OpenApiFilter(stages = OpenApiFilter.RunStage.BUILD)
public class ProblemsOpenApiFilter implements OASFilter {
  static final String PROBLEM_SCHEMA = "#/components/schemas/Problem";

  @Override
  public void filterOpenAPI(OpenAPI openAPI) {
    if (openAPI.getPaths() == null) {
      return;
    }
    openAPI
        .getPaths()
        .getPathItems()
        .values()
        .forEach(
            path ->
                path.getOperations()
                    .values()
                    .forEach(
                        operation -> {
                          if (operation.getResponses() == null) {
                            return;
                          }
                          operation
                              .getResponses()
                              .getAPIResponses()
                              .forEach(
                                  (status, answer) -> {
                                    if (status.startsWith("4") || status.startsWith("5")) {
                                      answer.setContent(
                                          OASFactory.createContent()
                                              .addMediaType(
                                                  Problems.MEDIA_TYPE,
                                                  OASFactory.createMediaType()
                                                      .schema(
                                                          OASFactory.createSchema()
                                                              .ref(PROBLEM_SCHEMA))));
                                    }
                                  });
                        }));
  }
}
