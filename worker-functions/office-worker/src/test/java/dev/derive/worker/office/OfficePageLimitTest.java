package dev.derive.worker.office;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.derive.protocol.MediaTypes;
import dev.derive.worker.runtime.PermanentStepFailure;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A page preview converts only the pages up to its own (the PDF export's page range), and a
 * document longer than the page limit (500) is refused as a whole, as one a page preview of which
 * would need more than 500 pages.
 */
class OfficePageLimitTest {
  @TempDir static Path documents;
  private static Path longDocument;
  private static Path shortDocument;

  @TempDir Path dir;

  @BeforeAll
  static void writeDocuments() throws IOException {
    longDocument = Files.write(documents.resolve("long.docx"), Documents.longDocx(600));
    shortDocument = Files.write(documents.resolve("short.docx"), Documents.longDocx(2));
  }

  @Test
  void aPagePreviewConvertsOnlyThePagesUpToIt() throws IOException {
    try (ConvertedPdf pdf = convert(longDocument, Map.of("page", 2))) {
      assertThat(pdf.pages()).isEqualTo(2);
      assertThat(pdf.text(1)).isEqualTo("This is page 1 of a long document.");
      assertThat(pdf.text(2)).isEqualTo("This is page 2 of a long document.");
    }
  }

  @Test
  void aPageBeyondTheDocumentConvertsTheWholeDocument() throws IOException {
    try (ConvertedPdf pdf = convert(shortDocument, Map.of("page", 3))) {
      assertThat(pdf.pages()).isEqualTo(2);
    }
  }

  @Test
  void aDocumentOverTheLimitIsRefusedAsAWhole() {
    assertTooLarge(
        Map.of(),
        "the document has 600 pages, more than the 500 one office conversion writes; a page"
            + " preview converts only the pages up to its own");
  }

  @Test
  void aPageThatNeedsMorePagesThanTheLimitIsRefused() {
    assertTooLarge(
        Map.of("page", 501),
        "page 501 needs the document's first 501 pages converted, more than the 500 one office"
            + " conversion writes");
  }

  @Test
  void thePageAtTheLimitIsConverted() throws IOException {
    try (ConvertedPdf pdf = convert(longDocument, Map.of("page", 500))) {
      assertThat(pdf.pages()).isEqualTo(500);
      assertThat(pdf.text(500)).isEqualTo("This is page 500 of a long document.");
    }
  }

  private void assertTooLarge(Map<String, Object> params, String detail) {
    assertThatThrownBy(() -> convert(longDocument, params).close())
        .isInstanceOfSatisfying(
            PermanentStepFailure.class,
            failure -> {
              assertThat(failure.type()).isEqualTo("input-too-large");
              assertThat(failure.detail()).isEqualTo(detail);
            });
  }

  private ConvertedPdf convert(Path document, Map<String, Object> params) throws IOException {
    Path output = Files.createTempFile(dir, "out-", ".pdf");
    TestOffice.transformer()
        .transform(TestOffice.step(MediaTypes.APPLICATION_DOCX, params), document, output);
    return ConvertedPdf.read(output);
  }
}
