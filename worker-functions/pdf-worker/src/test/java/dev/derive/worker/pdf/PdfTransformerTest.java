package dev.derive.worker.pdf;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.derive.protocol.MediaTypes;
import dev.derive.protocol.message.ObjectRef;
import dev.derive.protocol.message.Operation;
import dev.derive.protocol.message.StepErrorTypes;
import dev.derive.protocol.message.StepMessage;
import dev.derive.worker.runtime.PermanentStepFailure;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Calendar;
import java.util.GregorianCalendar;
import java.util.List;
import java.util.Map;
import java.util.TimeZone;
import javax.imageio.ImageIO;
import org.apache.pdfbox.pdmodel.PDDocument;
import org.apache.pdfbox.pdmodel.PDDocumentInformation;
import org.apache.pdfbox.pdmodel.PDPage;
import org.apache.pdfbox.pdmodel.common.PDRectangle;
import org.apache.pdfbox.pdmodel.encryption.AccessPermission;
import org.apache.pdfbox.pdmodel.encryption.StandardProtectionPolicy;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The pdf capability on PDFs that PDFBox generates here. */
class PdfTransformerTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir Path dir;

  private final PdfTransformer transformer = new PdfTransformer(100_000_000);

  @Test
  void probeRendersTheKnownPage() throws IOException {
    transformer.probe(dir);

    assertThat(Files.list(dir)).as("the probe cleans up").isEmpty();
  }

  @Test
  void rendersTheRequestedPageAtTheRequestedDpi() throws IOException {
    Path pdf = pdf(PDRectangle.A4, PDRectangle.LETTER);

    BufferedImage page2 = png(render(pdf, Map.of("page", 2, "dpi", 72)));

    assertThat(page2.getWidth()).isEqualTo(612);
    assertThat(page2.getHeight()).isEqualTo(792);
  }

  @Test
  void defaultsToPageOneAt150Dpi() throws IOException {
    Path pdf = pdf(new PDRectangle(144, 72));

    BufferedImage page = png(render(pdf, Map.of()));

    assertThat(page.getWidth()).isEqualTo(300);
    assertThat(page.getHeight()).isEqualTo(150);
  }

  @Test
  void fitsThePageIntoABoxKeepingItsAspectRatio() throws IOException {
    Path pdf = pdf(PDRectangle.A4);

    BufferedImage page = png(render(pdf, Map.of("width", 256, "height", 256)));

    assertThat(page.getHeight()).isEqualTo(256);
    assertThat(page.getWidth()).isEqualTo(181); // 595.28 x 841.89 pt
  }

  /** In float, 842 x (256 / 842) is 255.99998: the box side must still come out 256 pixels. */
  @Test
  void theSideThatBindsFillsItsBoxDespiteFloatRounding() throws IOException {
    Path pdf = pdf(new PDRectangle(595, 842));

    BufferedImage page = png(render(pdf, Map.of("width", 256, "height", 256)));

    assertThat(page.getHeight()).isEqualTo(256);
    assertThat(page.getWidth()).isEqualTo(180); // 595 x 256 / 842 = 180.9
  }

  /**
   * Issue 14 item 4: a 4000 x 46812 pt page is 8333 x 97525 pixels at 150 DPI, over the limit; told
   * the box, it is drawn straight at the box's resolution.
   */
  @Test
  void aHugePageIsDrawnStraightIntoTheBoxItIsGiven() throws IOException {
    Path pdf = pdf(new PDRectangle(4000, 46812));

    assertFailure(() -> render(pdf, Map.of("dpi", 150)), StepErrorTypes.OUTPUT_TOO_LARGE);
    BufferedImage page =
        png(
            render(
                pdf,
                Map.of("dpi", 150, "width", 256, "fit", "inside", "withoutEnlargement", true)));

    assertThat(page.getWidth()).isEqualTo(256);
    assertThat(page.getHeight()).isEqualTo(2995); // 46812 x 256 / 4000 = 2995.97
  }

  @Test
  void aCoveringFitDrawsThePageCoveringTheBox() throws IOException {
    Path pdf = pdf(PDRectangle.A4);

    BufferedImage page = png(render(pdf, Map.of("width", 256, "height", 256, "fit", "cover")));

    assertThat(page.getWidth()).isEqualTo(256);
    assertThat(page.getHeight()).isEqualTo(362); // 841.89 x 256 / 595.28 = 362.06
  }

  @Test
  void withoutEnlargementABoxLargerThanThePageAtItsDpiLeavesItAtTheDpi() throws IOException {
    Path pdf = pdf(new PDRectangle(144, 72));

    BufferedImage capped =
        png(render(pdf, Map.of("dpi", 150, "width", 1000, "withoutEnlargement", true)));
    BufferedImage enlarged = png(render(pdf, Map.of("dpi", 150, "width", 1000)));

    assertThat(capped.getWidth()).isEqualTo(300);
    assertThat(enlarged.getWidth()).as("the box decides by default").isEqualTo(1000);
  }

  @Test
  void anUnknownFitIsAnInvalidStep() throws IOException {
    Path pdf = pdf(PDRectangle.A4);

    assertFailure(
        () -> render(pdf, Map.of("width", 256, "fit", "squash")), StepErrorTypes.INVALID_STEP);
    assertFailure(
        () -> render(pdf, Map.of("width", 256, "withoutEnlargement", "yes")),
        StepErrorTypes.INVALID_STEP);
  }

  @Test
  void rotatedPagesRenderTurned() throws IOException {
    Path pdf = dir.resolve("rotated.pdf");
    try (PDDocument document = new PDDocument()) {
      PDPage page = new PDPage(new PDRectangle(144, 72));
      page.setRotation(90);
      document.addPage(page);
      document.save(pdf.toFile());
    }

    BufferedImage image = png(render(pdf, Map.of("dpi", 72)));

    assertThat(image.getWidth()).isEqualTo(72);
    assertThat(image.getHeight()).isEqualTo(144);
  }

  @Test
  void pageOutOfRangeIsAnInvalidStep() throws IOException {
    Path pdf = pdf(PDRectangle.A4);

    assertFailure(() -> render(pdf, Map.of("page", 2)), StepErrorTypes.INVALID_STEP);
  }

  @Test
  void dpiOutOfRangeIsAnInvalidStep() throws IOException {
    Path pdf = pdf(PDRectangle.A4);

    assertFailure(() -> render(pdf, Map.of("dpi", 601)), StepErrorTypes.INVALID_STEP);
    assertFailure(() -> render(pdf, Map.of("dpi", "high")), StepErrorTypes.INVALID_STEP);
  }

  @Test
  void pageOverThePixelLimitIsRefusedBeforeRendering() throws IOException {
    Path pdf = pdf(PDRectangle.A4);
    PdfTransformer small = new PdfTransformer(1_000_000);
    Path output = Files.createTempFile(dir, "out", ".png");

    assertThatThrownBy(() -> small.transform(step(PdfTransformer.RENDER, Map.of()), pdf, output))
        .isInstanceOf(PermanentStepFailure.class)
        .extracting(e -> ((PermanentStepFailure) e).type())
        .isEqualTo(StepErrorTypes.OUTPUT_TOO_LARGE);
  }

  @Test
  void pdfEncryptedWithAnEmptyUserPasswordRenders() throws IOException {
    Path pdf = encrypted("");

    assertThat(png(render(pdf, Map.of("dpi", 72))).getWidth()).isEqualTo(595);
  }

  @Test
  void pdfWithAUserPasswordNeedsThePassword() throws IOException {
    Path pdf = encrypted("secret");

    assertFailure(() -> render(pdf, Map.of()), StepErrorTypes.PASSWORD_REQUIRED);
  }

  @Test
  void bytesThatAreNotAPdfAreCorruptInput() throws IOException {
    Path notPdf = Files.writeString(dir.resolve("not.pdf"), "hello, not a PDF");

    assertFailure(() -> render(notPdf, Map.of()), StepErrorTypes.CORRUPT_INPUT);
  }

  @Test
  void metadataListsPagesAndDocumentInformation() throws IOException {
    Path pdf = dir.resolve("info.pdf");
    try (PDDocument document = new PDDocument()) {
      document.addPage(new PDPage(PDRectangle.A4));
      document.addPage(new PDPage(PDRectangle.LETTER));
      PDDocumentInformation info = document.getDocumentInformation();
      info.setTitle("Quarterly report");
      info.setAuthor("Ada");
      info.setKeywords("derive, pdf");
      Calendar created = new GregorianCalendar(TimeZone.getTimeZone("UTC"));
      created.clear();
      created.set(2024, Calendar.JANUARY, 2, 3, 4, 5);
      info.setCreationDate(created);
      document.save(pdf.toFile());
    }
    Path output = Files.createTempFile(dir, "meta", ".json");

    transformer.transform(step(PdfTransformer.METADATA, Map.of()), pdf, output);

    JsonNode json = JSON.readTree(output.toFile());
    assertThat(json.get("pageCount").asInt()).isEqualTo(2);
    assertThat(json.get("encrypted").asBoolean()).isFalse();
    assertThat(json.get("title").asText()).isEqualTo("Quarterly report");
    assertThat(json.get("author").asText()).isEqualTo("Ada");
    assertThat(json.get("keywords").asText()).isEqualTo("derive, pdf");
    assertThat(json.get("subject").isNull()).isTrue();
    assertThat(json.get("created").asText()).isEqualTo("2024-01-02T03:04:05Z");
    assertThat(json.get("pages").get(1).get("width").asDouble()).isEqualTo(612.0);
    assertThat(json.get("pages").get(1).get("height").asDouble()).isEqualTo(792.0);
  }

  @Test
  void unknownOperationIsAnInvalidStep() throws IOException {
    Path pdf = pdf(PDRectangle.A4);
    Path output = Files.createTempFile(dir, "out", ".bin");

    assertFailure(
        () -> transformer.transform(step("explode", Map.of()), pdf, output),
        StepErrorTypes.INVALID_STEP);
  }

  private Path render(Path pdf, Map<String, Object> params) throws IOException {
    Path output = Files.createTempFile(dir, "page", ".png");
    transformer.transform(step(PdfTransformer.RENDER, params), pdf, output);
    return output;
  }

  static StepMessage step(String operation, Map<String, Object> params) {
    return new StepMessage(
        "a".repeat(64),
        0,
        1,
        "pdf",
        List.of(new Operation(operation, params)),
        ObjectRef.of("source", "in.pdf"),
        MediaTypes.APPLICATION_PDF,
        ObjectRef.of("derivatives", "out"),
        PdfTransformer.METADATA.equals(operation)
            ? MediaTypes.APPLICATION_JSON
            : MediaTypes.IMAGE_PNG,
        "test");
  }

  private Path pdf(PDRectangle... sizes) throws IOException {
    Path pdf = Files.createTempFile(dir, "doc", ".pdf");
    try (PDDocument document = new PDDocument()) {
      for (PDRectangle size : sizes) {
        document.addPage(new PDPage(size));
      }
      document.save(pdf.toFile());
    }
    return pdf;
  }

  private Path encrypted(String userPassword) throws IOException {
    Path pdf = Files.createTempFile(dir, "encrypted", ".pdf");
    try (PDDocument document = new PDDocument()) {
      document.addPage(new PDPage(PDRectangle.A4));
      StandardProtectionPolicy policy =
          new StandardProtectionPolicy("owner-secret", userPassword, new AccessPermission());
      policy.setEncryptionKeyLength(128);
      document.protect(policy);
      document.save(pdf.toFile());
    }
    return pdf;
  }

  private static BufferedImage png(Path file) throws IOException {
    BufferedImage image = ImageIO.read(file.toFile());
    assertThat(image).as("%s is a PNG", file).isNotNull();
    return image;
  }

  private static void assertFailure(
      org.assertj.core.api.ThrowableAssert.ThrowingCallable call, String type) {
    assertThatThrownBy(call)
        .isInstanceOf(PermanentStepFailure.class)
        .extracting(e -> ((PermanentStepFailure) e).type())
        .isEqualTo(type);
  }
}
