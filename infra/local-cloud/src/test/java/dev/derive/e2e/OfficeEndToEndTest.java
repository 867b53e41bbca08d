package dev.derive.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.awt.image.BufferedImage;
import java.io.ByteArrayInputStream;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A Word document to a 256 px JPEG thumbnail of its first page on the local cloud: the planner
 * chains office (LibreOffice, the container-image function run from its function.zip on this
 * machine's LibreOffice), pdf and image, and tells the office step the page the pdf step renders
 * (page 1, the default), so only page 1 is converted. A password-protected document is a {@code
 * password-required} problem.
 */
@ExtendWith(LocalCloudExtension.class)
class OfficeEndToEndTest {
  private static DeriveApi api;
  private static SharedLocalCloud shared;

  @BeforeAll
  static void connect(SharedLocalCloud cloud) {
    shared = cloud;
    api = new DeriveApi(cloud.cloud().apiUri());
  }

  /**
   * documents/quick.docx is one US Letter page (612 × 792 pt) with "The quick brown fox jumps over
   * the lazy dog" at x 90–309, y 72–87 pt; at 256 px wide (0.418 px/pt) that is x 38–129, y 30–36.
   */
  @Test
  void aDocxBecomesAThumbnailOfItsFirstPageWithItsTextWhereThePageHasIt() throws Exception {
    String key = api.upload(shared.samples().resolve("documents/quick.docx"));
    JsonNode done = api.awaitSucceeded(api.id(derive(key)));

    List<String> capabilities = new ArrayList<>();
    done.path("steps").forEach(step -> capabilities.add(step.path("capability").asText()));
    assertThat(capabilities).containsExactly("office", "pdf", "image");

    byte[] jpeg = api.download(done);
    assertThat(jpeg).startsWith((byte) 0xFF, (byte) 0xD8, (byte) 0xFF);
    BufferedImage page = ImageIO.read(new ByteArrayInputStream(jpeg));
    assertThat(page.getWidth() + "x" + page.getHeight()).isEqualTo("256x331");
    assertThat(ink(page, 40, 30, 126, 36)).as("ink on the line of text").isGreaterThan(0.08);
    assertThat(ink(page, 140, 28, 250, 38)).as("ink right of the line").isLessThan(0.01);
    assertThat(ink(page, 0, 60, 256, 331)).as("ink below the line").isLessThan(0.01);
  }

  /**
   * The coordinator recognises the encrypted OOXML package at the request (Tika) and answers at
   * once, before a job exists; the office worker's own check is the next line of defence ({@code
   * OfficeSampleCorpusTest}).
   */
  @Test
  void aPasswordProtectedDocumentIsAPasswordRequiredProblemAtOnce() throws Exception {
    String key = api.upload(shared.samples().resolve("office/bug53475-password-is-pass.docx"));
    HttpResponse<String> response = post(key);

    assertThat(response.statusCode()).as(response.body()).isEqualTo(422);
    assertThat(response.headers().firstValue("content-type"))
        .hasValueSatisfying(v -> assertThat(v).startsWith("application/problem+json"));
    JsonNode problem = api.json.readTree(response.body());
    assertThat(problem.path("type").asText()).endsWith("/password-required");
    assertThat(problem.path("detail").asText())
        .contains("password")
        .doesNotContain("Exception", "dev.derive", "bucket");
  }

  private static HttpResponse<String> derive(String key) throws Exception {
    HttpResponse<String> response = post(key);
    assertThat(response.statusCode()).as(response.body()).isIn(200, 202);
    return response;
  }

  /** Asks for the 256 px JPEG thumbnail of {@code key}. */
  private static HttpResponse<String> post(String key) throws Exception {
    return api.post(
        "/v1/derivatives",
        "{\"source\":{\"key\":"
            + api.json.writeValueAsString(key)
            + "},\"target\":{\"mediaType\":\"image/jpeg\",\"width\":256}}");
  }

  /** Mean darkness (0 white to 1 black) of the box from (x0, y0) to (x1, y1), exclusive. */
  private static double ink(BufferedImage image, int x0, int y0, int x1, int y1) {
    double sum = 0;
    for (int y = y0; y < y1; y++) {
      for (int x = x0; x < x1; x++) {
        int p = image.getRGB(x, y);
        double luma =
            (0.2126 * ((p >> 16) & 0xFF) + 0.7152 * ((p >> 8) & 0xFF) + 0.0722 * (p & 0xFF)) / 255;
        sum += 1 - luma;
      }
    }
    return sum / ((double) (x1 - x0) * (y1 - y0));
  }
}
