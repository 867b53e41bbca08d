package dev.derive.e2e;

import static dev.derive.worker.runtime.fixtures.MinimalPdf.page;
import static dev.derive.worker.runtime.fixtures.MinimalPdf.stream;
import static dev.derive.worker.runtime.fixtures.OfficePackages.paragraph;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.derive.infra.endpoint.AwsClients;
import dev.derive.infra.local.LocalCloud;
import dev.derive.infra.local.LocalCloudOptions;
import dev.derive.worker.runtime.fixtures.MinimalPdf;
import dev.derive.worker.runtime.fixtures.OfficePackages;
import java.awt.image.BufferedImage;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.QueueAttributeName;

/**
 * Issue 26 item 15 measured end to end on the local cloud, with the repository's {@code
 * template.yaml} as deployed (its queues' visibility timeouts, the workers' timeouts and 60 s
 * visibility heartbeat): poison inputs sent at once beside ordinary jobs on the same queues.
 *
 * <ul>
 *   <li>a PDF whose outline (bookmarks) nests 30,000 deep, to text: refused by the bound on the
 *       text's nesting, {@code corrupt-input} (without it Tika's PDF parser recurses until the
 *       stack overflows, which is the input's too, but costs the worker its process);
 *   <li>a PDF page holding a 20000 × 20000 image XObject, to a PNG preview: refused from the
 *       image's dictionary before decoding, {@code input-too-large};
 *   <li>a DOCX whose {@code document.xml} inflates to 1 GiB, to text: refused from the zip
 *       directory, {@code input-too-large}.
 * </ul>
 *
 * Each poison job must end FAILED at its first delivery with its stable type, not retryable and a
 * human sentence; each bystander (PDF previews, PDF and DOCX text, and a PDF whose Type 3 glyph
 * draws itself, which used to overflow the renderer's stack and now renders with the cycle cut)
 * must SUCCEED with the right content, decoded and looked at. The test prints how long each job
 * took from its request; docs/job-lifecycle.md quotes the figures. No timing is asserted beyond an
 * overall deadline ({@value #DEADLINE_SECONDS} s).
 */
class PoisonInputEndToEndTest {
  private static final int DEADLINE_SECONDS = 300;
  private static final List<String> WORKERS =
      List.of("ImageWorkerFunction", "PdfWorkerFunction", "TextWorkerFunction");
  private static final String CORRUPT_INPUT = "/corrupt-input";
  private static final String INPUT_TOO_LARGE = "/input-too-large";
  private static final String DOCX =
      "application/vnd.openxmlformats-officedocument.wordprocessingml.document";

  @TempDir static Path dir;
  private static LocalCloud cloud;
  private static DeriveApi api;

  @BeforeAll
  static void startTheTemplateAsDeployed() {
    Path root = SharedLocalCloud.repositoryRoot();
    SharedLocalCloud.requireFunctionZips(root);
    cloud =
        LocalCloud.start(
            LocalCloudOptions.builder(root.resolve("template.yaml"))
                .workDir(root.resolve("infra/local-cloud/target/e2e-poison-cloud"))
                .httpPort(0)
                .pollWaitSeconds(1)
                .build());
    api = new DeriveApi(cloud.apiUri());
  }

  @AfterAll
  static void stop() {
    if (cloud != null) {
      cloud.close();
    }
  }

  /** One job: its name in the printout, what it asks for, and what its end must be. */
  private record Job(
      String name, String key, Map<String, Object> target, Consumer<JsonNode> ends) {}

  @Test
  void poisonInputsFailAtOnceWithTheirTypeAndTheJobsBesideThemSucceed() throws Exception {
    List<Job> jobs = new ArrayList<>();
    Map<String, Object> preview = Map.of("mediaType", "image/png", "width", 200, "height", 200);
    Map<String, Object> text = Map.of("mediaType", "text/plain");
    int[][] colours = {{255, 0, 0}, {0, 160, 0}, {0, 0, 255}, {255, 200, 0}};
    for (int[] rgb : colours) {
      jobs.add(
          new Job(
              "bystander: PDF preview " + Arrays.toString(rgb),
              upload("half-" + rgb[0] + "-" + rgb[1] + "-" + rgb[2] + ".pdf", halfFilled(rgb)),
              preview,
              done -> assertLeftHalf(png(download(done)), rgb)));
      if (jobs.size() == 1) {
        jobs.add(
            new Job(
                "poison: PDF outline nested 30000 deep, to text",
                upload("nested-outline.pdf", nestedOutline(30_000)),
                text,
                failed -> assertPoison(failed, CORRUPT_INPUT)));
      } else if (jobs.size() == 3) {
        jobs.add(
            new Job(
                "poison: PDF page holding a 20000x20000 image, to PNG",
                upload("huge-image.pdf", hugeImage()),
                preview,
                failed -> assertPoison(failed, INPUT_TOO_LARGE)));
      } else if (jobs.size() == 5) {
        Path bomb = OfficePackages.docxInflatingTo(dir.resolve("bomb.docx"), 1L << 30);
        jobs.add(
            new Job(
                "poison: DOCX inflating to 1 GiB, to text",
                api.upload(bomb, DOCX),
                text,
                failed -> assertPoison(failed, INPUT_TOO_LARGE)));
      }
    }
    jobs.add(
        new Job(
            "bystander: PDF to text",
            upload("words.pdf", words("Bystander words on a page")),
            text,
            done -> assertThat(utf8(download(done))).contains("Bystander words on a page")));
    Path docx = dir.resolve("paragraph.docx");
    Files.write(docx, OfficePackages.docx(paragraph("A paragraph beside a zip bomb."), ""));
    jobs.add(
        new Job(
            "bystander: DOCX to text",
            api.upload(docx, DOCX),
            text,
            done -> assertThat(utf8(download(done))).contains("A paragraph beside a zip bomb.")));
    jobs.add(
        new Job(
            "bystander: PDF whose Type 3 glyph draws itself, to PNG",
            upload("type3-cycle.pdf", type3Cycle()),
            preview,
            done -> {
              BufferedImage image = png(download(done));
              assertThat(image.getRGB(100, 100) & 0xFF).as("the square, drawn once").isLessThan(64);
              assertThat(image.getRGB(20, 20) & 0xFF).as("outside it").isGreaterThan(192);
            }));

    // Every request at once (each a POST of milliseconds), then every job polled to its end.
    Map<String, Long> sent = new LinkedHashMap<>();
    Map<String, Job> byId = new LinkedHashMap<>();
    for (Job job : jobs) {
      sent.put(job.name(), System.nanoTime());
      byId.put(request(job.key(), job.target()), job);
    }
    Map<String, JsonNode> ended = new LinkedHashMap<>();
    Map<String, Long> took = new LinkedHashMap<>();
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(DEADLINE_SECONDS);
    Map<String, JsonNode> lastSeen = new LinkedHashMap<>();
    while (ended.size() < byId.size()) {
      if (System.nanoTime() > deadline) {
        fail(
            "within "
                + DEADLINE_SECONDS
                + " s these jobs did not end (a poison step waiting out a visibility timeout, or"
                + " a bystander bounced with it?): "
                + lastSeen);
      }
      for (Map.Entry<String, Job> entry : byId.entrySet()) {
        String id = entry.getKey();
        if (ended.containsKey(id)) {
          continue;
        }
        JsonNode job = job(id);
        lastSeen.put(entry.getValue().name(), job);
        String status = job.path("status").asText();
        if (status.equals("SUCCEEDED") || status.equals("FAILED")) {
          ended.put(id, job);
          took.put(id, System.nanoTime() - sent.get(entry.getValue().name()));
          lastSeen.remove(entry.getValue().name());
        }
      }
      Thread.sleep(100);
    }

    for (Map.Entry<String, Job> entry : byId.entrySet()) {
      JsonNode job = ended.get(entry.getKey());
      JsonNode error = job.path("error");
      System.out.printf(
          "poison e2e: %-55s %-9s %-16s attempts %d in %.1f s%s%n",
          entry.getValue().name(),
          job.path("status").asText(),
          error.isMissingNode() ? "" : error.path("type").asText().replaceAll(".*/", ""),
          job.path("steps").get(0).path("attempts").asInt(),
          took.get(entry.getKey()) / 1e9,
          error.isMissingNode() ? "" : " (\"" + error.path("detail").asText() + "\")");
    }
    assertQueuesDrain();
    for (Map.Entry<String, Job> entry : byId.entrySet()) {
      JsonNode job = ended.get(entry.getKey());
      org.assertj.core.api.Assertions.assertThatCode(() -> entry.getValue().ends().accept(job))
          .as(entry.getValue().name() + ": " + job)
          .doesNotThrowAnyException();
    }
  }

  // ------------------------------------------------------------------ expectations

  /**
   * FAILED with {@code type} (a property of the input: not retryable), at the step's first
   * delivery, said in a sentence without Java names, buckets or account ids.
   */
  private static void assertPoison(JsonNode failed, String type) {
    assertThat(failed.path("status").asText()).isEqualTo("FAILED");
    JsonNode error = failed.path("error");
    assertThat(error.path("type").asText()).endsWith(type);
    assertThat(error.path("retryable").asBoolean()).as("retryable").isFalse();
    JsonNode step = failed.path("steps").get(0);
    assertThat(step.path("status").asText()).isEqualTo("FAILED");
    assertThat(step.path("attempts").asInt()).as("failed at its first delivery").isEqualTo(1);
    assertThat(stepLogLines(failed.path("id").asText()))
        .as("one delivery ran the poison step: it was not handed back and run again")
        .hasSize(1);
    String detail = error.path("detail").asText();
    assertThat(detail).as("a sentence").contains(" ").hasSizeGreaterThan(20);
    assertThat(detail)
        .doesNotContain("Exception", "Error", "java.", "dev.derive")
        .doesNotContain(cloud.bucketName("SourceBucket"), cloud.bucketName("DerivativesBucket"))
        .doesNotContainPattern("\\d{12}");
  }

  /** The left half of {@code image} is {@code rgb} (within 8 a channel), the right half white. */
  private static void assertLeftHalf(BufferedImage image, int[] rgb) {
    assertThat(image.getWidth()).isEqualTo(200);
    int left = image.getRGB(50, 100);
    for (int c = 0; c < 3; c++) {
      int channel = (left >> (16 - 8 * c)) & 0xFF;
      assertThat(channel).as("left half, channel " + c).isBetween(rgb[c] - 8, rgb[c] + 8);
    }
    assertThat(image.getRGB(150, 100) & 0xFFFFFF).as("right half").isEqualTo(0xFFFFFF);
  }

  // ------------------------------------------------------------------ hostile and plain files

  /** A 200 × 200 pt page whose left half is filled with {@code rgb}. */
  private static byte[] halfFilled(int[] rgb) {
    return page(
        String.format(
            java.util.Locale.ROOT,
            "%.3f %.3f %.3f rg 0 0 100 200 re f",
            rgb[0] / 255.0,
            rgb[1] / 255.0,
            rgb[2] / 255.0),
        "",
        List.of());
  }

  /** A page showing {@code words} in Helvetica. */
  private static byte[] words(String words) {
    return page(
        "BT /F1 14 Tf 10 100 Td (" + words + ") Tj ET",
        "/Resources << /Font << /F1 << /Type /Font /Subtype /Type1 /BaseFont /Helvetica >> >> >>",
        List.of());
  }

  /** A page drawing a 20000 × 20000 RGB image whose stream holds three bytes. */
  private static byte[] hugeImage() {
    return page(
        "q 200 0 0 200 0 0 cm /Im0 Do Q",
        "/Resources << /XObject << /Im0 5 0 R >> >>",
        List.of(
            "<< /Type /XObject /Subtype /Image /Width 20000 /Height 20000 /ColorSpace /DeviceRGB"
                + " /BitsPerComponent 8 /Length 3 >>\nstream\nabc\nendstream"));
  }

  /** A page whose Type 3 font's one glyph fills a square, then shows itself. */
  private static byte[] type3Cycle() {
    String glyph = "1000 0 0 0 1000 1000 d1 0 0 1000 1000 re f BT /F1 1 Tf (A) Tj ET";
    return page(
        "BT /F1 100 Tf 50 50 Td (A) Tj ET",
        "/Resources 5 0 R",
        List.of(
            "<< /Font << /F1 6 0 R >> >>",
            "<< /Type /Font /Subtype /Type3 /FontBBox [0 0 1000 1000]"
                + " /FontMatrix [0.001 0 0 0.001 0 0] /CharProcs << /square 7 0 R >>"
                + " /Encoding << /Type /Encoding /Differences [65 /square] >>"
                + " /FirstChar 65 /LastChar 65 /Widths [1000] /Resources 5 0 R >>",
            stream(glyph)));
  }

  /**
   * A page with an outline whose first item holds one item, which holds one … {@code depth} deep.
   */
  private static byte[] nestedOutline(int depth) {
    List<String> extra = new ArrayList<>();
    extra.add("<< /Type /Outlines /First 6 0 R /Last 6 0 R /Count 1 >>");
    for (int i = 0; i < depth; i++) {
      int number = 6 + i;
      extra.add(
          "<< /Title (Level "
              + i
              + ") /Parent "
              + (number - 1)
              + " 0 R"
              + (i + 1 < depth
                  ? " /First " + (number + 1) + " 0 R /Last " + (number + 1) + " 0 R /Count 1"
                  : "")
              + " >>");
    }
    return MinimalPdf.document(
        "/Outlines 5 0 R",
        200,
        200,
        "BT /F1 14 Tf 10 100 Td (Outlined) Tj ET",
        "/Resources << /Font << /F1 << /Type /Font /Subtype /Type1 /BaseFont /Helvetica >> >> >>",
        extra);
  }

  /**
   * Every job has ended, so the worker queues empty within seconds: no poison message (nor a
   * batch-mate) is left in flight, to be delivered again once its visibility lapses.
   */
  private static void assertQueuesDrain() throws InterruptedException {
    Map<String, String> held = new LinkedHashMap<>();
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(15);
    try (SqsClient sqs = AwsClients.sqs(cloud.endpoint())) {
      do {
        held.clear();
        for (String queue : List.of("ImageQueue", "PdfQueue", "TextQueue")) {
          Map<QueueAttributeName, String> attributes =
              sqs.getQueueAttributes(
                      b ->
                          b.queueUrl(cloud.queueUrl(queue))
                              .attributeNames(
                                  QueueAttributeName.APPROXIMATE_NUMBER_OF_MESSAGES,
                                  QueueAttributeName.APPROXIMATE_NUMBER_OF_MESSAGES_NOT_VISIBLE))
                  .attributes();
          if (!attributes.values().stream().allMatch("0"::equals)) {
            held.put(queue, attributes.toString());
          }
        }
        if (held.isEmpty()) {
          return;
        }
        Thread.sleep(500);
      } while (System.nanoTime() < deadline);
    }
    fail("every job has ended, yet 15 s later these queues still hold messages: " + held);
  }

  /** The workers' one-per-delivery step log lines of job {@code id}, every worker together. */
  private static List<String> stepLogLines(String id) {
    return WORKERS.stream()
        .flatMap(worker -> cloud.functionLog(worker).stream())
        .filter(line -> line.contains("\"event\":\"step\"") && line.contains(id))
        .toList();
  }

  // ------------------------------------------------------------------ API

  private static String upload(String name, byte[] pdf) throws IOException, InterruptedException {
    Path file = dir.resolve(name);
    Files.write(file, pdf);
    return api.upload(file, "application/pdf");
  }

  private static String request(String key, Map<String, Object> target) throws Exception {
    ObjectNode body = api.json.createObjectNode();
    body.putObject("source").put("key", key);
    body.set("target", api.json.valueToTree(target));
    HttpResponse<String> response = api.post("/v1/derivatives", body.toString());
    assertThat(response.statusCode()).as(response.body()).isEqualTo(202);
    return api.id(response);
  }

  private static JsonNode job(String id) throws Exception {
    HttpResponse<String> response = api.get("/v1/derivatives/" + id);
    assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
    return api.json.readTree(response.body());
  }

  private static byte[] download(JsonNode done) {
    assertThat(done.path("status").asText()).isEqualTo("SUCCEEDED");
    try {
      return api.download(done);
    } catch (IOException e) {
      throw new AssertionError("download of " + done, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError(e);
    }
  }

  private static BufferedImage png(byte[] bytes) {
    assertThat(bytes).startsWith(0x89, 'P', 'N', 'G');
    try {
      BufferedImage image = ImageIO.read(new ByteArrayInputStream(bytes));
      assertThat(image).as("a decodable PNG").isNotNull();
      return image;
    } catch (IOException e) {
      throw new AssertionError(e);
    }
  }

  private static String utf8(byte[] bytes) {
    return new String(bytes, StandardCharsets.UTF_8);
  }
}
