package dev.derive.coordinator.api;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;

import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import org.junit.jupiter.api.Test;

/** The API's HTTP contract outside the derivative flow: routes, methods, bodies, catalogue. */
@QuarkusTest
@QuarkusTestResource(LocalCloudResource.class)
class HttpContractTest {
  private static final String PROBLEM = "application/problem+json";

  @Test
  void anUnknownRouteIsA404Problem() {
    given()
        .when()
        .get("/v1/nothing-here")
        .then()
        .statusCode(404)
        .contentType(PROBLEM)
        .body("type", equalTo("https://derive.dev/problems/not-found"));
  }

  /**
   * Issue 14 item 10: the API's root and any top-level path are the coordinator's to answer (the
   * template routes everything to it with {@code $default}), as problem+json.
   */
  @org.junit.jupiter.params.ParameterizedTest
  @org.junit.jupiter.params.provider.ValueSource(
      strings = {"/", "/favicon.ico", "/nothing/here", "/v2", "/v1/derivatives/%7Bid%7D"})
  void theRootAndUnknownTopLevelPathsAre404Problems(String path) {
    given()
        .urlEncodingEnabled(false)
        .when()
        .get(path)
        .then()
        .statusCode(404)
        .contentType(PROBLEM)
        .body("type", equalTo("https://derive.dev/problems/not-found"))
        .body("status", equalTo(404));
  }

  /** Allow is a list-based field (RFC 9110 section 5.3): one line or several mean the same. */
  private static String allow(io.restassured.response.Response response) {
    return String.join(", ", response.headers().getValues("Allow"));
  }

  @Test
  void aWrongMethodIsA405ProblemWithAllow() {
    var delete = given().when().delete("/v1/derivatives");
    delete
        .then()
        .statusCode(405)
        .contentType(PROBLEM)
        .body("type", equalTo("https://derive.dev/problems/method-not-allowed"));
    org.assertj.core.api.Assertions.assertThat(allow(delete)).isEqualTo("POST");

    var post = given().contentType("application/json").body("{}").when().post("/v1/capabilities");
    post.then().statusCode(405).contentType(PROBLEM);
    org.assertj.core.api.Assertions.assertThat(allow(post)).contains("GET").contains("HEAD");
  }

  @Test
  void aBodyThatIsNotJsonIsA415Problem() {
    given()
        .contentType("text/plain")
        .body("source=cat.jpg")
        .when()
        .post("/v1/derivatives")
        .then()
        .statusCode(415)
        .contentType(PROBLEM)
        .body("type", equalTo("https://derive.dev/problems/unsupported-request-media-type"));
  }

  @Test
  void aBodyOverTheCapIsA413Problem() {
    String big =
        "{\"source\":{\"key\":\""
            + "k".repeat(5000)
            + "\"},\"target\":{\"mediaType\":\"image/png\"}}";
    given()
        .contentType("application/json")
        .body(big)
        .when()
        .post("/v1/derivatives")
        .then()
        .statusCode(413)
        .contentType(PROBLEM)
        .body("type", equalTo("https://derive.dev/problems/request-too-large"))
        .body("detail", containsString("4096"));
  }
}
