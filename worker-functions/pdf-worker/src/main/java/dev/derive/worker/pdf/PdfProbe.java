package dev.derive.worker.pdf;

import dev.derive.protocol.MediaTypes;
import dev.derive.protocol.message.ObjectRef;
import dev.derive.protocol.message.Operation;
import dev.derive.protocol.message.StepMessage;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import javax.imageio.ImageIO;
import org.apache.pdfbox.pdmodel.PDDocument;
import org.apache.pdfbox.pdmodel.PDPage;
import org.apache.pdfbox.pdmodel.PDPageContentStream;
import org.apache.pdfbox.pdmodel.common.PDRectangle;

/**
 * The capability's self-test (a probe, as Alfresco T-Engines have): renders a generated one-page
 * PDF, 2 x 1 inches with a black left half, at 72 DPI and checks the 144 x 72 PNG it gets.
 */
public final class PdfProbe {
  private PdfProbe() {}

  /**
   * Runs the probe in {@code directory} and deletes its files.
   *
   * @throws IllegalStateException if the output is not the expected picture
   * @throws IOException on local I/O trouble
   */
  public static void run(PdfTransformer transformer, Path directory) throws IOException {
    Path input = Files.createTempFile(directory, "probe-", ".pdf");
    Path output = Files.createTempFile(directory, "probe-", ".png");
    try {
      try (PDDocument document = new PDDocument()) {
        PDPage page = new PDPage(new PDRectangle(144, 72));
        document.addPage(page);
        try (PDPageContentStream content = new PDPageContentStream(document, page)) {
          content.addRect(0, 0, 72, 72);
          content.fill();
        }
        document.save(input.toFile());
      }
      StepMessage step =
          new StepMessage(
              "0".repeat(64),
              0,
              1,
              PdfTransformer.CAPABILITY,
              List.of(new Operation(PdfTransformer.RENDER, Map.of("page", 1, "dpi", 72))),
              ObjectRef.of("probe", "probe.pdf"),
              MediaTypes.APPLICATION_PDF,
              ObjectRef.of("probe", "probe.png"),
              MediaTypes.IMAGE_PNG,
              "probe");
      transformer.transform(step, input, output);
      BufferedImage image = ImageIO.read(output.toFile());
      if (image == null
          || image.getWidth() != 144
          || image.getHeight() != 72
          || (image.getRGB(10, 36) & 0xFFFFFF) != 0
          || (image.getRGB(130, 36) & 0xFFFFFF) != 0xFFFFFF) {
        throw new IllegalStateException("pdf probe: unexpected rendering of the probe page");
      }
    } finally {
      Files.deleteIfExists(input);
      Files.deleteIfExists(output);
    }
  }
}
