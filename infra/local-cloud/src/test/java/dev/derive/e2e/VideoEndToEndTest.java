package dev.derive.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.awt.image.BufferedImage;
import java.io.ByteArrayInputStream;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A phone video (display matrix: a quarter turn and a mirroring) to a 320 px image on the local
 * cloud, with no word about video in the request: the planner chains the video capability's poster
 * into the image capability, both workers run their packaged artifacts, the video worker FFmpeg
 * from its layer.
 */
@ExtendWith(LocalCloudExtension.class)
class VideoEndToEndTest {
  private static DeriveApi api;
  private static String key;

  @BeforeAll
  static void uploadAVideo(SharedLocalCloud shared) throws Exception {
    api = new DeriveApi(shared.cloud().apiUri());
    key = api.upload(shared.samples().resolve("video/sample_rotate_and_reflect.mp4"));
  }

  @Test
  void anMp4BecomesAPortraitWebpOf320ThroughVideoThenImage() throws Exception {
    JsonNode done = derive("image/webp");
    List<String> capabilities = new ArrayList<>();
    done.path("steps").forEach(step -> capabilities.add(step.path("capability").asText()));
    assertThat(capabilities).containsExactly("video", "image");

    byte[] webp = api.download(done);
    assertThat(new String(webp, 0, 4, StandardCharsets.US_ASCII)).isEqualTo("RIFF");
    assertThat(new String(webp, 8, 4, StandardCharsets.US_ASCII)).isEqualTo("WEBP");
  }

  @Test
  void theSamePosterAsPngIsUprightAndNotBlack() throws Exception {
    BufferedImage png = ImageIO.read(new ByteArrayInputStream(api.download(derive("image/png"))));
    assertThat(png.getWidth() + "x" + png.getHeight()).isEqualTo("320x480");
    double luma = 0;
    for (int y = 0; y < png.getHeight(); y += 4) {
      for (int x = 0; x < png.getWidth(); x += 4) {
        int p = png.getRGB(x, y);
        luma += (((p >> 16) & 0xFF) * 2 + ((p >> 8) & 0xFF) * 5 + (p & 0xFF)) / 8.0;
      }
    }
    assertThat(luma / (80 * 120)).as("mean luma").isGreaterThan(25);
  }

  private static JsonNode derive(String mediaType) throws Exception {
    HttpResponse<String> response =
        api.post(
            "/v1/derivatives",
            "{\"source\":{\"key\":"
                + api.json.writeValueAsString(key)
                + "},\"target\":{\"mediaType\":\""
                + mediaType
                + "\",\"width\":320}}");
    assertThat(response.statusCode()).as(response.body()).isIn(200, 202);
    return api.awaitSucceeded(api.id(response));
  }
}
