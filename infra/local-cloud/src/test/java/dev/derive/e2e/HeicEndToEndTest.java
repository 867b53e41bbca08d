package dev.derive.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import dev.derive.infra.local.LocalCloud;
import java.awt.image.BufferedImage;
import java.io.ByteArrayInputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.HexFormat;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * An iPhone HEIC (48 tiles of 512x512, {@code irot} 270°) like any JPEG on the local cloud, with
 * the image worker running the FFmpeg layer from its own {@code /opt}: through the JSON API, a
 * preset and a signed image URL, each an upright 3:4 portrait of the white page with its arrow.
 */
@ExtendWith(LocalCloudExtension.class)
class HeicEndToEndTest {
  private static final HttpClient BROWSER =
      HttpClient.newBuilder()
          .followRedirects(HttpClient.Redirect.NORMAL)
          .connectTimeout(Duration.ofSeconds(5))
          .build();

  private static LocalCloud cloud;
  private static DeriveApi api;
  private static String signingKey;
  private static String key;

  @BeforeAll
  static void uploadAnIphonePhoto(SharedLocalCloud shared) throws Exception {
    cloud = shared.cloud();
    api = new DeriveApi(cloud.apiUri());
    signingKey = shared.urlSigningKey();
    key = api.upload(shared.samples().resolve("heic/arrow.heic"));
  }

  @Test
  void theJsonApiMakesAnUprightJpegThumbnail() throws Exception {
    HttpResponse<String> response =
        api.post(
            "/v1/derivatives",
            "{\"source\":{\"key\":"
                + api.json.writeValueAsString(key)
                + "},\"target\":{\"mediaType\":\"image/jpeg\",\"width\":240,\"height\":240}}");
    assertThat(response.statusCode()).as(response.body()).isIn(200, 202);

    BufferedImage thumbnail = image(api.download(api.awaitSucceeded(api.id(response))));
    assertThat(thumbnail.getWidth() + "x" + thumbnail.getHeight()).isEqualTo("180x240");
    assertPageWithArrow(thumbnail);
  }

  @Test
  void thePresetThumbIsTheSamePortrait() throws Exception {
    HttpResponse<String> response =
        api.post(
            "/v1/derivatives",
            "{\"source\":{\"key\":" + api.json.writeValueAsString(key) + "},\"preset\":\"thumb\"}");
    assertThat(response.statusCode()).as(response.body()).isIn(200, 202);

    BufferedImage thumbnail = image(api.download(api.awaitSucceeded(api.id(response))));
    assertThat(thumbnail.getWidth() + "x" + thumbnail.getHeight()).isEqualTo("192x256");
    assertPageWithArrow(thumbnail);
  }

  @Test
  void aSignedImageUrlServesIt() throws Exception {
    URI url = signed("/rs:fit:128:128/f:png/" + key);
    HttpResponse<byte[]> response = null;
    for (int attempt = 0; attempt < 20; attempt++) {
      response =
          BROWSER.send(
              HttpRequest.newBuilder(url).timeout(Duration.ofSeconds(60)).build(),
              HttpResponse.BodyHandlers.ofByteArray());
      if (response.statusCode() != 503) {
        break;
      }
      Thread.sleep(2_000); // still being made: Retry-After
    }
    assertThat(response.statusCode())
        .as(new String(response.body(), StandardCharsets.UTF_8))
        .isEqualTo(200);
    BufferedImage thumbnail = image(response.body());
    assertThat(thumbnail.getWidth() + "x" + thumbnail.getHeight()).isEqualTo("96x128");
    assertPageWithArrow(thumbnail);
  }

  private static BufferedImage image(byte[] bytes) throws Exception {
    BufferedImage image = ImageIO.read(new ByteArrayInputStream(bytes));
    assertThat(image).as("a decodable image").isNotNull();
    return image;
  }

  /**
   * White lined paper with a black arrow pointing up: bright overall, and the arrow's tip (dark) is
   * in the top half, centred, so the picture is upright (a sideways turn would put it at a side).
   */
  private static void assertPageWithArrow(BufferedImage image) {
    int w = image.getWidth();
    int h = image.getHeight();
    double mean = 0;
    int darkTop = 0;
    int darkSides = 0;
    for (int y = 0; y < h; y++) {
      for (int x = 0; x < w; x++) {
        int p = image.getRGB(x, y);
        int luma = (((p >> 16) & 0xFF) * 2 + ((p >> 8) & 0xFF) * 5 + (p & 0xFF)) / 8;
        mean += luma;
        if (luma < 80) {
          if (y < h / 5 && Math.abs(x - w / 2) < w / 6) {
            darkTop++;
          }
          if (x < w / 12 || x > w - w / 12) {
            darkSides++;
          }
        }
      }
    }
    assertThat(mean / (w * h)).as("mean luma").isGreaterThan(120);
    assertThat(darkTop).as("dark pixels of the arrow's tip, top centre").isPositive();
    assertThat(darkSides).as("dark pixels at the far left and right").isLessThan(darkTop * 4 + 5);
  }

  private static URI signed(String path) throws Exception {
    Mac mac = Mac.getInstance("HmacSHA256");
    mac.init(new SecretKeySpec(HexFormat.of().parseHex(signingKey), "HmacSHA256"));
    String signature =
        Base64.getUrlEncoder()
            .withoutPadding()
            .encodeToString(mac.doFinal(path.getBytes(StandardCharsets.UTF_8)));
    return cloud.apiUri().resolve("/v1/" + signature + path);
  }
}
