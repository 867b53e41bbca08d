package dev.derive.worker.text;

import static dev.derive.worker.runtime.SampleCorpus.samples;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The text of corpus PDFs against {@code pdftotext} (poppler-utils), the tool a reader compares it
 * with: as many lines, the same words in the same order, no trailing white space, paragraphs apart
 * by one blank line. A newcomer's trial found {@code testPDF-TIKA-4444.pdf} double-spaced (1235
 * lines, every line a paragraph of its own, 465 ending in a space; {@code pdftotext} gives 619):
 * PDFBox's paragraph rule, a line gap over 2.5 glyph heights, held for its single-spaced lines
 * (2.53). docs/pdf-text.md.
 */
class PdfTextLikePdftotextTest {
  /** PDFs whose text layer runs in lines that both tools read in one order. */
  private static final String[] PDFS = {
    "pdf/testPDF-TIKA-4444.pdf", "pdf/helloworld-bad.pdf", "pdf/issue17215.pdf"
  };

  @TempDir Path dir;

  private final TextTransformer transformer =
      new TextTransformer(TextTransformer.DEFAULT_MAX_TEXT_BYTES);

  /**
   * Within a quarter of {@code pdftotext}'s line count (which ends each page with a blank line and
   * does not separate paragraphs that a blank line's space apart: ours does), never double.
   */
  @Test
  void aPdfHasAboutAsManyLinesAsPdftotextGives() throws Exception {
    List<String> ours = extract("pdf/testPDF-TIKA-4444.pdf").lines().toList();
    List<String> reference = pdftotext("pdf/testPDF-TIKA-4444.pdf").lines().toList();

    assertThat(ours.size())
        .as("lines of ours against pdftotext's %d", reference.size())
        .isBetween(reference.size() * 3 / 4, reference.size() * 5 / 4);
    assertThat(ours.stream().filter(line -> !line.isBlank()).count())
        .as("lines with text")
        .isEqualTo(reference.stream().filter(line -> !line.isBlank()).count());
  }

  /** Every word {@code pdftotext} reads, in its order (ours may add annotations and fields). */
  @ParameterizedTest
  @ValueSource(
      strings = {"pdf/testPDF-TIKA-4444.pdf", "pdf/helloworld-bad.pdf", "pdf/issue17215.pdf"})
  void aPdfHasTheWordsOfPdftotextInTheirOrder(String sample) throws Exception {
    List<String> ours = words(extract(sample));
    List<String> reference = words(pdftotext(sample));

    int at = 0;
    for (String word : reference) {
      int found = ours.subList(at, ours.size()).indexOf(word);
      assertThat(found)
          .as("'%s' (word %d of pdftotext's) after word %d of ours", word, at)
          .isNotNegative();
      at += found + 1;
    }
    assertThat(String.join(" ", ours)).doesNotContain("\uFFFD");
  }

  @ParameterizedTest
  @ValueSource(
      strings = {"pdf/testPDF-TIKA-4444.pdf", "pdf/helloworld-bad.pdf", "pdf/issue17215.pdf"})
  void aPdfsLinesEndWithoutWhiteSpace(String sample) throws Exception {
    assertThat(extract(sample).lines().filter(line -> !line.equals(line.stripTrailing())))
        .as("lines of %s ending in white space", sample)
        .isEmpty();
  }

  /** A paragraph ends with one blank line, and no more: not a blank line after every line. */
  @Test
  void aPdfsParagraphsAreApartByOneBlankLine() throws Exception {
    String text = extract("pdf/testPDF-TIKA-4444.pdf");

    assertThat(text)
        .contains(
            "Lorem ipsum dolor sit amet, consectetur adipiscing elit. Cras sodales diam vitae sem"
                + " fringilla pulvinar. Nunc\npharetra urna sit amet convallis cursus.")
        .contains("libero, eget condimentum risus varius vitae.\n\nDuis laoreet condimentum eros")
        .doesNotContain("\n\n\n");
  }

  private String extract(String sample) throws IOException {
    Path output = Files.createTempFile(dir, "text", ".txt");
    transformer.transform(
        TextTransformerTest.step(TextTransformer.EXTRACT, "application/pdf"),
        samples().resolve(sample),
        output);
    return Files.readString(output, StandardCharsets.UTF_8);
  }

  /**
   * {@code pdftotext}'s text of {@code sample}; fails saying what to install when it is missing.
   */
  private String pdftotext(String sample) throws Exception {
    Path output = dir.resolve("pdftotext.txt");
    Process process;
    try {
      process =
          new ProcessBuilder(
                  "pdftotext",
                  "-enc",
                  "UTF-8",
                  samples().resolve(sample).toString(),
                  output.toString())
              .redirectErrorStream(true)
              .start();
    } catch (IOException e) {
      throw new AssertionError(
          "pdftotext is missing: install poppler-utils (apt-get install poppler-utils; ./derive test"
              + " does so)",
          e);
    }
    assertThat(process.waitFor(60, TimeUnit.SECONDS)).as("pdftotext ended").isTrue();
    assertThat(process.exitValue())
        .as(new String(process.getInputStream().readAllBytes()))
        .isZero();
    return Files.readString(output, StandardCharsets.UTF_8);
  }

  private static List<String> words(String text) {
    return Arrays.stream(text.split("\\s+")).filter(word -> !word.isEmpty()).toList();
  }
}
