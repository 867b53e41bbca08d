package dev.derive.coordinator.api;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItems;
import static org.hamcrest.Matchers.matchesPattern;
import static org.hamcrest.Matchers.startsWith;

import dev.derive.infra.endpoint.AwsClients;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.Map;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.HeadObjectResponse;

@QuarkusTest
@QuarkusTestResource(LocalCloudResource.class)
class UploadsResourceTest {

  @Test
  void aDeclaredUploadCanBePutWithoutCredentialsAndBecomesASource() throws Exception {
    byte[] bytes = "not really a photo".getBytes();
    JsonPath created =
        declare(
                "{\"fileName\":\"My Cat.jpg\",\"contentType\":\"image/jpeg\",\"size\":"
                    + bytes.length
                    + "}")
            .then()
            .statusCode(201)
            .body("key", matchesPattern("uploads/[0-9a-f-]{36}/My-Cat\\.jpg"))
            .body("upload.method", equalTo("PUT"))
            .body("upload.url", startsWith(System.getProperty("aws.endpointUrl")))
            .extract()
            .jsonPath();

    HttpRequest.Builder put =
        HttpRequest.newBuilder(URI.create(created.getString("upload.url")))
            .PUT(HttpRequest.BodyPublishers.ofByteArray(bytes));
    Map<String, String> headers = created.getMap("upload.headers");
    headers.forEach(put::header);
    HttpResponse<String> stored =
        HttpClient.newHttpClient().send(put.build(), HttpResponse.BodyHandlers.ofString());
    assertThat(stored.statusCode()).as(stored.body()).isEqualTo(200);

    try (S3Client s3 = AwsClients.s3(ApiTestData.endpoint())) {
      HeadObjectResponse head =
          s3.headObject(
              b -> b.bucket(LocalCloudResource.SOURCE_BUCKET).key(created.getString("key")));
      assertThat(head.contentLength()).isEqualTo(bytes.length);
      assertThat(head.contentType()).isEqualTo("image/jpeg");
    }
  }

  /**
   * Issue 26 item 6: a declared SHA-256 is signed into the upload, so S3 takes no other bytes and
   * keeps the checksum, by which the source is then known.
   */
  @Test
  void aDeclaredSha256IsSignedIntoTheUploadAndKeptWithTheSource() throws Exception {
    byte[] bytes = "a photo, really".getBytes();
    String sha256 =
        java.util.Base64.getEncoder()
            .encodeToString(java.security.MessageDigest.getInstance("SHA-256").digest(bytes));
    JsonPath created =
        declare(
                "{\"fileName\":\"a.jpg\",\"contentType\":\"image/jpeg\",\"size\":"
                    + bytes.length
                    + ",\"sha256\":\""
                    + sha256
                    + "\"}")
            .then()
            .statusCode(201)
            .body("upload.headers.x-amz-checksum-sha256", equalTo(sha256))
            .extract()
            .jsonPath();

    assertThat(put(created, "a fraud, really".getBytes()).statusCode()).isEqualTo(400);
    assertThat(put(created, bytes).statusCode()).isEqualTo(200);

    try (S3Client s3 = AwsClients.s3(ApiTestData.endpoint())) {
      HeadObjectResponse head =
          s3.headObject(
              b ->
                  b.bucket(LocalCloudResource.SOURCE_BUCKET)
                      .key(created.getString("key"))
                      .checksumMode(software.amazon.awssdk.services.s3.model.ChecksumMode.ENABLED));
      assertThat(head.checksumSHA256()).isEqualTo(sha256);
    }
  }

  private static HttpResponse<String> put(JsonPath created, byte[] bytes) throws Exception {
    HttpRequest.Builder put =
        HttpRequest.newBuilder(URI.create(created.getString("upload.url")))
            .PUT(HttpRequest.BodyPublishers.ofByteArray(bytes));
    Map<String, String> headers = created.getMap("upload.headers");
    headers.forEach(put::header);
    return HttpClient.newHttpClient().send(put.build(), HttpResponse.BodyHandlers.ofString());
  }

  @Test
  void aDeclarationOverTheSizeLimitIsA413Problem() {
    declare("{\"fileName\":\"huge.tif\",\"contentType\":\"image/tiff\",\"size\":999999999999}")
        .then()
        .statusCode(413)
        .contentType("application/problem+json")
        .body("type", equalTo(Problems.typeOf("source-too-large")))
        .body(
            "detail",
            startsWith(
                "the upload 'huge.tif' is declared with 999999999999 bytes; a source may have at"
                    + " most "));
  }

  @Test
  void aSizeBeyondEveryWholeNumberOfBytesIsA400NotAWrappedNumber() {
    declare("{\"fileName\":\"a.jpg\",\"contentType\":\"image/jpeg\",\"size\":99999999999999999999}")
        .then()
        .statusCode(400)
        .contentType("application/problem+json")
        .body("errors.pointer", equalTo(java.util.List.of("/size")))
        .body(
            "detail",
            equalTo("/size: must be a whole number of bytes from 1 to 9223372036854775807"));
  }

  @Test
  void aBadDeclarationIsA400NamingEachField() {
    declare("{\"fileName\":\"\",\"contentType\":\"jpeg\",\"size\":-1,\"extra\":true}")
        .then()
        .statusCode(400)
        .contentType("application/problem+json")
        .body("errors.pointer", hasItems("/fileName", "/contentType", "/size", "/extra"));
  }

  /** Issue 14 item 11: CR/LF in the content type would be echoed into the upload's headers. */
  @Test
  void aContentTypeWithCrLfIsA400AtTheContentTypeNotAHeader() {
    declare(
            "{\"fileName\":\"cat.jpg\",\"contentType\":\"image/jpeg\\r\\nx-amz-acl:"
                + " public-read\",\"size\":10}")
        .then()
        .statusCode(400)
        .contentType("application/problem+json")
        .body("type", equalTo("https://derive.dev/problems/invalid-request"))
        .body("errors.pointer", equalTo(java.util.List.of("/contentType")))
        .body("detail", equalTo("/contentType: must not contain control characters"));
  }

  /** Issue 14 item 12: a member given twice has no single meaning. */
  @Test
  void aMemberGivenTwiceIsA400AtThatMember() {
    declare("{\"fileName\":\"cat.jpg\",\"contentType\":\"image/jpeg\",\"size\":10,\"size\":5}")
        .then()
        .statusCode(400)
        .contentType("application/problem+json")
        .body("errors.pointer", equalTo(java.util.List.of("/size")))
        .body("detail", startsWith("/size: member 'size' appears twice in one object"));
  }

  /** {@code POST /v1/uploads} with {@code body} as JSON. */
  private static io.restassured.response.Response declare(String body) {
    return given().contentType("application/json").body(body).when().post("/v1/uploads");
  }
}
