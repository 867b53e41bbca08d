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
import org.apache.pdfbox.cos.COSArray;
import org.apache.pdfbox.cos.COSDictionary;
import org.apache.pdfbox.cos.COSName;
import org.apache.pdfbox.cos.COSStream;
import org.apache.pdfbox.pdmodel.PDDocument;
import org.apache.pdfbox.pdmodel.PDDocumentInformation;
import org.apache.pdfbox.pdmodel.PDPage;
import org.apache.pdfbox.pdmodel.PDPageContentStream;
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

  /**
   * A Type 3 glyph that draws a square and then shows itself: PDFBox recursed until the stack
   * overflowed (issue 30 item 6). The cycle is cut where it closes, as poppler does: the square is
   * drawn once and the page renders.
   */
  @Test
  @org.junit.jupiter.api.Timeout(30)
  void aType3GlyphThatDrawsItselfRendersWithTheCycleCut() throws IOException {
    Path pdf = Files.createTempFile(dir, "type3-cycle", ".pdf");
    try (PDDocument document = new PDDocument()) {
      PDPage page = new PDPage(new PDRectangle(200, 200));
      document.addPage(page);
      COSDictionary font = new COSDictionary();
      font.setItem(COSName.TYPE, COSName.FONT);
      font.setItem(COSName.SUBTYPE, COSName.getPDFName("Type3"));
      font.setItem(COSName.FONT_BBOX, rectangle(0, 0, 1000, 1000));
      font.setItem(COSName.FONT_MATRIX, numbers(0.001f, 0, 0, 0.001f, 0, 0));
      COSStream square = document.getDocument().createCOSStream();
      try (var out = square.createOutputStream()) {
        out.write(
            "1000 0 0 0 1000 1000 d1 0 0 1000 1000 re f BT /F1 1 Tf (A) Tj ET"
                .getBytes(java.nio.charset.StandardCharsets.US_ASCII));
      }
      COSDictionary procs = new COSDictionary();
      procs.setItem(COSName.getPDFName("square"), square);
      font.setItem(COSName.getPDFName("CharProcs"), procs);
      COSDictionary encoding = new COSDictionary();
      encoding.setItem(COSName.TYPE, COSName.ENCODING);
      COSArray differences = new COSArray();
      differences.add(org.apache.pdfbox.cos.COSInteger.get('A'));
      differences.add(COSName.getPDFName("square"));
      encoding.setItem(COSName.DIFFERENCES, differences);
      font.setItem(COSName.ENCODING, encoding);
      font.setInt(COSName.FIRST_CHAR, 'A');
      font.setInt(COSName.LAST_CHAR, 'A');
      font.setItem(COSName.WIDTHS, numbers(1000));
      COSDictionary fonts = new COSDictionary();
      fonts.setItem(COSName.getPDFName("F1"), font);
      COSDictionary resources = new COSDictionary();
      resources.setItem(COSName.FONT, fonts);
      font.setItem(COSName.RESOURCES, resources); // the glyph's F1 is the font itself
      page.setResources(new org.apache.pdfbox.pdmodel.PDResources(resources));
      try (var content = new PDPageContentStream(document, page)) {
        content.appendRawCommands("BT /F1 100 Tf 50 50 Td (A) Tj ET\n");
      }
      document.save(pdf.toFile());
    }

    BufferedImage image = png(render(pdf, Map.of("dpi", 72)));

    assertThat(Ink.coverage(image, 55, 55, 90, 90)).as("the square").isGreaterThan(0.95);
    assertThat(Ink.coverage(image, 0, 0, 40, 40)).as("outside it").isLessThan(0.05);
  }

  private static COSArray rectangle(float... values) {
    return numbers(values);
  }

  private static COSArray numbers(float... values) {
    COSArray array = new COSArray();
    for (float value : values) {
      array.add(new org.apache.pdfbox.cos.COSFloat(value));
    }
    return array;
  }

  /**
   * Issue 26 item 15: a page holding a 20000 x 20000 image, drawn as a thumbnail, is refused from
   * the image's dictionary before anything is decoded (PDFBox decodes an image whole: 1.6 GB),
   * whether the page draws it itself or through a form that also draws itself.
   */
  @Test
  void aPageHoldingAnImageOverTheBudgetIsRefusedBeforeItIsDecoded() throws IOException {
    for (boolean inForm : new boolean[] {false, true}) {
      Path pdf = Files.createTempFile(dir, "huge-image", ".pdf");
      try (PDDocument document = new PDDocument()) {
        PDPage page = new PDPage(PDRectangle.A4);
        document.addPage(page);
        org.apache.pdfbox.pdmodel.graphics.image.PDImageXObject image =
            org.apache.pdfbox.pdmodel.graphics.image.LosslessFactory.createFromImage(
                document, new BufferedImage(2, 2, BufferedImage.TYPE_INT_RGB));
        image.getCOSObject().setInt(org.apache.pdfbox.cos.COSName.WIDTH, 20_000);
        image.getCOSObject().setInt(org.apache.pdfbox.cos.COSName.HEIGHT, 20_000);
        org.apache.pdfbox.pdmodel.PDResources resources =
            new org.apache.pdfbox.pdmodel.PDResources();
        if (inForm) {
          org.apache.pdfbox.pdmodel.graphics.form.PDFormXObject form =
              new org.apache.pdfbox.pdmodel.graphics.form.PDFormXObject(document);
          form.setBBox(PDRectangle.A4);
          org.apache.pdfbox.pdmodel.PDResources formResources =
              new org.apache.pdfbox.pdmodel.PDResources();
          formResources.put(org.apache.pdfbox.cos.COSName.getPDFName("Self"), form);
          formResources.put(org.apache.pdfbox.cos.COSName.getPDFName("Im0"), image);
          form.setResources(formResources);
          resources.put(org.apache.pdfbox.cos.COSName.getPDFName("Fm0"), form);
        } else {
          resources.put(org.apache.pdfbox.cos.COSName.getPDFName("Im0"), image);
        }
        page.setResources(resources);
        try (var content = new org.apache.pdfbox.pdmodel.PDPageContentStream(document, page)) {
          if (inForm) {
            content.drawForm(
                (org.apache.pdfbox.pdmodel.graphics.form.PDFormXObject)
                    resources.getXObject(org.apache.pdfbox.cos.COSName.getPDFName("Fm0")));
          } else {
            content.drawImage(image, 0, 0, 595, 842);
          }
        }
        document.save(pdf.toFile());
      }

      assertThatThrownBy(() -> render(pdf, Map.of("width", 256, "height", 256)))
          .as(inForm ? "in a form" : "on the page")
          .isInstanceOf(PermanentStepFailure.class)
          .hasMessageContaining("20000x20000")
          .extracting(e -> ((PermanentStepFailure) e).type())
          .isEqualTo(StepErrorTypes.INPUT_TOO_LARGE);
    }
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
