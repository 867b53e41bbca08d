package dev.derive.coordinator.api;

import static dev.derive.coordinator.api.ApiTestData.JPEG_HEAD;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import dev.derive.coordinator.url.UrlSigningKeys;
import dev.derive.infra.endpoint.AwsClients;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import java.util.Map;
import org.eclipse.microprofile.config.ConfigProvider;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * Issue 26 item 1: a request API Gateway let through its anonymous image route is only ever an
 * image URL, whatever its path says, and the job API answers only on its own authorised routes.
 * Each request is an API Gateway event with the route key API Gateway would give it.
 */
@QuarkusTest
@QuarkusTestResource(LocalCloudResource.class)
class ApiRoutesTest {
  private static final String KEY = "routes/cat.jpg";
  private static String jobId;

  /** The route keys of template.yaml's routes (ProductionTemplateTest pins the template's side). */
  private static final String IMAGE_URLS = "GET /v1/{signature}/{proxy+}";

  private static final String DERIVATIVES = "ANY /v1/derivatives/{proxy+}";
  private static final String DEFAULT = "$default";

  /** A job whose id an attacker could know (ids appear in redirects, events and callbacks). */
  @BeforeEach
  void aJob() {
    if (jobId != null) {
      return;
    }
    try (S3Client s3 = AwsClients.s3(ApiTestData.endpoint())) {
      s3.putObject(
          b -> b.bucket(LocalCloudResource.SOURCE_BUCKET).key(KEY),
          RequestBody.fromBytes(JPEG_HEAD));
    }
    jobId =
        given()
            .contentType("application/json")
            .body("{\"source\":{\"key\":\"" + KEY + "\"},\"target\":{\"mediaType\":\"image/png\"}}")
            .post("/v1/derivatives")
            .then()
            .statusCode(202)
            .extract()
            .jsonPath()
            .getString("id");
  }

  private static void assertAnImageUrlRefusal(ApiGatewayEvents.Answer answer) {
    assertThat(answer.status()).as(answer.body().toString()).isEqualTo(403);
    assertThat(answer.body().path("type").asText())
        .isEqualTo("https://derive.dev/problems/invalid-signature");
    assertThat(answer.body().has("steps")).isFalse();
    assertThat(answer.body().has("download")).isFalse();
  }

  /**
   * The spellings: API Gateway chose the image route for each ({@code derivatives;x} is not
   * the literal {@code derivatives}), and this function used to drop the matrix parameter or
   * resolve the dot segments and answer the job API or the OpenAPI document.
   */
  @ParameterizedTest
  @ValueSource(
      strings = {
        "/v1/derivatives;x/{id}",
        "/v1/derivatives;x/{id}/content",
        "/v1/derivatives;/{id}",
        "/v1/Derivatives/{id}",
        "/v1/x/../derivatives/{id}",
        "/v1/x/%2e%2e/derivatives/{id}",
        "/v1/x/../../q/openapi",
        "/v1/x/%2e%2e/%2e%2e/q/openapi",
        "/v1/x/..;/..;/q/openapi",
        "/v1/./derivatives/{id}",
        "/v1//derivatives/{id}",
        "/v1/x/../presets",
        "/v1/x/../capabilities",
        "/v1/derivatives/{id}"
      })
  void aRequestOfTheImageRouteIsOnlyEverAnImageUrl(String path) {
    assertAnImageUrlRefusal(ApiGatewayEvents.get(IMAGE_URLS, path.replace("{id}", jobId)));
  }

  @Test
  void theJobApiAnswersOnItsOwnRoute() {
    ApiGatewayEvents.Answer answer = ApiGatewayEvents.get(DERIVATIVES, "/v1/derivatives/" + jobId);

    assertThat(answer.status()).isEqualTo(200);
    assertThat(answer.body().path("id").asText()).isEqualTo(jobId);
  }

  /** A client of problems: an {@code <img>} would get the fallback image (docs/image-urls.md). */
  private static final Map<String, String> ASKS_FOR_JSON =
      Map.of("accept", "application/problem+json");

  @Test
  void aSignedImageUrlIsServedThroughTheImageRoute() {
    UrlSigningKeys keys =
        UrlSigningKeys.parse(ConfigProvider.getConfig().getValue("URL_SIGNING_KEYS", String.class));
    String path = "/f:png/" + KEY;

    ApiGatewayEvents.Answer answer =
        ApiGatewayEvents.get(IMAGE_URLS, "/v1/" + keys.sign(path) + path, ASKS_FOR_JSON);

    // the job of the JSON request above, still running: the image URL waited and says so
    assertThat(answer.status()).isEqualTo(503);
    assertThat(answer.body().path("detail").asText()).contains(jobId);
  }

  /** Issue 26 item 2: no spelling of a signed URL but the one signed is served. */
  @ParameterizedTest
  @ValueSource(
      strings = {
        "/f:png//{key}",
        "/f:png/./{key}",
        "/f:png/x/../{key}",
        "/f:png/{key};x",
        "/f:png;x/{key}",
        "/./f:png/{key}",
        "/f:png/{key}/"
      })
  void noOtherSpellingOfASignedImageUrlIsServed(String variant) {
    UrlSigningKeys keys =
        UrlSigningKeys.parse(ConfigProvider.getConfig().getValue("URL_SIGNING_KEYS", String.class));
    String signature = keys.sign("/f:png/" + KEY);

    assertAnImageUrlRefusal(
        ApiGatewayEvents.get(IMAGE_URLS, "/v1/" + signature + variant.replace("{key}", KEY)));
  }

  /**
   * API Gateway hands the path over decoded: characters a URI path cannot hold as they are still
   * reach the resources (ApiGatewayHandler encodes them again), and an unknown path is the usual
   * 404 problem, not an empty 400 from the HTTP layer.
   */
  @ParameterizedTest
  @ValueSource(strings = {"/v1/derivatives/{id}", "/v1/a b", "/v1/100%", "/v1/été", "/v1/\"q\""})
  void aDecodedPathAUriCannotHoldAsItIsIsAnsweredByTheResources(String path) {
    ApiGatewayEvents.Answer answer = ApiGatewayEvents.get(DEFAULT, path);

    assertThat(answer.status()).as(answer.body().toString()).isEqualTo(404);
    assertThat(answer.body().path("type").asText())
        .isEqualTo("https://derive.dev/problems/not-found");
  }

  /** A key with a space and a percent sign, signed as API Gateway hands the path over. */
  @Test
  void anImageUrlIsVerifiedOverThePathAsApiGatewayDecodedIt() {
    UrlSigningKeys keys =
        UrlSigningKeys.parse(ConfigProvider.getConfig().getValue("URL_SIGNING_KEYS", String.class));
    String path = "/f:png/routes/a cat 100%.jpg";

    ApiGatewayEvents.Answer answer =
        ApiGatewayEvents.get(IMAGE_URLS, "/v1/" + keys.sign(path) + path, ASKS_FOR_JSON);

    // verified and parsed: the key is looked up, and there is no such source
    assertThat(answer.status()).as(answer.body().toString()).isEqualTo(404);
    assertThat(answer.body().path("type").asText())
        .isEqualTo("https://derive.dev/problems/source-not-found");
    assertThat(answer.body().path("detail").asText()).contains("routes/a cat 100%.jpg");
  }

  @Test
  void aResourceIsNotAnsweredOnAnotherResourcesRoute() {
    assertThat(ApiGatewayEvents.get(DEFAULT, "/v1/presets").status()).isEqualTo(200);

    ApiGatewayEvents.Answer answer =
        ApiGatewayEvents.get(DERIVATIVES, "/v1/derivatives/../presets");

    assertThat(answer.status()).isEqualTo(404);
    assertThat(answer.body().path("type").asText())
        .isEqualTo("https://derive.dev/problems/not-found");
  }

  @Test
  void aRouteKeyTheFunctionDoesNotKnowReachesNothing() {
    for (String path : new String[] {"/v1/presets", "/q/openapi", "/v1/derivatives/" + jobId}) {
      ApiGatewayEvents.Answer answer = ApiGatewayEvents.get("GET /v1/{anything+}", path);

      assertThat(answer.status()).as(path).isEqualTo(404);
      assertThat(answer.body().path("type").asText())
          .isEqualTo("https://derive.dev/problems/not-found");
    }
  }
}
