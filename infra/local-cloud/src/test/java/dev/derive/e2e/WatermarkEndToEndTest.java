package dev.derive.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.derive.infra.local.LocalCloud;
import java.awt.Color;
import java.awt.Graphics2D;
import java.awt.image.BufferedImage;
import java.io.ByteArrayInputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Base64;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A watermark end to end on the local cloud: the mark is another upload of the source bucket, named
 * by the JSON target's {@code watermark}; the coordinator pins it, the image worker fetches it and
 * lays it over the picture (measured on the decoded PNG); a mark that does not exist is a 404
 * problem at {@code /target/watermark}. An image URL names the mark with {@code wmu:<base64url
 * key>} and its settings with {@code wm:}, and makes the same derivative as the JSON request.
 */
@ExtendWith(LocalCloudExtension.class)
class WatermarkEndToEndTest {
  private static final Color RED = new Color(200, 0, 0);

  private static final HttpClient NO_REDIRECTS =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

  private static DeriveApi api;
  private static String picture;
  private static String mark;
  private static SharedLocalCloud cloud;

  @BeforeAll
  static void uploadAPictureAndAMark(SharedLocalCloud shared) throws Exception {
    LocalCloud cloud = shared.cloud();
    api = new DeriveApi(cloud.apiUri());
    WatermarkEndToEndTest.cloud = shared;
    picture = api.upload(png("red", 200, 100, RED), "image/png");
    mark = api.upload(png("blue-mark", 20, 10, new Color(0, 0, 200)), "image/png");
  }

  private static Path png(String name, int width, int height, Color colour) throws Exception {
    BufferedImage image = new BufferedImage(width, height, BufferedImage.TYPE_INT_RGB);
    Graphics2D g = image.createGraphics();
    g.setColor(colour);
    g.fillRect(0, 0, width, height);
    g.dispose();
    Path file = Files.createTempFile(name, ".png");
    ImageIO.write(image, "png", file.toFile());
    return file;
  }

  private static String request(String markKey) throws Exception {
    return "{\"source\":{\"key\":"
        + api.json.writeValueAsString(picture)
        + "},\"target\":{\"mediaType\":\"image/png\",\"watermark\":"
        + api.json.writeValueAsString(markKey)
        + ",\"watermarkOpacity\":50,\"watermarkGravity\":\"northwest\",\"watermarkMargin\":10}}";
  }

  @Test
  void theMarkIsLaidOverThePictureHalfOpaqueTenPixelsIn() throws Exception {
    HttpResponse<String> response = api.post("/v1/derivatives", request(mark));
    assertThat(response.statusCode()).as(response.body()).isIn(200, 202);

    BufferedImage out =
        ImageIO.read(new ByteArrayInputStream(api.download(api.awaitSucceeded(api.id(response)))));
    Color inMark = new Color(out.getRGB(20, 15));
    assertThat(inMark.getRed()).isBetween(95, 105);
    assertThat(inMark.getBlue()).isBetween(95, 105);
    assertThat(new Color(out.getRGB(31, 15))).isEqualTo(RED);
    assertThat(new Color(out.getRGB(9, 15))).isEqualTo(RED);
  }

  @Test
  void aMarkThatDoesNotExistIsA404AtTheMemberThatNamedIt() throws Exception {
    HttpResponse<String> response = api.post("/v1/derivatives", request("marks/none.png"));

    assertSourceNotFoundAtTheWatermark(response);
  }

  /**
   * The image URL of the JSON request above ({@code wmu:} the mark's key base64url-encoded, {@code
   * wm:} its settings), signed: the same derivative (one fingerprint, so one id), with the mark on
   * it.
   */
  @Test
  void anImageUrlNamesTheMarkByItsBase64UrlKeyAndMakesTheSameDerivative() throws Exception {
    String json = api.id(api.post("/v1/derivatives", request(mark)));
    HttpResponse<String> redirect = untilMade(cloud.signed(markedPath(mark)));

    assertThat(redirect.statusCode()).as(redirect.body()).isEqualTo(302);
    String location = redirect.headers().firstValue("location").orElseThrow();
    assertThat(URI.create(location).getPath()).endsWith("/" + json);
    HttpResponse<byte[]> bytes =
        NO_REDIRECTS.send(
            HttpRequest.newBuilder(URI.create(location)).build(),
            HttpResponse.BodyHandlers.ofByteArray());
    BufferedImage out = ImageIO.read(new ByteArrayInputStream(bytes.body()));
    Color inMark = new Color(out.getRGB(20, 15));
    assertThat(inMark.getRed()).isBetween(95, 105);
    assertThat(inMark.getBlue()).isBetween(95, 105);
    assertThat(new Color(out.getRGB(31, 15))).isEqualTo(RED);
  }

  @Test
  void anImageUrlWhoseMarkDoesNotExistIsTheSame404() throws Exception {
    HttpResponse<String> response = get(cloud.signed(markedPath("marks/none.png")));

    assertSourceNotFoundAtTheWatermark(response);
  }

  @Test
  void anImageUrlWhoseMarkIsNotBase64UrlIsA400NamingTheOption() throws Exception {
    HttpResponse<String> response =
        get(cloud.signed("/wmu:bWFya3M+bG9nby5wbmc/wm:50:nowe:10/f:png/" + picture));

    assertThat(response.statusCode()).as(response.body()).isEqualTo(400);
    assertThat(response.headers().firstValue("content-type").orElseThrow())
        .startsWith("application/problem+json");
    assertThat(api.json.readTree(response.body()).path("errors").get(0).path("pointer").asText())
        .isEqualTo("/url/watermark_url");
  }

  /**
   * The image URL path of {@link #request}: the mark by {@code wmu:}, its settings by {@code wm:}.
   */
  private static String markedPath(String markKey) {
    String encoded =
        Base64.getUrlEncoder()
            .withoutPadding()
            .encodeToString(markKey.getBytes(StandardCharsets.UTF_8));
    return "/wmu:" + encoded + "/wm:50:nowe:10/f:png/" + picture;
  }

  /** The answer to {@code url} once it is no longer 503 (still being made), within two minutes. */
  private static HttpResponse<String> untilMade(URI url) throws Exception {
    long deadline = System.nanoTime() + DeriveApi.JOB_TIMEOUT.toNanos();
    HttpResponse<String> answer = get(url);
    while (answer.statusCode() == 503 && System.nanoTime() < deadline) {
      Thread.sleep(500);
      answer = get(url);
    }
    return answer;
  }

  /** A GET asking for JSON problems, as a client that wants to know why (not a picture). */
  private static HttpResponse<String> get(URI url) throws Exception {
    return NO_REDIRECTS.send(
        HttpRequest.newBuilder(url)
            .header("Accept", "application/problem+json")
            .timeout(Duration.ofSeconds(60))
            .build(),
        HttpResponse.BodyHandlers.ofString());
  }

  /** A 404 {@code source-not-found} problem at {@code /target/watermark}. */
  private static void assertSourceNotFoundAtTheWatermark(HttpResponse<String> response)
      throws Exception {
    assertThat(response.statusCode()).as(response.body()).isEqualTo(404);
    JsonNode problem = api.json.readTree(response.body());
    assertThat(problem.path("type").asText()).endsWith("/source-not-found");
    assertThat(problem.path("errors").get(0).path("pointer").asText())
        .isEqualTo("/target/watermark");
  }
}
