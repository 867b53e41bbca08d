package dev.derive.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.derive.infra.local.LocalCloud;
import java.awt.Color;
import java.awt.Graphics2D;
import java.awt.image.BufferedImage;
import java.io.ByteArrayInputStream;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A watermark end to end on the local cloud: the mark is another upload of the source bucket, named
 * by the JSON target's {@code watermark}; the coordinator pins it, the image worker fetches it and
 * lays it over the picture (measured on the decoded PNG); a mark that does not exist is a 404
 * problem at {@code /target/watermark}.
 */
@ExtendWith(LocalCloudExtension.class)
class WatermarkEndToEndTest {
  private static final Color RED = new Color(200, 0, 0);

  private static DeriveApi api;
  private static String picture;
  private static String mark;

  @BeforeAll
  static void uploadAPictureAndAMark(SharedLocalCloud shared) throws Exception {
    LocalCloud cloud = shared.cloud();
    api = new DeriveApi(cloud.apiUri());
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

    assertThat(response.statusCode()).as(response.body()).isEqualTo(404);
    JsonNode problem = api.json.readTree(response.body());
    assertThat(problem.path("type").asText()).endsWith("/source-not-found");
    assertThat(problem.path("errors").get(0).path("pointer").asText())
        .isEqualTo("/target/watermark");
  }
}
