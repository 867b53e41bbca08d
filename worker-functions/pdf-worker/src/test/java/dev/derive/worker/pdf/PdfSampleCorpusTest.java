package dev.derive.worker.pdf;

import static dev.derive.worker.runtime.SampleCorpus.samples;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.derive.protocol.message.StepErrorTypes;
import dev.derive.worker.runtime.NoTempFilesLeft;
import dev.derive.worker.runtime.PermanentStepFailure;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import javax.imageio.ImageIO;
import org.apache.pdfbox.cos.COSName;
import org.apache.pdfbox.pdmodel.PDDocument;
import org.apache.pdfbox.pdmodel.PDResources;
import org.apache.pdfbox.pdmodel.graphics.image.PDImageXObject;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Every PDF of the shared sample corpus (system property {@code derive.samples}, set by the root
 * POM to {@code ../shared/samples}), each with its expected outcome: a page-1 thumbnail and the
 * page count of the corpus manifest, or a specific permanent error.
 */
@ExtendWith(NoTempFilesLeft.class)
class PdfSampleCorpusTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir Path dir;

  private final PdfTransformer transformer = new PdfTransformer(100_000_000);

  @Test
  void everyPdfOfTheManifestHasAnExpectation() throws IOException {
    List<String> pdfs =
        Files.readAllLines(samples().resolve("MANIFEST.tsv")).stream()
            .map(line -> line.split("\t"))
            .filter(cells -> cells.length > 1 && cells[1].startsWith("application/pdf"))
            .map(cells -> cells[0])
            .toList();

    assertThat(pdfs)
        .containsExactlyInAnyOrder(
            "pdf/JBIG2Image.pdf",
            "pdf/JPXTestRGB.pdf",
            "pdf/PasswordSample-40bit.pdf",
            "pdf/helloworld-bad.pdf",
            "pdf/issue14497.pdf",
            "pdf/issue17215.pdf",
            "pdf/pdf-with-jbig2.pdf",
            "pdf/poppler-742-0-fuzzed.pdf",
            "pdf/standard_fonts.pdf",
            "pdf/testOCR.pdf",
            "pdf/testPDF-TIKA-4444.pdf",
            "scans/c02-22.pdf",
            "scans/cardinal.pdf");
  }

  /**
   * Page 1 fitted into 256 x 256 (exactly: the page's crop box, turned by {@code /Rotate}, scaled
   * to fit and rounded down), and the page count of the manifest.
   */
  @ParameterizedTest
  @CsvSource({
    // sample, pages, thumbnail width, thumbnail height, encrypted
    "pdf/JBIG2Image.pdf, 1, 256, 213, false", // 206.66 x 172.02 pt
    "pdf/helloworld-bad.pdf, 1, 256, 256, false",
    "pdf/issue14497.pdf, 1, 256, 181, false", // A0 portrait, /Rotate 90: landscape
    "pdf/issue17215.pdf, 1, 180, 256, true", // 595 x 842 pt: 180.9 x 256
    "pdf/pdf-with-jbig2.pdf, 1, 197, 256, false", // US Letter landscape, /Rotate 270: portrait
    "pdf/standard_fonts.pdf, 14, 181, 256, false",
    "pdf/testOCR.pdf, 1, 256, 197, false",
    "pdf/testPDF-TIKA-4444.pdf, 13, 181, 256, false",
    "scans/c02-22.pdf, 1, 208, 256, false", // 384 x 470.88 pt: 208.8 x 256
    "scans/cardinal.pdf, 4, 197, 256, false" // US Letter portrait, then alternating landscape
  })
  void rendersPageOneAndCountsPages(
      String sample, int pages, int width, int height, boolean encrypted) throws IOException {
    BufferedImage image = thumbnail(sample);
    assertThat(image.getWidth()).as("width of %s", sample).isEqualTo(width);
    assertThat(image.getHeight()).as("height of %s", sample).isEqualTo(height);

    JsonNode json = metadata(sample);
    assertThat(json.get("pageCount").asInt()).as("pages of %s", sample).isEqualTo(pages);
    assertThat(json.get("encrypted").asBoolean()).isEqualTo(encrypted);
  }

  /**
   * A JBIG2 scan's thumbnail carries the ink of its scan: the mean darkness of the thumbnail is
   * within 15 % of that of the JBIG2 bitmap itself (which covers the whole page in both files).
   * Without a JBIG2 decoder PDFBox would draw nothing, a white page of darkness 0.
   */
  @ParameterizedTest
  @CsvSource({
    // sample, least darkness of the bitmap (a line drawing; a mostly white letter scan)
    "pdf/JBIG2Image.pdf, 0.3",
    "pdf/pdf-with-jbig2.pdf, 0.005",
    "scans/cardinal.pdf, 0.01" // a two-column brochure drawn through a cm matrix
  })
  void jbig2ScanRendersItsInk(String sample, double leastInk) throws IOException {
    double bitmapInk;
    try (PDDocument document = PdfTransformer.open(samples().resolve(sample))) {
      PDResources resources = document.getPage(0).getResources();
      COSName name = resources.getXObjectNames().iterator().next();
      PDImageXObject scan = (PDImageXObject) resources.getXObject(name);
      assertThat(scan.getCOSObject().getCOSName(COSName.FILTER)).isEqualTo(COSName.JBIG2_DECODE);
      bitmapInk = Ink.coverage(scan.getImage());
    }

    double thumbnailInk = Ink.coverage(thumbnail(sample));

    assertThat(bitmapInk).as("darkness of the JBIG2 bitmap of %s", sample).isGreaterThan(leastInk);
    assertThat(thumbnailInk)
        .as("darkness of the thumbnail of %s", sample)
        .isBetween(bitmapInk * 0.85, bitmapInk * 1.15);
  }

  /** The letter is scanned sideways (/Rotate 270): upright, its ink sits in the upper half. */
  @Test
  void rotatedJbig2ScanIsUpright() throws IOException {
    BufferedImage page = render("pdf/pdf-with-jbig2.pdf", Map.of("dpi", 72));
    int half = page.getHeight() / 2;

    assertThat(Ink.coverage(page, 0, 0, page.getWidth(), half))
        .as("ink of the upper half")
        .isGreaterThan(2 * Ink.coverage(page, 0, half, page.getWidth(), half));
  }

  /**
   * The A0 sheet (/Rotate 90) comes out landscape and upright: its title line runs along the top
   * left, and the mirrored corner is empty. The thumbnail is drawn at its own scale, so a pixel
   * budget far below the 35 megapixels of the page at 150 DPI is enough.
   */
  @Test
  void a0PageIsTurnedByItsRotateAndDrawnAtTheTargetScale() throws IOException {
    PdfTransformer budgeted = new PdfTransformer(1_000_000);
    Path output = Files.createTempFile(dir, "page", ".png");
    budgeted.transform(
        PdfTransformerTest.step(PdfTransformer.RENDER, Map.of("width", 1024)),
        samples().resolve("pdf/issue14497.pdf"),
        output);
    BufferedImage page = ImageIO.read(output.toFile());

    assertThat(page.getWidth()).isEqualTo(1024);
    assertThat(page.getHeight()).isEqualTo(724);
    double title = region(page, 0.03, 0.025, 0.19, 0.044);
    double mirrored = region(page, 0.81, 0.956, 0.97, 0.975);
    assertThat(title).as("ink of the title line, top left").isGreaterThan(0.02);
    assertThat(mirrored).as("ink of the mirrored corner").isLessThan(title / 10);
    assertThatThrownBy(
            () ->
                budgeted.transform(
                    PdfTransformerTest.step(PdfTransformer.RENDER, Map.of()),
                    samples().resolve("pdf/issue14497.pdf"),
                    Files.createTempFile(dir, "page", ".png")))
        .as("the same page at 150 DPI")
        .isInstanceOf(PermanentStepFailure.class)
        .extracting(e -> ((PermanentStepFailure) e).type())
        .isEqualTo(StepErrorTypes.OUTPUT_TOO_LARGE);
  }

  /**
   * This service does not decode JPEG 2000 (docs/pdf-image-codecs.md): the page with the JPX colour
   * bars is refused, naming the image, rather than drawn without them; the metadata still reads.
   */
  @Test
  void jpeg2000PageIsRefusedNamingTheImage() throws IOException {
    assertThatThrownBy(() -> thumbnail("pdf/JPXTestRGB.pdf"))
        .isInstanceOfSatisfying(
            PermanentStepFailure.class,
            failure -> {
              assertThat(failure.type()).isEqualTo(StepErrorTypes.UNSUPPORTED_INPUT);
              assertThat(failure.detail())
                  .isEqualTo(
                      "page 1 has a JPEG 2000 image (/Im0), a format this service does not decode");
            });

    assertThat(metadata("pdf/JPXTestRGB.pdf").get("pageCount").asInt()).isEqualTo(1);
  }

  @Test
  void textPdfRendersItsTextDark() throws IOException {
    Path page = Files.createTempFile(dir, "page", ".png");
    transformer.transform(
        PdfTransformerTest.step(PdfTransformer.RENDER, Map.of("dpi", 72)),
        samples().resolve("pdf/testPDF-TIKA-4444.pdf"),
        page);
    BufferedImage image = ImageIO.read(page.toFile());
    long dark = 0;
    for (int y = 0; y < image.getHeight(); y++) {
      for (int x = 0; x < image.getWidth(); x++) {
        if ((image.getRGB(x, y) & 0xFF) < 128) {
          dark++;
        }
      }
    }
    assertThat(dark).as("dark (text) pixels on page 1").isGreaterThan(1000);
  }

  @Test
  void pdfWithAUserPasswordIsRefused() {
    assertFails("pdf/PasswordSample-40bit.pdf", StepErrorTypes.PASSWORD_REQUIRED);
  }

  @Test
  void pdfWhosePageTreeIsBrokenIsCorrupt() {
    assertFails("pdf/poppler-742-0-fuzzed.pdf", StepErrorTypes.CORRUPT_INPUT);
  }

  private BufferedImage thumbnail(String sample) throws IOException {
    return render(sample, Map.of("width", 256, "height", 256));
  }

  private BufferedImage render(String sample, Map<String, Object> params) throws IOException {
    Path page = Files.createTempFile(dir, "page", ".png");
    transformer.transform(
        PdfTransformerTest.step(PdfTransformer.RENDER, params), samples().resolve(sample), page);
    return ImageIO.read(page.toFile());
  }

  private JsonNode metadata(String sample) throws IOException {
    Path metadata = Files.createTempFile(dir, "meta", ".json");
    transformer.transform(
        PdfTransformerTest.step(PdfTransformer.METADATA, Map.of()),
        samples().resolve(sample),
        metadata);
    return JSON.readTree(metadata.toFile());
  }

  /** Darkness of the region between the fractions (left, top) and (right, bottom) of the page. */
  private static double region(
      BufferedImage page, double left, double top, double right, double bottom) {
    int x = (int) (left * page.getWidth());
    int y = (int) (top * page.getHeight());
    return Ink.coverage(
        page, x, y, (int) (right * page.getWidth()) - x, (int) (bottom * page.getHeight()) - y);
  }

  private void assertFails(String sample, String type) {
    for (String operation : List.of(PdfTransformer.RENDER, PdfTransformer.METADATA)) {
      assertThatThrownBy(
              () ->
                  transformer.transform(
                      PdfTransformerTest.step(operation, Map.of()),
                      samples().resolve(sample),
                      Files.createTempFile(dir, "out", ".bin")))
          .as("%s of %s", operation, sample)
          .isInstanceOf(PermanentStepFailure.class)
          .extracting(e -> ((PermanentStepFailure) e).type())
          .isEqualTo(type);
    }
  }
}
