package dev.derive.coordinator.api;

import static dev.derive.coordinator.api.ApiTestData.JPEG_HEAD;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;

import dev.derive.coordinator.url.UrlSigningKeys;
import dev.derive.infra.endpoint.AwsClients;
import dev.derive.infra.endpoint.ExternalEndpoint;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.eclipse.microprofile.config.ConfigProvider;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.Message;

/**
 * Image URLs through the real coordinator API on moto: the 403s of unsigned and expired URLs, and
 * the redirect / 503 / 4xx matrix of hits, misses, slow and failed jobs.
 */
@QuarkusTest
@QuarkusTestResource(LocalCloudResource.class)
class ImageUrlResourceTest {
  private static final String PROBLEM = "application/problem+json";
  private static final String KEY = "urls/cat.jpg";

  /** A source without a ThumbHash: its placeholder is the fallback image. */
  private static final String OTHER_KEY = "urls/dog.jpg";

  /** What the browsers' {@code <img>} sends (Chrome 120). */
  private static final String IMG_ACCEPT =
      "image/avif,image/webp,image/apng,image/svg+xml,image/*,*/*;q=0.8";

  /** The fallback image's one colour (magenta), and a ThumbHash of red left, blue right. */
  private static final int FALLBACK_COLOUR = 0xFF00FF;

  private static final String RED_BLUE_THUMBHASH = "FfYC9Kh4j02Ch4h3iJePePiIiA==";
  private static S3Client s3;
  private static DynamoDbClient dynamoDb;
  private static SqsClient sqs;
  private static UrlSigningKeys keys;

  @BeforeAll
  static void setUp() {
    ExternalEndpoint endpoint = ApiTestData.endpoint();
    s3 = AwsClients.s3(endpoint);
    dynamoDb = AwsClients.dynamoDb(endpoint);
    sqs = AwsClients.sqs(endpoint);
    keys =
        UrlSigningKeys.parse(ConfigProvider.getConfig().getValue("URL_SIGNING_KEYS", String.class));
    s3.putObject(
        b -> b.bucket(LocalCloudResource.SOURCE_BUCKET).key(KEY), RequestBody.fromBytes(JPEG_HEAD));
    s3.putObject(
        b -> b.bucket(LocalCloudResource.SOURCE_BUCKET).key(OTHER_KEY),
        RequestBody.fromBytes(JPEG_HEAD));
    s3.putObject(
        b ->
            b.bucket(LocalCloudResource.SOURCE_BUCKET)
                .key(ConfigProvider.getConfig().getValue("IMAGE_URL_FALLBACK_KEY", String.class)),
        RequestBody.fromBytes(png(4, 3, FALLBACK_COLOUR)));
  }

  /** A PNG of {@code width} x {@code height} pixels of one opaque {@code rgb}. */
  private static byte[] png(int width, int height, int rgb) {
    java.awt.image.BufferedImage image =
        new java.awt.image.BufferedImage(width, height, java.awt.image.BufferedImage.TYPE_INT_RGB);
    for (int y = 0; y < height; y++) {
      for (int x = 0; x < width; x++) {
        image.setRGB(x, y, rgb);
      }
    }
    var bytes = new java.io.ByteArrayOutputStream();
    try {
      javax.imageio.ImageIO.write(image, "png", bytes);
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
    return bytes.toByteArray();
  }

  /** The pixels of an image answer, decoded. */
  private static java.awt.image.BufferedImage decoded(Response response) throws Exception {
    java.awt.image.BufferedImage image =
        javax.imageio.ImageIO.read(new java.io.ByteArrayInputStream(response.asByteArray()));
    assertThat(image).as("the answer decodes as an image").isNotNull();
    return image;
  }

  @AfterAll
  static void close() {
    s3.close();
    dynamoDb.close();
    sqs.close();
  }

  private static String signed(String path) {
    return "/v1/" + keys.sign(path) + path;
  }

  /** The client hints the answers vary on ({@code IMAGE_URL_CLIENT_HINTS} is on in the tests). */
  private static final String HINTS = "Sec-CH-DPR, DPR";

  /** The answer's {@code Vary}, one field (the mock event server splits a value at its commas). */
  private static String vary(Response response) {
    return String.join(", ", response.headers().getValues("Vary"));
  }

  private static Response get(String url, String accept) {
    var request = given().redirects().follow(false).urlEncodingEnabled(false);
    if (accept != null) {
      request = request.header("Accept", accept);
    }
    return request.when().get(url);
  }

  /** The job id (fingerprint) of the JSON request for {@code target}, queued by a POST. */
  private static String jsonJob(String target) {
    return given()
        .contentType("application/json")
        .body("{\"source\":{\"key\":\"" + KEY + "\"},\"target\":" + target + "}")
        .when()
        .post("/v1/derivatives")
        .then()
        .statusCode(202)
        .extract()
        .jsonPath()
        .getString("id");
  }

  private static void succeed(String id) {
    s3.putObject(
        b -> b.bucket(LocalCloudResource.DERIVATIVES_BUCKET).key("derivatives/" + id),
        RequestBody.fromBytes(JPEG_HEAD));
    ApiTestData.markJob(
        dynamoDb, id, "SUCCEEDED", Map.of(":currentStep", AttributeValue.fromN("1")));
  }

  /**
   * Issue 26 item 5: a forged URL's 403 is cacheable for a minute, so the same forged URL asked
   * again is answered by the CDN, not by another invocation.
   */
  @Test
  void anUnsignedUrlIsA403ProblemTheCdnMayKeepAMinute() {
    Response response = get("/v1/unsigned/w:64/" + KEY, null);

    response
        .then()
        .statusCode(403)
        .contentType(PROBLEM)
        .body("type", equalTo("https://derive.dev/problems/invalid-signature"))
        .body("title", equalTo("Invalid signature"));
    // one field value, which the mock event server splits at its comma
    assertThat(String.join(", ", response.headers().getValues("Cache-Control")))
        .isEqualTo("public, max-age=60");
  }

  @Test
  void aUrlWhoseOptionsWereChangedAfterSigningIsA403() {
    String good = signed("/w:64/" + KEY);

    get(good.replace("/w:64/", "/w:6400/"), null).then().statusCode(403);
  }

  @Test
  void anExpiredUrlIsA403() {
    long past = System.currentTimeMillis() / 1000 - 10;

    get(signed("/exp:" + past + "/w:64/" + KEY), null)
        .then()
        .statusCode(403)
        .body("type", equalTo("https://derive.dev/problems/expired-url"))
        .body("title", equalTo("Expired URL"));
  }

  @Test
  void aHitIsA302ToTheDerivativeOfTheSameFingerprintAsTheJsonRequest() {
    String id = jsonJob("{\"mediaType\":\"image/webp\",\"width\":80,\"quality\":70}");
    succeed(id);

    Response response = get(signed("/w:80/f:webp/q:70/" + KEY), null);

    assertThat(response.statusCode()).isEqualTo(302);
    assertThat(response.header("Location"))
        .startsWith(System.getProperty("aws.endpointUrl"))
        .contains("derivatives/" + id);
    // a quarter of the 300 s download URL lifetime, less the second or so it has run
    assertThat(String.join(", ", response.headers().getValues("Cache-Control")))
        .matches("public, max-age=7[0-5]");
    assertThat(vary(response)).isEqualTo(HINTS); // the tests read client hints
  }

  /**
   * Issue 26 item 6: a redirect is never cacheable past the URL's own expiry, or a browser or CDN
   * would serve the expired URL until its copy aged out (an hour on the CDN).
   */
  @Test
  void aHitsRedirectIsNotCacheablePastTheUrlsExpiry() {
    String id = jsonJob("{\"mediaType\":\"image/webp\",\"width\":83}");
    succeed(id);
    long expires = System.currentTimeMillis() / 1000 + 20;

    Response response = get(signed("/exp:" + expires + "/w:83/f:webp/" + KEY), null);

    assertThat(response.statusCode()).isEqualTo(302);
    assertThat(response.header("Location")).contains("derivatives/" + id);
    String cacheControl = String.join(", ", response.headers().getValues("Cache-Control"));
    assertThat(cacheControl).matches("public, max-age=\\d+");
    assertThat(Long.parseLong(cacheControl.substring(cacheControl.indexOf('=') + 1)))
        .isBetween(0L, 20L);
  }

  @Test
  void aPresetUrlIsThePresetsDerivative() {
    String id = jsonJob("{\"mediaType\":\"image/jpeg\",\"width\":256,\"height\":256}");
    succeed(id);

    assertThat(get(signed("/pr:thumb:" + thumbDigest() + "/" + KEY), null).header("Location"))
        .contains("derivatives/" + id);
  }

  /** The digest of the preset {@code thumb} in force, as {@code GET /v1/presets} lists it. */
  private static String thumbDigest() {
    return given()
        .get("/v1/presets")
        .then()
        .statusCode(200)
        .extract()
        .jsonPath()
        .getString("presets.find { it.name == 'thumb' }.digest");
  }

  /**
   * Issue 26 item 6: a URL signed for another definition of the preset (its digest then) is
   * refused, and one naming no digest is refused as incomplete.
   */
  @Test
  void aPresetUrlSignedForAnotherDefinitionIsA403AndOneWithoutADigestA400() {
    get(signed("/pr:thumb:0123456789abcdef/" + KEY), null)
        .then()
        .statusCode(403)
        .contentType(PROBLEM)
        .body("type", equalTo("https://derive.dev/problems/preset-changed"));
    get(signed("/pr:thumb/" + KEY), null)
        .then()
        .statusCode(400)
        .body("errors[0].pointer", equalTo("/url/preset"));
  }

  @Test
  void formatAutoFollowsAcceptAndVariesOnIt() {
    String webp = jsonJob("{\"mediaType\":\"image/webp\",\"width\":81}");
    String jpeg = jsonJob("{\"mediaType\":\"image/jpeg\",\"width\":81}");
    succeed(webp);
    succeed(jpeg);

    Response browser = get(signed("/f:auto/w:81/" + KEY), "image/webp,*/*;q=0.8");
    Response other = get(signed("/f:auto/w:81/" + KEY), "*/*");

    assertThat(browser.header("Location")).contains("derivatives/" + webp);
    assertThat(vary(browser)).isEqualTo("Accept, " + HINTS);
    assertThat(other.header("Location")).contains("derivatives/" + jpeg);
  }

  /**
   * Every value of Accept counts, with its q (issue 30 item 8): the Lambda HTTP adapter hands the
   * header over split at its commas, and only the first piece was read.
   */
  @Test
  void formatAutoReadsEveryValueOfAccept() {
    String webp = jsonJob("{\"mediaType\":\"image/webp\",\"width\":86}");
    succeed(webp);

    for (String accept :
        List.of(
            "image/jpeg, image/webp", "image/avif;q=0, image/webp", "image/png,image/webp;q=0.5")) {
      Response answer = get(signed("/f:auto/w:86/" + KEY), accept);

      assertThat(answer.header("Location"))
          .as("Accept: %s", accept)
          .contains("derivatives/" + webp);
    }
  }

  @Test
  void formatAutoProblemsVaryOnAcceptToo() {
    String accept = "image/avif, " + PROBLEM;
    Response missing = get(signed("/f:auto/w:83/urls/no-such.jpg"), accept);
    Response invalid = get(signed("/f:auto/w:100000/" + KEY), accept);
    Response fixed = get(signed("/f:webp/w:83/urls/no-such.jpg"), accept);

    assertThat(missing.statusCode()).isEqualTo(404);
    assertThat(missing.contentType()).startsWith(PROBLEM);
    assertThat(vary(missing)).isEqualTo("Accept, " + HINTS);
    assertThat(invalid.statusCode()).isEqualTo(400);
    assertThat(vary(invalid)).isEqualTo("Accept, " + HINTS);
    assertThat(fixed.statusCode()).isEqualTo(404);
    assertThat(vary(fixed)).isEqualTo(HINTS);
  }

  @Test
  void aMissMadeWithinTheWaitIsA302() throws Exception {
    String queue = ConfigProvider.getConfig().getValue("IMAGE_QUEUE_URL", String.class);
    CompletableFuture<Void> worker =
        CompletableFuture.runAsync(
            () -> {
              long deadline = System.currentTimeMillis() + 10_000;
              while (System.currentTimeMillis() < deadline) {
                List<Message> messages =
                    sqs.receiveMessage(
                            b -> b.queueUrl(queue).waitTimeSeconds(1).messageAttributeNames("All"))
                        .messages();
                for (Message m : messages) {
                  String id = m.messageAttributes().get("jobId").stringValue();
                  if (m.body().contains("\"width\":82")) {
                    succeed(id);
                    return;
                  }
                }
              }
              throw new IllegalStateException("the URL's step was not queued within 10 s");
            });

    Response response = get(signed("/w:82/" + KEY), null);

    worker.get();
    assertThat(response.statusCode()).isEqualTo(302);
    assertThat(response.header("Location")).contains("derivatives/");
  }

  @Test
  void aMissStillRunningAfterTheWaitIsA503WithRetryAfter() {
    long started = System.currentTimeMillis();

    get(signed("/w:83/" + KEY), PROBLEM)
        .then()
        .statusCode(503)
        .contentType(PROBLEM)
        .header("Retry-After", "2")
        .header("Cache-Control", "no-store")
        .body("type", equalTo("https://derive.dev/problems/derivative-not-ready"));

    assertThat(System.currentTimeMillis() - started).isGreaterThanOrEqualTo(2000);
  }

  @Test
  void aFailedDerivativeIsItsProblem() {
    String id = jsonJob("{\"mediaType\":\"image/jpeg\",\"width\":84}");
    ApiTestData.markJob(
        dynamoDb,
        id,
        "FAILED",
        Map.of(
            ":error",
            ApiTestData.error("corrupt-input", "bad huffman table"),
            ":updatedAt",
            AttributeValue.fromN(Long.toString(System.currentTimeMillis()))));

    get(signed("/w:84/" + KEY), PROBLEM)
        .then()
        .statusCode(422)
        .contentType(PROBLEM)
        .header("Cache-Control", "no-store")
        .body("type", equalTo("https://derive.dev/problems/corrupt-input"))
        .body("detail", containsString("bad huffman table"));
  }

  /**
   * Issue 29 part 3: an {@code <img>} whose derivative is still being made past the wait gets a
   * placeholder drawn from the source's ThumbHash (its info derivative, made already), never
   * stored, marked as a placeholder; the same URL asked for JSON keeps its 503.
   */
  @Test
  void aMissStillRunningIsAPlaceholderDrawnFromTheSourcesThumbHash() throws Exception {
    String info = jsonJob("{\"mediaType\":\"application/json\"}");
    s3.putObject(
        b -> b.bucket(LocalCloudResource.DERIVATIVES_BUCKET).key("derivatives/" + info),
        RequestBody.fromString(
            "{\"mediaType\":\"image/jpeg\",\"width\":40,\"height\":20,\"thumbHash\":\""
                + RED_BLUE_THUMBHASH
                + "\"}"));

    Response placeholder = get(signed("/w:88/" + KEY), IMG_ACCEPT);

    assertThat(placeholder.statusCode()).isEqualTo(200);
    assertThat(placeholder.contentType()).isEqualTo("image/png");
    assertThat(placeholder.header("Derive-Placeholder")).isEqualTo("thumbhash");
    assertThat(placeholder.header("Cache-Control")).isEqualTo("no-store");
    assertThat(vary(placeholder)).isEqualTo("Accept, " + HINTS);
    java.awt.image.BufferedImage image = decoded(placeholder);
    assertThat(image.getWidth()).isEqualTo(32); // the source's 2:1, at most 32 pixels a side
    assertThat(image.getHeight()).isEqualTo(18);
    java.awt.Color left = new java.awt.Color(image.getRGB(0, 9), true);
    java.awt.Color right = new java.awt.Color(image.getRGB(31, 9), true);
    assertThat(left.getRed()).isGreaterThan(200);
    assertThat(left.getBlue()).isLessThan(60);
    assertThat(right.getBlue()).isGreaterThan(200);
    assertThat(right.getRed()).isLessThan(60);
    assertThat(left.getAlpha()).isEqualTo(255);

    get(signed("/w:88/" + KEY), PROBLEM + ", image/*;q=0.5")
        .then()
        .statusCode(503)
        .contentType(PROBLEM)
        .body("type", equalTo("https://derive.dev/problems/derivative-not-ready"));
  }

  /** A source without a ThumbHash: the placeholder is the configured fallback image. */
  @Test
  void aMissStillRunningWithoutAThumbHashIsTheFallbackImageAsPlaceholder() throws Exception {
    Response placeholder = get(signed("/w:90/" + OTHER_KEY), null);

    assertThat(placeholder.statusCode()).isEqualTo(200);
    assertThat(placeholder.header("Derive-Placeholder")).isEqualTo("fallback");
    assertThat(placeholder.header("Cache-Control")).isEqualTo("no-store");
    java.awt.image.BufferedImage image = decoded(placeholder);
    assertThat(image.getWidth()).isEqualTo(4);
    assertThat(image.getRGB(2, 1) & 0xFFFFFF).isEqualTo(FALLBACK_COLOUR);
  }

  /**
   * A failed derivative, and a missing source, answer an {@code <img>} with the fallback image: the
   * problem's status, its type in a header, never stored; a URL's own fault (400) stays a problem.
   */
  @Test
  void aFailedDerivativeIsTheFallbackImageWithTheProblemTypeInAHeader() throws Exception {
    String id = jsonJob("{\"mediaType\":\"image/jpeg\",\"width\":89}");
    ApiTestData.markJob(
        dynamoDb,
        id,
        "FAILED",
        Map.of(
            ":error",
            ApiTestData.error("corrupt-input", "bad huffman table"),
            ":updatedAt",
            AttributeValue.fromN(Long.toString(System.currentTimeMillis()))));

    Response failed = get(signed("/w:89/" + KEY), IMG_ACCEPT);
    Response missing = get(signed("/w:89/urls/none.jpg"), IMG_ACCEPT);

    assertThat(failed.statusCode()).isEqualTo(422);
    assertThat(failed.contentType()).isEqualTo("image/png");
    assertThat(failed.header("Derive-Problem-Type"))
        .isEqualTo("https://derive.dev/problems/corrupt-input");
    assertThat(failed.header("Cache-Control")).isEqualTo("no-store");
    assertThat(decoded(failed).getRGB(0, 0) & 0xFFFFFF).isEqualTo(FALLBACK_COLOUR);
    assertThat(missing.statusCode()).isEqualTo(404);
    assertThat(missing.header("Derive-Problem-Type"))
        .isEqualTo("https://derive.dev/problems/source-not-found");
    assertThat(decoded(missing).getRGB(3, 2) & 0xFFFFFF).isEqualTo(FALLBACK_COLOUR);
    get(signed("/w:0x10/" + KEY), IMG_ACCEPT).then().statusCode(400).contentType(PROBLEM);
  }

  /**
   * Issue 29 item 4: a DPR client hint scales a URL without {@code dpr:} as that option would (to
   * the derivative of the doubled box), the older {@code DPR} header too, rounded up to a half; the
   * URL's own {@code dpr:} wins over the hint.
   */
  @Test
  void aDprClientHintScalesAUrlWithoutDprAndTheUrlsOwnWins() {
    String doubled = jsonJob("{\"mediaType\":\"image/webp\",\"width\":182}");
    String plain = jsonJob("{\"mediaType\":\"image/webp\",\"width\":91}");
    succeed(doubled);
    succeed(plain);

    Response hinted =
        given()
            .redirects()
            .follow(false)
            .urlEncodingEnabled(false)
            .header("Sec-CH-DPR", "2")
            .get(signed("/w:91/f:webp/" + KEY));
    Response older =
        given()
            .redirects()
            .follow(false)
            .urlEncodingEnabled(false)
            .header("DPR", "1.75")
            .get(signed("/w:91/f:webp/" + KEY));
    Response own =
        given()
            .redirects()
            .follow(false)
            .urlEncodingEnabled(false)
            .header("Sec-CH-DPR", "2")
            .get(signed("/dpr:1/w:91/f:webp/" + KEY));

    assertThat(hinted.statusCode()).isEqualTo(302);
    assertThat(hinted.header("Location")).contains("derivatives/" + doubled);
    assertThat(vary(hinted)).isEqualTo(HINTS);
    assertThat(older.header("Location")).contains("derivatives/" + doubled);
    assertThat(own.header("Location")).contains("derivatives/" + plain);
    assertThat(vary(own)).isEmpty();
  }

  /** Issue 29: an option no capability declares is a 400 naming it, not a 404 of another key. */
  @Test
  void anUnknownOptionIsA400NamingIt() {
    get(signed("/zz:1/f:webp/" + KEY), IMG_ACCEPT)
        .then()
        .statusCode(400)
        .contentType(PROBLEM)
        .body("errors[0].pointer", equalTo("/url/zz"))
        .body("errors[0].detail", containsString("unknown option zz"));
  }

  @Test
  void invalidOptionsOfASignedUrlAreA400() {
    get(signed("/w:0x10/" + KEY), null)
        .then()
        .statusCode(400)
        .contentType(PROBLEM)
        .body("errors[0].pointer", equalTo("/url/width"));
  }

  /**
   * Every problem of the image route but the 403s is {@code no-store}, as its 503 and its pictures
   * are: a JSON 404 had no Cache-Control at all, which leaves a cache free to keep it
   * heuristically.
   */
  @Test
  void aMissingSourceIsA404NeverStored() {
    get(signed("/w:85/urls/none.jpg"), PROBLEM)
        .then()
        .statusCode(404)
        .contentType(PROBLEM)
        .header("Cache-Control", "no-store");
    get(signed("/w:0x10/" + KEY), PROBLEM)
        .then()
        .statusCode(400)
        .header("Cache-Control", "no-store");
    get(signed("/zz:1/" + KEY), PROBLEM).then().statusCode(400).header("Cache-Control", "no-store");
  }

  @Test
  void theDerivativesRoutesAreNotImageUrls() {
    given()
        .when()
        .get("/v1/derivatives/" + "0".repeat(64))
        .then()
        .statusCode(404)
        .body("type", equalTo("https://derive.dev/problems/not-found"));
  }
}
