package dev.derive.coordinator.api;

import static dev.derive.coordinator.api.ApiTestData.JPEG_HEAD;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItems;

import dev.derive.infra.endpoint.AwsClients;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;

/** Presets through the API on moto: listed, and the same derivative as the JSON they stand for. */
@QuarkusTest
@QuarkusTestResource(LocalCloudResource.class)
class PresetsResourceTest {
  private static S3Client s3;

  @BeforeAll
  static void source() {
    s3 = AwsClients.s3(ApiTestData.endpoint());
    s3.putObject(
        b -> b.bucket(LocalCloudResource.SOURCE_BUCKET).key("presets/cat.jpg"),
        RequestBody.fromBytes(JPEG_HEAD));
  }

  @AfterAll
  static void close() {
    s3.close();
  }

  private static String post(String body) {
    return given()
        .contentType("application/json")
        .body(body)
        .when()
        .post("/v1/derivatives")
        .then()
        .statusCode(202)
        .extract()
        .jsonPath()
        .getString("id");
  }

  @Test
  void theBuiltInPresetsAreListedWithWhatTheyStandFor() {
    given()
        .when()
        .get("/v1/presets")
        .then()
        .statusCode(200)
        .body("presets.name", hasItems("thumb", "preview", "page-1", "text"))
        .body("presets.find { it.name == 'thumb' }.target.mediaType", equalTo("image/jpeg"))
        .body("presets.find { it.name == 'thumb' }.target.width", equalTo(256));
  }

  @Test
  void aRequestNamingAPresetIsTheJobOfTheTargetItStandsFor() {
    String named = post("{\"source\":{\"key\":\"presets/cat.jpg\"},\"preset\":\"preview\"}");
    String spelled =
        post(
            "{\"source\":{\"key\":\"presets/cat.jpg\"},\"target\":{\"mediaType\":\"image/jpeg\","
                + "\"width\":1024,\"height\":1024,\"fit\":\"inside\"}}");

    assertThat(named).isEqualTo(spelled);
  }

  @Test
  void anUnknownPresetIsA400AtPreset() {
    given()
        .contentType("application/json")
        .body("{\"source\":{\"key\":\"presets/cat.jpg\"},\"preset\":\"no-such-preset\"}")
        .when()
        .post("/v1/derivatives")
        .then()
        .statusCode(400)
        .contentType("application/problem+json")
        .body("errors[0].pointer", equalTo("/preset"));
  }
}
