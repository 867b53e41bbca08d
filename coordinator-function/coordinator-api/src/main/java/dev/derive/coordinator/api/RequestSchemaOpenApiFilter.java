package dev.derive.coordinator.api;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.derive.coordinator.config.DeployedCapabilities;
import dev.derive.protocol.capability.CapabilityCatalogue;
import dev.derive.protocol.capability.RequestSchema;
import io.quarkus.arc.Arc;
import io.quarkus.smallrye.openapi.OpenApiFilter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.eclipse.microprofile.openapi.OASFactory;
import org.eclipse.microprofile.openapi.OASFilter;
import org.eclipse.microprofile.openapi.models.OpenAPI;
import org.eclipse.microprofile.openapi.models.Operation;
import org.eclipse.microprofile.openapi.models.PathItem;
import org.eclipse.microprofile.openapi.models.media.Schema;

/**
 * Puts protocol's {@link RequestSchema} into the OpenAPI document ({@code GET /q/openapi}) as the
 * component {@value #COMPONENT}, and makes it the request body of {@code POST /v1/derivatives} in
 * place of the {@code JsonNode} the resource method takes. It runs when the function starts, on the
 * capabilities the deployment dispatches to ({@link DeployedCapabilities}, the bean every part
 * uses), so the document describes the same requests {@code GET /v1/schema} does.
 */
@OpenApiFilter(stages = OpenApiFilter.RunStage.RUNTIME_PER_REQUEST)
public class RequestSchemaOpenApiFilter implements OASFilter {
  /** The name of the request schema among the document's components. */
  public static final String COMPONENT = "DerivativeRequest";

  private static final ObjectMapper JSON = new ObjectMapper();

  /** Keywords whose value is one schema. */
  private static final Set<String> SCHEMA_VALUED = Set.of("items", "if", "then", "else", "not");

  /** Keywords whose value is a list of schemas. */
  private static final Set<String> SCHEMA_LISTS = Set.of("allOf", "anyOf", "oneOf");

  /** Adds the component and points the request body at it. */
  @Override
  public void filterOpenAPI(OpenAPI openAPI) {
    CapabilityCatalogue capabilities =
        Arc.container().instance(DeployedCapabilities.class).get().catalogue();
    JsonNode schema = RequestSchema.of(capabilities.capabilities(), capabilities.targetOptions());
    if (openAPI.getComponents() == null) {
      openAPI.setComponents(OASFactory.createComponents());
    }
    openAPI.getComponents().addSchema(COMPONENT, schema(schema));
    PathItem derivatives =
        openAPI.getPaths() == null ? null : openAPI.getPaths().getPathItem("/v1/derivatives");
    Operation post = derivatives == null ? null : derivatives.getPOST();
    if (post == null || post.getRequestBody() == null) {
      throw new IllegalStateException("the OpenAPI document has no POST /v1/derivatives body");
    }
    post.getRequestBody()
        .getContent()
        .getMediaTypes()
        .values()
        .forEach(
            m -> m.setSchema(OASFactory.createSchema().ref("#/components/schemas/" + COMPONENT)));
  }

  /** {@code node} (a JSON Schema object or boolean) as the OpenAPI model's schema. */
  static Schema schema(JsonNode node) {
    Schema schema = OASFactory.createSchema();
    if (node.isBoolean()) {
      return node.booleanValue() ? schema : schema.not(OASFactory.createSchema());
    }
    node.properties()
        .forEach(
            member -> {
              String keyword = member.getKey();
              JsonNode value = member.getValue();
              if (keyword.equals("properties")) {
                Map<String, Schema> properties = new LinkedHashMap<>();
                value.properties().forEach(p -> properties.put(p.getKey(), schema(p.getValue())));
                schema.setProperties(properties);
              } else if (keyword.equals("additionalProperties") && value.isBoolean()) {
                schema.setAdditionalPropertiesBoolean(value.booleanValue());
              } else if (SCHEMA_VALUED.contains(keyword)) {
                schema.set(keyword, schema(value));
              } else if (SCHEMA_LISTS.contains(keyword)) {
                List<Schema> schemas = new ArrayList<>();
                value.forEach(v -> schemas.add(schema(v)));
                schema.set(keyword, schemas);
              } else {
                schema.set(keyword, JSON.convertValue(value, Object.class));
              }
            });
    return schema;
  }
}
