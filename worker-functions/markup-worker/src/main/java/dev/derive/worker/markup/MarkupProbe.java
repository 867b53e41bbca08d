package dev.derive.worker.markup;

import dev.derive.protocol.MediaTypes;
import dev.derive.protocol.capability.CapabilityDeclarations;
import dev.derive.protocol.message.ObjectRef;
import dev.derive.protocol.message.Operation;
import dev.derive.protocol.message.StepMessage;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.apache.pdfbox.Loader;
import org.apache.pdfbox.pdmodel.PDDocument;
import org.apache.pdfbox.text.PDFTextStripper;

/**
 * The capability's self-test (a probe, as Alfresco T-Engines have): renders a generated Markdown
 * page with a GFM table and a Chinese phrase to an A4 PDF and checks its page size and text.
 */
public final class MarkupProbe {
  private static final String PHRASE = "Derive probe";
  private static final String CHINESE = "你好世界";

  private MarkupProbe() {}

  /**
   * Runs the probe in {@code directory} and deletes its files.
   *
   * @throws IllegalStateException if the PDF is not the expected one
   * @throws IOException on local I/O trouble
   */
  public static void run(MarkupTransformer transformer, Path directory) throws IOException {
    Path input = Files.createTempFile(directory, "probe-", ".md");
    Path output = Files.createTempFile(directory, "probe-", ".pdf");
    try {
      Files.writeString(
          input,
          "# " + PHRASE + "\n\n| cell | value |\n|---|---|\n| greeting | " + CHINESE + " |\n",
          StandardCharsets.UTF_8);
      StepMessage step =
          new StepMessage(
              "0".repeat(64),
              0,
              1,
              CapabilityDeclarations.ofThisWorker(MarkupProbe.class.getClassLoader()).name(),
              List.of(new Operation(MarkupTransformer.RENDER, Map.of("pageSize", "A4"))),
              ObjectRef.of("probe", "probe.md"),
              MediaTypes.TEXT_MARKDOWN,
              ObjectRef.of("probe", "probe.pdf"),
              MediaTypes.APPLICATION_PDF,
              "probe");
      transformer.transform(step, input, output);
      try (PDDocument pdf = Loader.loadPDF(output.toFile())) {
        String text = new PDFTextStripper().getText(pdf);
        float width = pdf.getPage(0).getMediaBox().getWidth();
        if (pdf.getNumberOfPages() != 1
            || Math.abs(width - 595.3f) > 1f
            || !text.contains(PHRASE)
            || !text.contains(CHINESE)) {
          throw new IllegalStateException("markup probe: unexpected PDF, text " + text);
        }
      }
    } finally {
      Files.deleteIfExists(input);
      Files.deleteIfExists(output);
    }
  }
}
