package dev.derive.worker.markup;

import static dev.derive.worker.runtime.SampleCorpus.mediaType;
import static dev.derive.worker.runtime.SampleCorpus.samples;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.derive.protocol.message.StepErrorTypes;
import dev.derive.worker.runtime.NoTempFilesLeft;
import dev.derive.worker.runtime.PermanentStepFailure;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.apache.pdfbox.Loader;
import org.apache.pdfbox.pdmodel.PDDocument;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Every file of the corpus's {@code markdown-html} folder (system property {@code derive.samples})
 * through the markup capability with the manifest's media type: a PDF whose text contains a known
 * phrase, rendered with the bundled fonts, or a specific permanent error.
 */
@ExtendWith(NoTempFilesLeft.class)
class MarkupSampleCorpusTest {

  @TempDir Path dir;

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "markdown-html/README-zh_CN.md | 一套企业级 | DroidSansFallback",
        "markdown-html/README.ja.md | 安全 | DroidSansFallback",
        "markdown-html/testMARKDOWN.md | Café naïve résumé | DejaVuSans",
        "markdown-html/quick.html | The quick brown fox jumps over the lazy dog | DejaVuSans",
        "markdown-html/invoice.html | Website design | DejaVuSans"
      })
  void rendersToAPdfWithRealGlyphs(String sample, String phrase, String font) throws IOException {
    Path pdf = Files.createTempFile(dir, "out", ".pdf");

    new MarkupTransformer(MarkupTransformer.DEFAULT_MAX_OUTPUT_BYTES)
        .transform(
            MarkupTransformerTest.step(mediaType(sample), Map.of()),
            samples().resolve(sample),
            pdf);

    try (PDDocument document = Loader.loadPDF(pdf.toFile())) {
      assertThat(document.getNumberOfPages()).isPositive();
      assertThat(MarkupTransformerTest.fontNames(document.getPage(0)))
          .anySatisfy(name -> assertThat(name).contains(font));
    }
    String text = MarkupTransformerTest.text(pdf).replaceAll("\\s+", " ");
    assertThat(text).as("text of %s", sample).contains(phrase);
  }

  @Test
  void aStylesheetAloneIsUnsupported() {
    assertThatThrownBy(
            () ->
                new MarkupTransformer(MarkupTransformer.DEFAULT_MAX_OUTPUT_BYTES)
                    .transform(
                        MarkupTransformerTest.step(
                            mediaType("markdown-html/invoice.css"), Map.of()),
                        samples().resolve("markdown-html/invoice.css"),
                        Files.createTempFile(dir, "out", ".pdf")))
        .isInstanceOf(PermanentStepFailure.class)
        .extracting(e -> ((PermanentStepFailure) e).type())
        .isEqualTo(StepErrorTypes.UNSUPPORTED_INPUT);
  }
}
