package dev.derive.worker.pdf;

import dev.derive.protocol.MediaTypes;
import dev.derive.protocol.capability.CapabilityDeclarations;
import dev.derive.protocol.message.ObjectRef;
import dev.derive.protocol.message.Operation;
import dev.derive.protocol.message.StepMessage;
import java.awt.image.BufferedImage;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import javax.imageio.ImageIO;
import org.apache.pdfbox.cos.COSName;
import org.apache.pdfbox.pdmodel.PDDocument;
import org.apache.pdfbox.pdmodel.PDPage;
import org.apache.pdfbox.pdmodel.PDPageContentStream;
import org.apache.pdfbox.pdmodel.common.PDRectangle;
import org.apache.pdfbox.pdmodel.graphics.color.PDDeviceGray;
import org.apache.pdfbox.pdmodel.graphics.image.PDImageXObject;

/**
 * The capability's self-test (a probe, as Alfresco T-Engines have): renders a generated one-page
 * PDF, 3 x 1 inches, at 72 DPI and checks the 216 x 72 PNG it gets: the left inch is a filled
 * rectangle, the middle one a black JBIG2 image (so a deployment whose ImageIO cannot find
 * jbig2-imageio fails here, at init, instead of refusing every scan), the right one is blank.
 */
public final class PdfProbe {
  /**
   * An 8 x 8 all-black bitmap as JBIG2 segments in PDF's embedded organisation: page information,
   * an immediate lossless generic region coded with MMR, end of page (made by the tests' {@code
   * Jbig2} helper).
   */
  private static final byte[] BLACK_JBIG2 =
      HexFormat.of()
          .parseHex(
              "0000000030000100000013000000080000000800000000000000000100000000000127000100000019"
                  + "000000080000000800000000000000000001"
                  + "26a2fffe0020020000000231000100000000");

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
        PDPage page = new PDPage(new PDRectangle(216, 72));
        document.addPage(page);
        PDImageXObject jbig2 =
            new PDImageXObject(
                document,
                new ByteArrayInputStream(BLACK_JBIG2),
                COSName.JBIG2_DECODE,
                8,
                8,
                1,
                PDDeviceGray.INSTANCE);
        try (PDPageContentStream content = new PDPageContentStream(document, page)) {
          content.addRect(0, 0, 72, 72);
          content.fill();
          content.drawImage(jbig2, 72, 0, 72, 72);
        }
        document.save(input.toFile());
      }
      StepMessage step =
          new StepMessage(
              "0".repeat(64),
              0,
              1,
              CapabilityDeclarations.ofThisWorker(PdfProbe.class.getClassLoader()).name(),
              List.of(new Operation(PdfTransformer.RENDER, Map.of("page", 1, "dpi", 72))),
              ObjectRef.of("probe", "probe.pdf"),
              MediaTypes.APPLICATION_PDF,
              ObjectRef.of("probe", "probe.png"),
              MediaTypes.IMAGE_PNG,
              "probe");
      transformer.transform(step, input, output);
      BufferedImage image = ImageIO.read(output.toFile());
      if (image == null
          || image.getWidth() != 216
          || image.getHeight() != 72
          || (image.getRGB(10, 36) & 0xFFFFFF) != 0
          || (image.getRGB(108, 36) & 0xFFFFFF) != 0
          || (image.getRGB(200, 36) & 0xFFFFFF) != 0xFFFFFF) {
        throw new IllegalStateException("pdf probe: unexpected rendering of the probe page");
      }
    } finally {
      Files.deleteIfExists(input);
      Files.deleteIfExists(output);
    }
  }
}
