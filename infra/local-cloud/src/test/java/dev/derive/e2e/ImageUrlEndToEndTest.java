package dev.derive.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.derive.infra.local.LocalCloud;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HexFormat;
import java.util.List;
import java.util.Queue;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Signed image URLs ({@code GET /v1/{signature}/{options}/{source key}}, docs/image-urls.md) end to
 * end on the local cloud, through a real HTTP client that follows redirects as a browser's {@code
 * <img>} does: a miss made through the job pipeline and redirected to the bytes, a hit redirected
 * at once, a wrongly signed URL refused, and the job API still answering on {@code
 * /v1/derivatives/...}, which the image route's pattern also matches (the local route table must
 * pick the more specific {@code ANY /v1/derivatives/{proxy+}}, as API Gateway does).
 *
 * <p>It runs on the {@link SharedLocalCloud}, whose {@code UrlSigningKeys} parameter is a key of
 * its own, as {@code ./derive up} passes one; its log shows which route the local HTTP API chose
 * for each request.
 */
@ExtendWith(LocalCloudExtension.class)
class ImageUrlEndToEndTest {
  private static final String WORKER = "ImageWorkerFunction";
  private static final String IMAGE_ROUTE = "GET /v1/{signature}/{proxy+}";
  private static final String DERIVATIVES_ROUTE = "ANY /v1/derivatives/{proxy+}";
  private static final ObjectMapper JSON = new ObjectMapper();

  private static final HttpClient BROWSER =
      HttpClient.newBuilder()
          .followRedirects(HttpClient.Redirect.NORMAL)
          .connectTimeout(Duration.ofSeconds(5))
          .build();
  private static final HttpClient NO_REDIRECTS =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

  private static Queue<String> LOG;
  private static String signingKey;
  private static LocalCloud cloud;
  private static DeriveApi api;
  private static String sourceKey;

  @BeforeAll
  static void uploadAPortrait(SharedLocalCloud shared) throws Exception {
    LOG = shared.log();
    signingKey = shared.urlSigningKey();
    cloud = shared.cloud();
    api = new DeriveApi(cloud.apiUri());
    sourceKey = api.upload(shared.samples().resolve("exif/Portrait_5.jpg"));
  }

  @Test
  void noLineOfTheLocalCloudOrItsFunctionsHoldsTheSigningKeyOrAPresignedSignature()
      throws Exception {
    URI url = signed("/rs:fit:64:64/f:webp/" + sourceKey);
    HttpResponse<String> answer = NO_REDIRECTS.send(get(url), HttpResponse.BodyHandlers.ofString());
    assertThat(answer.statusCode()).as(answer.body()).isIn(302, 503);

    assertThat(LOG).isNotEmpty();
    for (String line : LOG) {
      assertThat(line).doesNotContainIgnoringCase(signingKey);
      assertThat(line).doesNotContain("X-Amz-Signature", "X-Amz-Credential");
    }
  }

  @Test
  void aSignedThumbnailUrlRedirectsToTheDerivativeThenHitsAtOnce() throws Exception {
    URI url = signed("/rs:fit:256:256/f:webp/" + sourceKey);
    long deliveredBefore = cloud.deliveredMessages(WORKER);

    HttpResponse<byte[]> first = BROWSER.send(get(url), HttpResponse.BodyHandlers.ofByteArray());

    assertThat(first.statusCode())
        .as(new String(first.body(), StandardCharsets.UTF_8))
        .isEqualTo(200);
    HttpResponse<byte[]> redirect = first.previousResponse().orElseThrow();
    assertThat(redirect.statusCode()).isEqualTo(302);
    assertThat(redirect.uri()).isEqualTo(url);
    assertCacheablePublicly(redirect);
    int[] size = webpSize(first.body());
    assertThat(size[0]).isLessThanOrEqualTo(256);
    assertThat(size[1]).as("upright: the photo is stored rotated (EXIF 5)").isEqualTo(256);
    assertThat(size[0]).isLessThan(size[1]);
    assertThat(cloud.deliveredMessages(WORKER) - deliveredBefore).isEqualTo(1);
    assertThat(routeOf(url)).isEqualTo(IMAGE_ROUTE);

    long started = System.nanoTime();
    HttpResponse<String> again = NO_REDIRECTS.send(get(url), HttpResponse.BodyHandlers.ofString());
    long millis = (System.nanoTime() - started) / 1_000_000;

    assertThat(again.statusCode()).as(again.body()).isEqualTo(302);
    assertThat(millis).as("a hit answers without waiting for a job").isLessThan(2_000);
    assertCacheablePublicly(again);
    assertThat(derivativeId(again.headers().firstValue("location").orElseThrow()))
        .isEqualTo(derivativeId(redirect.headers().firstValue("location").orElseThrow()));
    HttpResponse<byte[]> bytes = BROWSER.send(get(url), HttpResponse.BodyHandlers.ofByteArray());
    assertThat(bytes.body()).isEqualTo(first.body());
    assertThat(cloud.deliveredMessages(WORKER) - deliveredBefore)
        .as("no second step for the same URL")
        .isEqualTo(1);
  }

  @Test
  void aWronglySignedUrlIsForbiddenAsProblemJson() throws Exception {
    String path = "/rs:fit:256:256/f:webp/" + sourceKey;
    URI good = signed(path);
    String signature = good.getPath().split("/")[2];
    String altered = (signature.charAt(0) == 'A' ? "B" : "A") + signature.substring(1);
    URI wrong = cloud.apiUri().resolve("/v1/" + altered + path);
    URI otherPath =
        cloud.apiUri().resolve("/v1/" + signature + "/rs:fit:512:512/f:webp/" + sourceKey);

    for (URI url :
        List.of(wrong, otherPath, signedWith(HexFormat.of().formatHex(new byte[32]), path))) {
      HttpResponse<String> response = BROWSER.send(get(url), HttpResponse.BodyHandlers.ofString());

      assertThat(response.statusCode()).as(url + ": " + response.body()).isEqualTo(403);
      assertThat(response.previousResponse()).as("no redirect").isEmpty();
      assertThat(response.headers().firstValue("content-type").orElseThrow())
          .startsWith("application/problem+json");
      // kept briefly by browsers and the CDN: the same forged URL again costs no invocation
      assertThat(response.headers().firstValue("cache-control")).hasValue("public, max-age=60");
      JsonNode problem = JSON.readTree(response.body());
      assertThat(problem.path("status").asInt()).isEqualTo(403);
      assertThat(problem.path("type").asText()).endsWith("/invalid-signature");
      assertThat(routeOf(url)).isEqualTo(IMAGE_ROUTE);
    }
  }

  @Test
  void theJobApiKeepsItsPathsThatTheImageRouteAlsoMatches() throws Exception {
    URI url = signed("/rs:fit:128:128/f:png/" + sourceKey);
    HttpResponse<String> redirect =
        NO_REDIRECTS.send(get(url), HttpResponse.BodyHandlers.ofString());
    assertThat(redirect.statusCode()).as(redirect.body()).isEqualTo(302);
    String id = derivativeId(redirect.headers().firstValue("location").orElseThrow());

    HttpResponse<String> job = api.get("/v1/derivatives/" + id);

    assertThat(job.statusCode()).as(job.body()).isEqualTo(200);
    assertThat(job.headers().firstValue("content-type").orElseThrow())
        .startsWith("application/json");
    JsonNode body = JSON.readTree(job.body());
    assertThat(body.path("id").asText()).isEqualTo(id);
    assertThat(body.path("status").asText()).isEqualTo("SUCCEEDED");
    assertThat(body.path("download").path("url").asText()).startsWith("http");
    assertThat(routeOf(cloud.apiUri().resolve("/v1/derivatives/" + id)))
        .isEqualTo(DERIVATIVES_ROUTE);

    HttpResponse<String> content = api.get("/v1/derivatives/" + id + "/content");

    assertThat(content.statusCode()).as(content.body()).isEqualTo(303);
    assertThat(routeOf(cloud.apiUri().resolve("/v1/derivatives/" + id + "/content")))
        .isEqualTo(DERIVATIVES_ROUTE);
  }

  /** A job's id, as anyone may learn one (image URL redirects, events and callbacks carry them). */
  private static String knownJobId() throws Exception {
    HttpResponse<String> answer =
        api.post(
            "/v1/derivatives",
            "{\"source\":{\"key\":\""
                + sourceKey
                + "\"},\"target\":{\"mediaType\":\"image/png\","
                + "\"width\":48}}");
    assertThat(answer.statusCode()).as(answer.body()).isIn(200, 202);
    return api.id(answer);
  }

  /** {@code rawPath} on the API, sent exactly so: no resolution of dot segments, no re-encoding. */
  private static URI verbatim(String rawPath) {
    return URI.create(cloud.apiUri() + rawPath);
  }

  /**
   * Issue 26 item 1: paths that API Gateway's routing (and the local HTTP API's) gives to the
   * anonymous image route are answered as image URLs, never by the job API or with the OpenAPI
   * document, however the function's own router would read them.
   */
  @ParameterizedTest
  @ValueSource(
      strings = {
        "/v1/derivatives;x/{id}",
        "/v1/derivatives;x/{id}/content",
        "/v1/x/%2e%2e/%2e%2e/q/openapi",
        "/v1/x/../../q/openapi",
        "/v1/x/%2E%2E/derivatives/{id}",
        "/v1/Derivatives/{id}",
        "/v1/derivatives%3Bx/{id}"
      })
  void noSpellingReachesTheJobApiOrTheOpenApiDocumentThroughTheImageRoute(String spelling)
      throws Exception {
    URI url = verbatim(spelling.replace("{id}", knownJobId()));

    HttpResponse<String> answer = NO_REDIRECTS.send(get(url), HttpResponse.BodyHandlers.ofString());

    assertThat(routeOf(url)).isEqualTo(IMAGE_ROUTE);
    assertThat(answer.statusCode()).as(answer.body()).isEqualTo(403);
    assertThat(JSON.readTree(answer.body()).path("type").asText()).endsWith("/invalid-signature");
    assertThat(answer.body()).doesNotContain("openapi", "\"steps\"", "X-Amz-");
  }

  /**
   * Issue 26 item 2: the signature covers the path as sent, so no other spelling of a signed URL
   * (each a new CDN cache key and an invocation) is served.
   */
  @ParameterizedTest
  @ValueSource(
      strings = {
        "/rs:fit:96:96//f:webp/{key}",
        "/rs:fit:96:96/./f:webp/{key}",
        "/rs:fit:96:96/x/../f:webp/{key}",
        "/rs:fit:96:96;x/f:webp/{key}",
        "/rs:fit:96:96/f:webp/{key};x",
        "/rs:fit:96:96/f:webp/{key}/"
      })
  void noOtherSpellingOfASignedUrlIsServed(String variant) throws Exception {
    String signature = signed("/rs:fit:96:96/f:webp/" + sourceKey).getPath().split("/")[2];
    URI url = verbatim("/v1/" + signature + variant.replace("{key}", sourceKey));

    HttpResponse<String> answer = NO_REDIRECTS.send(get(url), HttpResponse.BodyHandlers.ofString());

    assertThat(routeOf(url)).isEqualTo(IMAGE_ROUTE);
    assertThat(answer.statusCode()).as(answer.body()).isEqualTo(403);
    assertThat(JSON.readTree(answer.body()).path("type").asText()).endsWith("/invalid-signature");
  }

  /**
   * A key holding a space, a brace and a percent sign: API Gateway (and the local HTTP API) hands
   * the path over decoded, the signature covers it so, and the function serves it rather than
   * failing to make a request of it (ApiEntryPoint).
   */
  @Test
  void aKeyWithCharactersAUrlMustEscapeIsServedUnderItsSignedDecodedPath(SharedLocalCloud shared)
      throws Exception {
    String key = "urls/a cat {1} 100%.jpg";
    try (software.amazon.awssdk.services.s3.S3Client s3 =
        dev.derive.infra.endpoint.AwsClients.s3(cloud.endpoint())) {
      s3.putObject(
          b -> b.bucket(cloud.bucketName("SourceBucket")).key(key),
          software.amazon.awssdk.core.sync.RequestBody.fromFile(
              shared.samples().resolve("exif/Portrait_5.jpg")));
    }
    String signature = signature(signingKey, "/rs:fit:64:64/f:webp/" + key);
    URI url =
        verbatim("/v1/" + signature + "/rs:fit:64:64/f:webp/urls/a%20cat%20%7B1%7D%20100%25.jpg");

    HttpResponse<byte[]> answer = BROWSER.send(get(url), HttpResponse.BodyHandlers.ofByteArray());

    assertThat(answer.statusCode())
        .as(new String(answer.body(), StandardCharsets.UTF_8))
        .isEqualTo(200);
    assertThat(webpSize(answer.body())[1]).isEqualTo(64);
  }

  /** {@code path} signed with the cloud's key as docs/image-urls.md says, as an API URL. */
  private static URI signed(String path) throws Exception {
    return signedWith(signingKey, path);
  }

  private static URI signedWith(String hexKey, String path) throws Exception {
    return cloud.apiUri().resolve("/v1/" + signature(hexKey, path) + path);
  }

  private static String signature(String hexKey, String path) {
    return SharedLocalCloud.signature(hexKey, path);
  }

  private static HttpRequest get(URI url) {
    return HttpRequest.newBuilder(url).timeout(Duration.ofSeconds(60)).build();
  }

  /** {@code Cache-Control: public, max-age=N}, N a quarter of the download's life at most. */
  private static void assertCacheablePublicly(HttpResponse<?> redirect) {
    String cacheControl = redirect.headers().firstValue("cache-control").orElseThrow();
    assertThat(cacheControl).matches("public, max-age=\\d+");
    int maxAge = Integer.parseInt(cacheControl.substring(cacheControl.indexOf('=') + 1));
    assertThat(maxAge).isPositive().isLessThanOrEqualTo(75);
    assertThat(redirect.headers().firstValue("location").orElseThrow()).startsWith("http");
  }

  /** The derivative's id: the last segment of its presigned download's path. */
  private static String derivativeId(String location) {
    String path = URI.create(location).getPath();
    assertThat(path).contains("/derivatives/");
    return path.substring(path.lastIndexOf('/') + 1);
  }

  /** The route key the local HTTP API logged for the latest request to {@code url}'s path. */
  private static String routeOf(URI url) {
    String prefix = "HTTP GET " + url.getRawPath() + " (";
    String route = null;
    for (String line : LOG) {
      if (line.startsWith(prefix)) {
        route = line.substring(prefix.length(), line.lastIndexOf(')'));
      }
    }
    assertThat(route).as("a logged request to " + url.getRawPath()).isNotNull();
    return route;
  }

  /** Width and height of a WebP (RIFF container; VP8, VP8L or VP8X first chunk). */
  private static int[] webpSize(byte[] b) {
    assertThat(b.length).isGreaterThan(30);
    assertThat(new String(b, 0, 4, StandardCharsets.US_ASCII)).isEqualTo("RIFF");
    assertThat(new String(b, 8, 4, StandardCharsets.US_ASCII)).isEqualTo("WEBP");
    String chunk = new String(b, 12, 4, StandardCharsets.US_ASCII);
    return switch (chunk) {
      case "VP8X" -> new int[] {1 + u24(b, 24), 1 + u24(b, 27)};
      case "VP8 " -> {
        assertThat(b[23] & 0xff).isEqualTo(0x9d);
        assertThat(b[24] & 0xff).isEqualTo(0x01);
        assertThat(b[25] & 0xff).isEqualTo(0x2a);
        yield new int[] {u16(b, 26) & 0x3fff, u16(b, 28) & 0x3fff};
      }
      case "VP8L" -> {
        assertThat(b[20] & 0xff).isEqualTo(0x2f);
        long bits =
            (b[21] & 0xffL) | (b[22] & 0xffL) << 8 | (b[23] & 0xffL) << 16 | (b[24] & 0xffL) << 24;
        yield new int[] {(int) (bits & 0x3fff) + 1, (int) ((bits >> 14) & 0x3fff) + 1};
      }
      default -> throw new AssertionError("not a WebP bitstream chunk: " + chunk);
    };
  }

  private static int u16(byte[] b, int at) {
    return (b[at] & 0xff) | (b[at + 1] & 0xff) << 8;
  }

  private static int u24(byte[] b, int at) {
    return (b[at] & 0xff) | (b[at + 1] & 0xff) << 8 | (b[at + 2] & 0xff) << 16;
  }
}
