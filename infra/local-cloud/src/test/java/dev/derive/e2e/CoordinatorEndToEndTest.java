package dev.derive.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.derive.infra.local.LocalCloud;
import java.awt.image.BufferedImage;
import java.io.ByteArrayInputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The coordinator's API end to end on the local cloud, HTTP only: upload then request, {@code
 * wait}, step timings, the content redirect, the capability catalogue, and a chain of three
 * capabilities whose prefix a second request reuses.
 */
@ExtendWith(LocalCloudExtension.class)
class CoordinatorEndToEndTest {
  private static final HttpClient HTTP = HttpClient.newHttpClient();

  private LocalCloud cloud;
  private Path samples;
  private DeriveApi api;

  @BeforeEach
  void useTheSharedLocalCloud(SharedLocalCloud shared) {
    cloud = shared.cloud();
    samples = shared.samples();
    api = new DeriveApi(cloud.apiUri());
  }

  private static String body(String key, String target, int wait) {
    return "{\"source\":{\"key\":\"" + key + "\"},\"target\":" + target + ",\"wait\":" + wait + "}";
  }

  private static BufferedImage image(byte[] bytes) throws Exception {
    BufferedImage image = ImageIO.read(new ByteArrayInputStream(bytes));
    assertThat(image).as("a decodable image").isNotNull();
    return image;
  }

  private static void assertTimed(JsonNode step) {
    assertThat(step.path("status").asText()).isEqualTo("SUCCEEDED");
    Instant started = Instant.parse(step.path("startedAt").asText());
    Instant finished = Instant.parse(step.path("finishedAt").asText());
    assertThat(finished).isAfterOrEqualTo(started);
    assertThat(step.path("durationMillis").asLong()).isGreaterThanOrEqualTo(0);
  }

  /**
   * The waiting POST may answer from the derivative itself, before the step's result reaches the
   * record (docs/round-trips.md): the answer is SUCCEEDED with the download, and the step's times
   * are the record's once its result is recorded.
   */
  @Test
  void anUploadedPhotoIsAnsweredWith200WithinTheWaitAndItsStepIsTimed() throws Exception {
    String key = api.upload(samples.resolve("exif/Portrait_5.jpg"));

    HttpResponse<String> response =
        api.post(
            "/v1/derivatives",
            body(key, "{\"mediaType\":\"image/jpeg\",\"width\":97,\"height\":97}", 25));

    assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
    JsonNode job = api.json.readTree(response.body());
    assertThat(job.path("status").asText()).isEqualTo("SUCCEEDED");
    JsonNode step = job.path("steps").get(0);
    assertThat(step.path("capability").asText()).isEqualTo("image");
    assertThat(step.path("operations").toString()).contains("resize", "encode");
    assertThat(step.path("attempts").asInt()).isGreaterThanOrEqualTo(0);
    assertTimed(api.awaitSucceeded(job.path("id").asText()).path("steps").get(0));
    BufferedImage thumb = image(api.download(job));
    assertThat(Math.max(thumb.getWidth(), thumb.getHeight())).isEqualTo(97);
  }

  @Test
  void contentRedirectsToTheDerivative() throws Exception {
    String key = api.upload(samples.resolve("exif/Portrait_5.jpg"));
    String id =
        api.id(
            api.post(
                "/v1/derivatives", body(key, "{\"mediaType\":\"image/png\",\"width\":40}", 0)));
    api.awaitSucceeded(id);

    HttpResponse<String> content = api.get("/v1/derivatives/" + id + "/content");

    assertThat(content.statusCode()).as(content.body()).isEqualTo(303);
    String location = content.headers().firstValue("location").orElseThrow();
    HttpResponse<byte[]> png =
        HTTP.send(
            HttpRequest.newBuilder(URI.create(location)).build(),
            HttpResponse.BodyHandlers.ofByteArray());
    assertThat(png.statusCode()).isEqualTo(200);
    assertThat(image(png.body()).getWidth()).isLessThanOrEqualTo(40);
  }

  @Test
  void markdownBecomesAJpegThumbnailThroughThreeStepsAndANewSizeReusesThePdf() throws Exception {
    String key = api.upload(samples.resolve("markdown-html/testMARKDOWN.md"));

    String first =
        api.id(
            api.post(
                "/v1/derivatives",
                body(key, "{\"mediaType\":\"image/jpeg\",\"width\":160,\"height\":160}", 0)));
    JsonNode done = api.awaitSucceeded(first);

    List<String> capabilities = new ArrayList<>();
    done.path("steps").forEach(s -> capabilities.add(s.path("capability").asText()));
    assertThat(capabilities).containsExactly("markup", "pdf", "image");
    done.path("steps").forEach(CoordinatorEndToEndTest::assertTimed);
    assertThat(
            Math.max(image(api.download(done)).getWidth(), image(api.download(done)).getHeight()))
        .isEqualTo(160);

    String second =
        api.id(
            api.post(
                "/v1/derivatives",
                body(key, "{\"mediaType\":\"image/jpeg\",\"width\":80,\"height\":80}", 0)));
    JsonNode again = api.awaitSucceeded(second);

    assertThat(second).isNotEqualTo(first);
    assertThat(again.path("steps").get(0).path("reused").asBoolean()).isTrue();
    // the page is drawn at the size its box needs (issue 14 item 4), so each size draws it anew
    assertThat(again.path("steps").get(1).path("reused").asBoolean()).isFalse();
    assertThat(again.path("steps").get(2).path("reused").asBoolean()).isFalse();
    assertThat(
            Math.max(image(api.download(again)).getWidth(), image(api.download(again)).getHeight()))
        .isEqualTo(80);
  }

  /**
   * Issue 14 item 10: the template routes every path to the coordinator, and the local API passes a
   * path with braces on: each is answered as problem+json, never API Gateway's or an HTML page.
   * Issue 15: the local cloud's console takes {@code GET /} and its own files, nothing else.
   */
  @Test
  void anUnknownPathAndAPathWithBracesAreProblemJson404s() throws Exception {
    for (String unknown : List.of("/nowhere", "/console/nowhere.js", "/console/../pom.xml")) {
      HttpResponse<String> response = api.get(unknown);
      assertThat(response.statusCode()).as(unknown).isEqualTo(404);
      assertThat(response.headers().firstValue("content-type"))
          .as(unknown)
          .hasValue("application/problem+json");
    }
    HttpResponse<String> postToRoot = api.post("/", "{}");
    assertThat(postToRoot.statusCode()).isEqualTo(404);
    assertThat(postToRoot.headers().firstValue("content-type"))
        .hasValue("application/problem+json");

    HttpResponse<String> console = api.get("/");
    assertThat(console.statusCode()).isEqualTo(200);
    assertThat(console.headers().firstValue("content-type")).hasValue("text/html; charset=utf-8");
    assertThat(console.body()).contains("<title>Derive console</title>");
    assertThat(api.get("/console/console.js").headers().firstValue("content-type"))
        .hasValue("text/javascript; charset=utf-8");

    String braces;
    try (java.net.Socket socket =
        new java.net.Socket(cloud.apiUri().getHost(), cloud.apiUri().getPort())) {
      socket.setSoTimeout(30_000);
      socket
          .getOutputStream()
          .write(
              "GET /v1/derivatives/{id} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n"
                  .getBytes(java.nio.charset.StandardCharsets.US_ASCII));
      braces =
          new String(
              socket.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
    }
    assertThat(braces)
        .startsWith("HTTP/1.1 404 ")
        .containsIgnoringCase("content-type: application/problem+json")
        .contains("\"type\":\"https://derive.dev/problems/not-found\"");
  }

  @Test
  void capabilitiesListEveryDeclaredCapabilityAndTheLimits() throws Exception {
    HttpResponse<String> response = api.get("/v1/capabilities");

    assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
    JsonNode catalogue = api.json.readTree(response.body());
    List<String> names = new ArrayList<>();
    catalogue.path("capabilities").forEach(c -> names.add(c.path("name").asText()));
    // the template deploys every capability the worker modules declare
    assertThat(names)
        .containsExactlyInAnyOrderElementsOf(
            dev.derive.protocol.capability.CapabilityDeclarations.inThisSourceTree().stream()
                .map(dev.derive.protocol.capability.CapabilityDescriptor::name)
                .toList())
        .contains("image", "pdf", "text", "markup");
    assertThat(catalogue.path("limits").path("maxWaitSeconds").asInt()).isEqualTo(25);
    assertThat(catalogue.path("limits").path("maxSourceBytes").asLong()).isPositive();
    assertThat(catalogue.path("conversions").toString()).contains("text/markdown");
    // Larger than the 8190 bytes Quarkus's mock event server can return (quarkus#44551): the real
    // Lambda runtime path serves it whole.
    assertThat(response.body().length()).isGreaterThan(8190);
  }

  @Test
  void explicitStepsRotateAndGreyAPhotoBeforeItsThumbnail() throws Exception {
    String key = api.upload(samples.resolve("exif/Landscape_1.jpg"));
    String steps =
        "[{\"capability\":\"image\",\"operation\":\"rotate\",\"params\":{\"angle\":90}},"
            + "{\"capability\":\"image\",\"operation\":\"resize\","
            + "\"params\":{\"width\":120,\"height\":120}},"
            + "{\"capability\":\"image\",\"operation\":\"greyscale\",\"params\":{}},"
            + "{\"capability\":\"image\",\"operation\":\"encode\","
            + "\"params\":{\"mediaType\":\"image/png\"}}]";

    HttpResponse<String> response =
        api.post(
            "/v1/derivatives",
            "{\"source\":{\"key\":\"" + key + "\"},\"steps\":" + steps + ",\"wait\":20}");

    assertThat(response.statusCode()).as(response.body()).isIn(200, 202);
    JsonNode job = api.awaitSucceeded(api.id(response));
    BufferedImage out = image(api.download(job));
    assertThat(out.getHeight()).as("a landscape photo turned upright").isEqualTo(120);
    assertThat(out.getWidth()).isLessThan(out.getHeight());
    int rgb = out.getRGB(out.getWidth() / 2, out.getHeight() / 2);
    int r = (rgb >> 16) & 0xFF;
    int g = (rgb >> 8) & 0xFF;
    int b = rgb & 0xFF;
    assertThat(Math.max(Math.abs(r - g), Math.abs(g - b))).as("grey").isLessThanOrEqualTo(2);
  }

  @Test
  void anUnreachableTargetIsA422ListingTheReachableOnes() throws Exception {
    String key = api.upload(samples.resolve("exif/Portrait_5.jpg"));

    HttpResponse<String> response =
        api.post("/v1/derivatives", body(key, "{\"mediaType\":\"text/plain\"}", 0));

    assertThat(response.statusCode()).as(response.body()).isEqualTo(422);
    assertThat(response.headers().firstValue("content-type")).hasValue("application/problem+json");
    assertThat(api.json.readTree(response.body()).path("reachable").toString())
        .contains("image/jpeg", "image/png");
  }
}
