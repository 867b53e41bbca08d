package dev.derive.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.derive.infra.endpoint.AwsClients;
import dev.derive.infra.local.LocalCloud;
import dev.derive.protocol.message.MessageCodec;
import dev.derive.protocol.message.ObjectRef;
import dev.derive.protocol.message.Operation;
import dev.derive.protocol.message.StepMessage;
import dev.derive.worker.runtime.fixtures.MinimalPdf;
import java.awt.image.BufferedImage;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.NoSuchKeyException;
import software.amazon.awssdk.services.sqs.SqsClient;

/**
 * The pdf, text and markup capabilities end to end on the local cloud, on files of the sample
 * corpus: the coordinator plans a chain of capabilities from a target media type, and every worker
 * runs as its packaged function.zip. HTTP only, as a client would.
 */
@ExtendWith(LocalCloudExtension.class)
class CapabilitiesEndToEndTest {

  private LocalCloud cloud;
  private Path samples;
  private DeriveApi api;

  @BeforeEach
  void useTheSharedLocalCloud(SharedLocalCloud shared) {
    cloud = shared.cloud();
    samples = shared.samples();
    api = new DeriveApi(cloud.apiUri());
  }

  @Test
  void pdfBecomesAThumbnailOfItsFirstPage() throws Exception {
    String key = upload("pdf/testPDF-TIKA-4444.pdf", "application/pdf");

    JsonNode done =
        api.awaitSucceeded(
            request(key, Map.of("mediaType", "image/png", "width", 256, "height", 256, "page", 1)));

    assertThat(capabilities(done)).contains("pdf");
    BufferedImage page = png(api.download(done));
    assertThat(Math.max(page.getWidth(), page.getHeight())).isEqualTo(256);
    assertThat(page.getHeight()).as("A4 portrait").isGreaterThan(page.getWidth());
  }

  @Test
  void docxBecomesPlainText() throws Exception {
    String key =
        upload(
            "documents/quick.docx",
            "application/vnd.openxmlformats-officedocument.wordprocessingml.document");

    JsonNode done = api.awaitSucceeded(request(key, Map.of("mediaType", "text/plain")));

    assertThat(capabilities(done)).containsExactly("text");
    assertThat(new String(api.download(done), StandardCharsets.UTF_8))
        .contains("The quick brown fox jumps over the lazy dog");
  }

  @Test
  void markdownBecomesAPdfThenAPngPreviewThroughThreeCapabilities() throws Exception {
    String key = upload("markdown-html/testMARKDOWN.md", "text/markdown");

    JsonNode done =
        api.awaitSucceeded(
            request(key, Map.of("mediaType", "image/png", "width", 400, "height", 400)));

    assertThat(capabilities(done)).startsWith("markup", "pdf");
    BufferedImage preview = png(api.download(done));
    assertThat(Math.max(preview.getWidth(), preview.getHeight())).isEqualTo(400);
    assertThat(preview.getHeight()).as("an A4 page").isGreaterThan(preview.getWidth());
    // A short Markdown file on an A4 page scaled to 400 px: a few lines of small text, where a
    // blank page would have none.
    assertThat(darkPixels(preview)).as("rendered text on the page").isGreaterThan(50);

    // Issue 14 item 13: the PDF made on the way is the PDF asked for directly, served at once.
    HttpResponse<String> pdf =
        api.post(
            "/v1/derivatives",
            "{\"source\":{\"key\":\""
                + key
                + "\"},\"target\":{\"mediaType\":\"application/pdf\"}}");
    assertThat(pdf.statusCode()).as(pdf.body()).isEqualTo(200);
    JsonNode served = api.json.readTree(pdf.body());
    assertThat(served.path("status").asText()).isEqualTo("SUCCEEDED");
    assertThat(api.download(served)).startsWith((byte) '%', (byte) 'P', (byte) 'D', (byte) 'F');
  }

  /**
   * Issue 14 item 4: a 4000 x 46812 pt page is 8333 x 97525 pixels at 150 dpi, over the pixel
   * limit; through the target form it is drawn at the resolution its 256-pixel box needs.
   */
  @Test
  void aHugePdfPageBecomesAThumbnailThroughTheTargetForm(@org.junit.jupiter.api.io.TempDir Path dir)
      throws Exception {
    Path file = dir.resolve("tall.pdf");
    // the left half of the page black, the right half white
    java.nio.file.Files.write(
        file, MinimalPdf.document("", 4000, 46812, "0 0 0 rg 0 0 2000 46812 re f", "", List.of()));
    String key = api.upload(file, "application/pdf");

    JsonNode done =
        api.awaitSucceeded(request(key, Map.of("mediaType", "image/png", "width", 256)));

    BufferedImage thumbnail = png(api.download(done));
    assertThat(thumbnail.getWidth()).isEqualTo(256);
    assertThat(thumbnail.getHeight()).isEqualTo(2995); // 46812 x 256 / 4000 = 2995.97
    assertThat(thumbnail.getRGB(64, 1500) & 0xFF).as("left half").isLessThan(64);
    assertThat(thumbnail.getRGB(192, 1500) & 0xFF).as("right half").isGreaterThan(192);
  }

  /**
   * The packaged pdf, text and markup workers without the planner: steps sent straight to their
   * queues, as the coordinator would send them, chain Markdown to PDF to PNG and DOCX to text.
   */
  @Test
  void packagedWorkersTransformStepsSentToTheirQueues() throws Exception {
    String source = cloud.bucketName("SourceBucket");
    String derivatives = cloud.bucketName("DerivativesBucket");
    try (S3Client s3 = AwsClients.s3(cloud.endpoint());
        SqsClient sqs = AwsClients.sqs(cloud.endpoint())) {
      String run = Long.toString(System.nanoTime());
      s3.putObject(
          p -> p.bucket(source).key("direct/" + run + ".md"),
          samples.resolve("markdown-html/testMARKDOWN.md"));
      s3.putObject(
          p -> p.bucket(source).key("direct/" + run + ".docx"),
          samples.resolve("documents/quick.docx"));
      ObjectRef markdown = ObjectRef.of(source, "direct/" + run + ".md");
      ObjectRef pdf = ObjectRef.of(derivatives, "derivatives/direct-" + run + "-pdf");
      ObjectRef png = ObjectRef.of(derivatives, "derivatives/direct-" + run + "-png");
      ObjectRef text = ObjectRef.of(derivatives, "derivatives/direct-" + run + "-txt");

      send(
          sqs,
          "MarkupQueue",
          step(
              run + "1",
              "markup",
              new Operation("render", Map.of("pageSize", "A4")),
              markdown,
              "text/markdown",
              pdf,
              "application/pdf"));
      send(
          sqs,
          "TextQueue",
          step(
              run + "2",
              "text",
              new Operation("extract", Map.of()),
              ObjectRef.of(source, "direct/" + run + ".docx"),
              "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
              text,
              "text/plain; charset=utf-8"));
      byte[] pdfBytes = await(s3, pdf);
      assertThat(pdfBytes).startsWith((byte) '%', (byte) 'P', (byte) 'D', (byte) 'F');
      send(
          sqs,
          "PdfQueue",
          step(
              run + "3",
              "pdf",
              new Operation("render", Map.of("page", 1, "dpi", 150, "width", 300, "height", 300)),
              pdf,
              "application/pdf",
              png,
              "image/png"));

      assertThat(new String(await(s3, text), StandardCharsets.UTF_8))
          .contains("The quick brown fox jumps over the lazy dog");
      BufferedImage preview = png(await(s3, png));
      assertThat(Math.max(preview.getWidth(), preview.getHeight())).isBetween(299, 300);
      assertThat(preview.getHeight()).as("an A4 page").isGreaterThan(preview.getWidth());
      assertThat(darkPixels(preview)).as("rendered text on the page").isGreaterThan(20);
    }
  }

  private static StepMessage step(
      String id,
      String capability,
      Operation operation,
      ObjectRef input,
      String inputType,
      ObjectRef output,
      String outputType) {
    String jobId = String.format("%64s", Long.toHexString(id.hashCode())).replace(' ', 'd');
    return new StepMessage(
        jobId,
        0,
        1,
        capability,
        List.of(operation),
        input,
        inputType,
        output,
        outputType,
        "e2e-" + id);
  }

  private void send(SqsClient sqs, String queue, StepMessage step) {
    sqs.sendMessage(m -> m.queueUrl(cloud.queueUrl(queue)).messageBody(MessageCodec.encode(step)));
  }

  /** Waits for {@code ref} to appear (the worker writes it) and returns its bytes. */
  private static byte[] await(S3Client s3, ObjectRef ref) throws InterruptedException {
    long deadline = System.nanoTime() + DeriveApi.JOB_TIMEOUT.toNanos();
    while (System.nanoTime() < deadline) {
      try {
        return s3.getObjectAsBytes(g -> g.bucket(ref.bucket()).key(ref.key())).asByteArray();
      } catch (NoSuchKeyException e) {
        Thread.sleep(250);
      }
    }
    throw new AssertionError(ref + " was not written within " + DeriveApi.JOB_TIMEOUT);
  }

  // ------------------------------------------------------------------ helpers

  /** POSTs a derivative request and returns the job id (200 cached or 202 queued). */
  private String request(String key, Map<String, Object> target) throws Exception {
    ObjectNode body = api.json.createObjectNode();
    body.putObject("source").put("key", key);
    body.set("target", api.json.valueToTree(target));
    HttpResponse<String> response = api.post("/v1/derivatives", body.toString());
    assertThat(response.statusCode()).as(response.body()).isIn(200, 202);
    return api.id(response);
  }

  /** Uploads a corpus file with its media type through the API. */
  private String upload(String sample, String contentType) throws Exception {
    return api.upload(samples.resolve(sample), contentType);
  }

  private static List<String> capabilities(JsonNode job) {
    List<String> names = new ArrayList<>();
    job.path("steps").forEach(step -> names.add(step.path("capability").asText()));
    return names;
  }

  private static BufferedImage png(byte[] bytes) throws IOException {
    assertThat(bytes).startsWith((byte) 0x89, (byte) 'P', (byte) 'N', (byte) 'G');
    BufferedImage image = ImageIO.read(new ByteArrayInputStream(bytes));
    assertThat(image).as("a decodable PNG").isNotNull();
    return image;
  }

  private static long darkPixels(BufferedImage image) {
    long dark = 0;
    for (int y = 0; y < image.getHeight(); y++) {
      for (int x = 0; x < image.getWidth(); x++) {
        if ((image.getRGB(x, y) & 0xFF) < 128) {
          dark++;
        }
      }
    }
    return dark;
  }
}
