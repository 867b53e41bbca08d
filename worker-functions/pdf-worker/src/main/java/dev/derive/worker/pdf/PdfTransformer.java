package dev.derive.worker.pdf;

import dev.derive.protocol.message.StepErrorTypes;
import dev.derive.worker.runtime.DeclaredStep;
import dev.derive.worker.runtime.Parameters;
import dev.derive.worker.runtime.PermanentStepFailure;
import dev.derive.worker.runtime.StepTransformer;
import java.io.IOException;
import java.nio.file.Path;
import org.apache.pdfbox.Loader;
import org.apache.pdfbox.io.IOUtils;
import org.apache.pdfbox.pdmodel.PDDocument;
import org.apache.pdfbox.pdmodel.encryption.InvalidPasswordException;

/**
 * The pdf capability (Apache PDFBox 3): {@code render} draws one page to a PNG at a DPI or fitted
 * into a box ({@link PageRenderer}); {@code metadata} writes the page count, page sizes and the
 * document information as JSON ({@link PdfMetadata}).
 *
 * <p>Documents are opened with the empty user password, so files encrypted only against editing
 * render; any other password fails with {@code password-required}. A file PDFBox cannot parse (even
 * after its xref reconstruction) or that has no pages fails with {@code corrupt-input}.
 */
public final class PdfTransformer implements StepTransformer {
  /** Operation drawing one page to a PNG. */
  public static final String RENDER = "render";

  /** Operation writing the document's metadata as JSON. */
  public static final String METADATA = "metadata";

  private final long maxPixels;

  /**
   * @param maxPixels largest page rendered (width x height), in pixels (env {@code
   *     MAX_IMAGE_PIXELS}, {@code template.yaml} default 100 000 000)
   */
  public PdfTransformer(long maxPixels) {
    if (maxPixels <= 0) {
      throw new IllegalArgumentException("max pixels must be positive: " + maxPixels);
    }
    this.maxPixels = maxPixels;
  }

  /** Runs {@link PdfProbe} in {@code scratch}. */
  @Override
  public void probe(Path scratch) throws IOException {
    PdfProbe.run(this, scratch);
  }

  /**
   * {@inheritDoc}
   *
   * @throws PermanentStepFailure {@code invalid-step} (a page past the last), {@code
   *     password-required}, {@code corrupt-input}, {@code output-too-large}
   */
  @Override
  public void transform(DeclaredStep step, Path input, Path output) throws IOException {
    // each of the declaration's conversions applies one operation, writing what it writes
    Parameters operation = step.only();
    try (PDDocument document = open(input)) {
      if (document.getNumberOfPages() < 1) {
        throw new PermanentStepFailure(StepErrorTypes.CORRUPT_INPUT, "the PDF has no pages");
      }
      switch (operation.operation()) {
        case RENDER ->
            new PageRenderer(maxPixels).render(document, RenderRequest.of(operation), output);
        case METADATA -> PdfMetadata.write(document, output);
        default -> throw new IllegalStateException("undeclared operation " + operation);
      }
    }
  }

  /** Opens {@code input} in memory (no scratch files) with the empty user password. */
  static PDDocument open(Path input) {
    try {
      return Loader.loadPDF(input.toFile(), "", null, null, IOUtils.createMemoryOnlyStreamCache());
    } catch (InvalidPasswordException e) {
      throw new PermanentStepFailure(
          StepErrorTypes.PASSWORD_REQUIRED, "the PDF is encrypted with a user password", e);
    } catch (IOException | RuntimeException e) {
      // PDFBox's message ("Missing root object specification in trailer.") stays with the cause
      throw new PermanentStepFailure(
          StepErrorTypes.CORRUPT_INPUT,
          "the PDF cannot be read: it is damaged, cut short or not a PDF",
          e);
    }
  }
}
