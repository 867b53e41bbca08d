package dev.derive.worker.pdf;

import static dev.derive.worker.runtime.SampleCorpus.samples;
import static dev.derive.worker.runtime.SampleCorpus.tempFiles;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.derive.protocol.message.StepErrorTypes;
import dev.derive.worker.runtime.PermanentStepFailure;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Every PDF of the shared sample corpus (system property {@code derive.samples}, set by the root
 * POM to {@code ../shared/samples}), each with its expected outcome: a page-1 thumbnail and the
 * page count of the corpus manifest, or a specific permanent error.
 */
class PdfSampleCorpusTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static Set<Path> tempBefore;

  @TempDir Path dir;

  private final PdfTransformer transformer = new PdfTransformer(100_000_000);

  @BeforeAll
  static void snapshotTempDirectory() throws IOException {
    tempBefore = tempFiles();
  }

  @AfterAll
  static void noFileIsLeftInTheTempDirectory() throws IOException {
    assertThat(tempFiles()).as("files left in java.io.tmpdir").isSubsetOf(tempBefore);
  }

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
            "pdf/PasswordSample-40bit.pdf",
            "pdf/helloworld-bad.pdf",
            "pdf/issue17215.pdf",
            "pdf/poppler-742-0-fuzzed.pdf",
            "pdf/standard_fonts.pdf",
            "pdf/testOCR.pdf",
            "pdf/testPDF-TIKA-4444.pdf");
  }

  /** Page 1 fitted into 256 x 256, and the page count of the manifest. */
  @ParameterizedTest
  @CsvSource({
    // sample, pages, thumbnail width, thumbnail height, encrypted
    "pdf/helloworld-bad.pdf, 1, 256, 256, false",
    "pdf/issue17215.pdf, 1, 181, 256, true",
    "pdf/standard_fonts.pdf, 14, 181, 256, false",
    "pdf/testOCR.pdf, 1, 256, 198, false",
    "pdf/testPDF-TIKA-4444.pdf, 13, 181, 256, false"
  })
  void rendersPageOneAndCountsPages(
      String sample, int pages, int width, int height, boolean encrypted) throws IOException {
    Path thumbnail = Files.createTempFile(dir, "page", ".png");
    transformer.transform(
        PdfTransformerTest.step(PdfTransformer.RENDER, Map.of("width", 256, "height", 256)),
        samples().resolve(sample),
        thumbnail);
    BufferedImage image = ImageIO.read(thumbnail.toFile());
    assertThat(image.getWidth()).as("width of %s", sample).isBetween(width - 1, width);
    assertThat(image.getHeight()).as("height of %s", sample).isBetween(height - 1, height);

    Path metadata = Files.createTempFile(dir, "meta", ".json");
    transformer.transform(
        PdfTransformerTest.step(PdfTransformer.METADATA, Map.of()),
        samples().resolve(sample),
        metadata);
    JsonNode json = JSON.readTree(metadata.toFile());
    assertThat(json.get("pageCount").asInt()).as("pages of %s", sample).isEqualTo(pages);
    assertThat(json.get("encrypted").asBoolean()).isEqualTo(encrypted);
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
