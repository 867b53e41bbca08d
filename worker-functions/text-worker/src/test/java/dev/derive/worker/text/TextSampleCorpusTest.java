package dev.derive.worker.text;

import static dev.derive.worker.runtime.SampleCorpus.mediaType;
import static dev.derive.worker.runtime.SampleCorpus.samples;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.derive.worker.runtime.NoTempFilesLeft;
import dev.derive.worker.runtime.PermanentStepFailure;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Every document, PDF, Markdown and HTML file of the shared sample corpus (system property {@code
 * derive.samples}) through the text capability, each with its expected outcome: text containing a
 * known phrase, or a specific permanent error. The input media type is the manifest's, as the
 * coordinator would send it.
 */
@ExtendWith(NoTempFilesLeft.class)
class TextSampleCorpusTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir Path dir;

  private final TextTransformer transformer =
      new TextTransformer(TextTransformer.DEFAULT_MAX_TEXT_BYTES);

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "documents/quick.docx | The quick brown fox jumps over the lazy dog",
        "documents/quick.odt | The quick brown fox jumps over the lazy dog",
        "documents/quick.pptx | The quick brown fox jumps over the lazy dog",
        "documents/quick.xlsx | The quick brown fox jumps over the lazy dog",
        "documents/russian.cp866.txt | Однажды, в студеную зимнюю пору",
        "documents/sample.rtf | The quick brown fox jumps over the lazy dog",
        "documents/testEPUB.epub | This is the text for chapter One",
        "documents/testTXT_win-1252.txt | These smart quotes are the trigger for CharsetRecog_sbcs to think"
            + " this is a “windows” encoding",
        "pdf/testPDF-TIKA-4444.pdf | Lorem ipsum",
        "pdf/standard_fonts.pdf | TCPDF Example 055",
        "pdf/helloworld-bad.pdf | Hello",
        "pdf/issue17215.pdf | Dummy PDF file",
        "pdf/issue14497.pdf | DAVID HELLIG & ABRAHAMSE - PROFESSIONAL LAND SURVEYORS",
        "markdown-html/quick.html | The quick brown fox jumps over the lazy dog",
        "markdown-html/testMARKDOWN.md | Café naïve résumé",
        "markdown-html/README-zh_CN.md | 一套企业级 UI 设计语言和 React 组件库",
        "markdown-html/README.ja.md | JavaScriptのための小さく、安全で、URL友好的なユニークな文字列ID生成器",
        "markdown-html/invoice.html | Website design",
        "markdown-html/invoice.css | @page"
      })
  void extractsTextContainingAKnownPhrase(String sample, String phrase) throws IOException {
    assertThat(extract(sample)).as("text of %s", sample).contains(phrase);
  }

  /** Only the media type is known, not the charset: Tika detects the legacy encoding. */
  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "documents/russian.cp866.txt | Однажды, в студеную зимнюю пору",
        "documents/testTXT_win-1252.txt | “windows” encoding"
      })
  void detectsTheEncodingOfLegacyText(String sample, String phrase) throws IOException {
    assertThat(extract(sample, "text/plain")).contains(phrase);
  }

  /**
   * The text starts at its first word and ends with one line break (issue 30 item 7: EPUB and RTF
   * text started with blank lines, Tika's empty paragraphs and headers).
   */
  @ParameterizedTest
  @CsvSource({
    "documents/testEPUB.epub",
    "documents/sample.rtf",
    "office/testRTFJapanese.rtf",
    "documents/quick.docx",
    "documents/quick.pptx",
    "pdf/standard_fonts.pdf",
    "markdown-html/quick.html"
  })
  void textHasNoLeadingOrTrailingBlankLines(String sample) throws IOException {
    String text = extract(sample);

    assertThat(text).as("text of %s", sample).isEqualTo(text.strip() + "\n");
  }

  /**
   * A scan (Flate or JBIG2) or a page of pictures only (JPEG 2000 colour bars) has no text layer,
   * and this capability does no OCR: the text is empty (it was Tika's empty page, two line breaks),
   * and the metadata says so: {@code "hasText": false}, no characters on the page, one page that
   * would need OCR.
   */
  @ParameterizedTest
  @CsvSource({
    "pdf/testOCR.pdf",
    "pdf/JBIG2Image.pdf",
    "pdf/pdf-with-jbig2.pdf",
    "pdf/JPXTestRGB.pdf"
  })
  void pdfWithoutATextLayerHasNoText(String sample) throws IOException {
    assertThat(extract(sample)).as("text of %s", sample).isEmpty();

    assertThat(metadata(sample).get("hasText").asBoolean(true)).isFalse();
    JsonNode metadata = metadata(sample).get("metadata");
    assertThat(metadata.get("pdf:charsPerPage").asText()).isEqualTo("0");
    assertThat(metadata.get("pdf:ocrPageCount").asText()).isEqualTo("1");
    assertThat(metadata.get("xmpTPg:NPages").asText()).isEqualTo("1");
  }

  /** The A0 survey plan's bearings are set at many angles; each comes out as one line. */
  @Test
  void textAtArbitraryAnglesIsExtracted() throws IOException {
    assertThat(extract("pdf/issue14497.pdf"))
        .contains("REFERENCE Parklands Phase 14B")
        .contains("\n320 25 00\n", "\n150 11 10\n", "\n246 55 50\n");
  }

  @Test
  void xlsxKeepsItsSpecialCharacters() throws IOException {
    assertThat(extract("documents/quick.xlsx")).contains("£");
  }

  @Test
  void htmlMetadataCarriesTitleAndAuthor() throws IOException {
    JsonNode metadata = metadata("markdown-html/quick.html").get("metadata");

    assertThat(metadata.get("dc:title").asText())
        .isEqualTo("The quick brown fox jumps over the lazy dog");
    assertThat(metadata.toString()).contains("Nevin Nollop");
  }

  @Test
  void pdfMetadataCountsPages() throws IOException {
    assertThat(metadata("pdf/testPDF-TIKA-4444.pdf").get("metadata").get("xmpTPg:NPages").asText())
        .isEqualTo("13");
    assertThat(metadata("pdf/testPDF-TIKA-4444.pdf").get("hasText").asBoolean(false)).isTrue();
  }

  @ParameterizedTest
  @CsvSource({
    "documents/quick_corrupted.pptx, corrupt-input",
    "documents/testWORD_protected_passtika.docx, password-required",
    "pdf/PasswordSample-40bit.pdf, password-required",
    "pdf/poppler-742-0-fuzzed.pdf, corrupt-input"
  })
  void failsPermanently(String sample, String type) {
    assertThatThrownBy(() -> extract(sample))
        .as("extracting %s", sample)
        .isInstanceOf(PermanentStepFailure.class)
        .extracting(e -> ((PermanentStepFailure) e).type())
        .isEqualTo(type);
  }

  @Test
  void everyNonImageFileOfTheManifestIsCoveredHere() throws IOException {
    List<String> manifest =
        Files.readAllLines(samples().resolve("MANIFEST.tsv")).stream()
            .skip(1)
            .map(line -> line.split("\t")[0])
            .filter(
                path ->
                    path.startsWith("documents/")
                        || path.startsWith("pdf/")
                        || path.startsWith("markdown-html/"))
            .toList();

    assertThat(manifest)
        .containsExactlyInAnyOrder(
            "documents/quick.docx",
            "documents/quick.odt",
            "documents/quick.pptx",
            "documents/quick.xlsx",
            "documents/quick_corrupted.pptx",
            "documents/russian.cp866.txt",
            "documents/sample.rtf",
            "documents/testEPUB.epub",
            "documents/testTXT_win-1252.txt",
            "documents/testWORD_protected_passtika.docx",
            "markdown-html/README-zh_CN.md",
            "markdown-html/README.ja.md",
            "markdown-html/invoice.css",
            "markdown-html/invoice.html",
            "markdown-html/quick.html",
            "markdown-html/testMARKDOWN.md",
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
            "pdf/testPDF-TIKA-4444.pdf");
  }

  private String extract(String sample) throws IOException {
    return extract(sample, mediaType(sample));
  }

  private String extract(String sample, String mediaType) throws IOException {
    Path output = Files.createTempFile(dir, "text", ".txt");
    transformer.transform(
        TextTransformerTest.step(TextTransformer.EXTRACT, mediaType),
        samples().resolve(sample),
        output);
    return Files.readString(output, StandardCharsets.UTF_8);
  }

  private JsonNode metadata(String sample) throws IOException {
    Path output = Files.createTempFile(dir, "meta", ".json");
    transformer.transform(
        TextTransformerTest.step(TextTransformer.METADATA, mediaType(sample)),
        samples().resolve(sample),
        output);
    return JSON.readTree(output.toFile());
  }
}
