package dev.derive.worker.pdf;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.derive.protocol.message.StepErrorTypes;
import dev.derive.worker.runtime.PermanentStepFailure;
import java.awt.Color;
import java.awt.Graphics2D;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.regex.Pattern;
import javax.imageio.ImageIO;
import org.apache.pdfbox.cos.COSArray;
import org.apache.pdfbox.cos.COSBase;
import org.apache.pdfbox.cos.COSDictionary;
import org.apache.pdfbox.cos.COSInteger;
import org.apache.pdfbox.cos.COSName;
import org.apache.pdfbox.cos.COSStream;
import org.apache.pdfbox.pdmodel.PDDocument;
import org.apache.pdfbox.pdmodel.PDPage;
import org.apache.pdfbox.pdmodel.common.PDRectangle;
import org.apache.pdfbox.pdmodel.common.PDStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A page is rendered whole or not at all: PDFs made here, each with one part PDFBox cannot draw
 * (or, for JBIG2, one it can since jbig2-imageio is installed), through the render operation.
 */
class CompletePageDrawerTest {
  /** A Java class name ("java.io.IOException") or an object hash ("Parser@139696b4"). */
  private static final Pattern JAVA_INTERNALS =
      Pattern.compile(
          "\\b[a-z]+(\\.[a-z0-9]+)+\\.[A-Z]\\w*|@[0-9a-f]{6,}|Exception|\\bat [a-z]+\\.");

  /** Draws the first resource XObject /Im1 over the whole 144 x 72 pt page. */
  private static final String DRAW_IM1 = "q 144 0 0 72 0 0 cm /Im1 Do Q";

  @TempDir Path dir;

  private final PdfTransformer transformer = new PdfTransformer(100_000_000);

  @Test
  void jbig2ImageMadeHereRendersItsPixels() throws IOException {
    BufferedImage picture = new BufferedImage(144, 72, BufferedImage.TYPE_BYTE_BINARY);
    Graphics2D g = picture.createGraphics();
    g.setColor(Color.WHITE);
    g.fillRect(0, 0, 144, 72);
    g.setColor(Color.BLACK);
    g.fillRect(0, 0, 72, 72); // left half black
    g.dispose();
    Path pdf =
        pdf(
            DRAW_IM1,
            Map.of("Im1", image("JBIG2Decode", 144, 72, 1, Jbig2.embedded(picture))),
            null);

    BufferedImage page = render(pdf);

    assertThat(page.getWidth()).isEqualTo(144);
    assertThat(Ink.coverage(page, 4, 4, 64, 64)).as("ink of the black half").isGreaterThan(0.99);
    assertThat(Ink.coverage(page, 76, 4, 64, 64)).as("ink of the white half").isLessThan(0.01);
  }

  @Test
  void imageWithAFilterNothingDecodesIsUnsupported() throws IOException {
    Path pdf = pdf(DRAW_IM1, Map.of("Im1", image("FooDecode", 2, 2, 8, new byte[4])), null);

    assertRefused(
        pdf,
        StepErrorTypes.UNSUPPORTED_INPUT,
        "page 1 has an image (/Im1) compressed with /FooDecode, which is not a PDF filter");
  }

  @Test
  void jpeg2000ImageIsUnsupportedAndNamedAsSuch() throws IOException {
    Path pdf = pdf(DRAW_IM1, Map.of("Im1", image("JPXDecode", 2, 2, 8, new byte[64])), null);

    assertRefused(
        pdf,
        StepErrorTypes.UNSUPPORTED_INPUT,
        "page 1 has a JPEG 2000 image (/Im1), a format this service does not decode");
  }

  @Test
  void imageWhoseDataTheDecoderRejectsIsUnsupported() throws IOException {
    byte[] notAJpeg = "this is not JPEG data".getBytes(StandardCharsets.US_ASCII);
    Path pdf = pdf(DRAW_IM1, Map.of("Im1", image("DCTDecode", 2, 2, 8, notAJpeg)), null);

    assertRefused(
        pdf,
        StepErrorTypes.UNSUPPORTED_INPUT,
        "page 1 has a JPEG image (/Im1) whose data cannot be decoded");
  }

  @Test
  void inlineImageWithAFilterNothingDecodesIsUnsupported() throws IOException {
    Path pdf =
        pdf(
            "q 144 0 0 72 0 0 cm BI /W 2 /H 2 /BPC 8 /CS /G /F /FooDecode ID abcd EI Q",
            null,
            null);

    assertRefused(
        pdf,
        StepErrorTypes.UNSUPPORTED_INPUT,
        "page 1 has an inline image compressed with /FooDecode, which is not a PDF filter");
  }

  @Test
  void undecodableImageInsideAFormFailsThePageToo() throws IOException {
    COSStream form = stream(DRAW_IM1.getBytes(StandardCharsets.US_ASCII));
    form.setItem(COSName.TYPE, COSName.XOBJECT);
    form.setItem(COSName.SUBTYPE, COSName.FORM);
    form.setItem(COSName.BBOX, new PDRectangle(144, 72).getCOSArray());
    form.setItem(
        COSName.RESOURCES, xObjects(Map.of("Im1", image("FooDecode", 2, 2, 8, new byte[4]))));
    Path pdf = pdf("/Fm1 Do", Map.of("Fm1", form), null);

    assertRefused(
        pdf,
        StepErrorTypes.UNSUPPORTED_INPUT,
        "page 1 has an image (/Im1) compressed with /FooDecode, which is not a PDF filter");
  }

  @Test
  void undecodableImageInAnAnnotationAppearanceFailsThePage() throws IOException {
    COSStream appearance = stream(DRAW_IM1.getBytes(StandardCharsets.US_ASCII));
    appearance.setItem(COSName.TYPE, COSName.XOBJECT);
    appearance.setItem(COSName.SUBTYPE, COSName.FORM);
    appearance.setItem(COSName.BBOX, new PDRectangle(144, 72).getCOSArray());
    appearance.setItem(
        COSName.RESOURCES, xObjects(Map.of("Im1", image("JPXDecode", 2, 2, 8, new byte[64]))));
    COSDictionary appearances = new COSDictionary();
    appearances.setItem(COSName.N, appearance);
    COSDictionary annotation = new COSDictionary();
    annotation.setItem(COSName.TYPE, COSName.ANNOT);
    annotation.setItem(COSName.SUBTYPE, COSName.getPDFName("Square"));
    annotation.setItem(COSName.RECT, new PDRectangle(144, 72).getCOSArray());
    annotation.setItem(COSName.AP, appearances);
    Path pdf = pdf("", null, null, annotation);

    assertRefused(
        pdf,
        StepErrorTypes.UNSUPPORTED_INPUT,
        "page 1 has a JPEG 2000 image (/Im1), a format this service does not decode");
  }

  @Test
  void objectMissingFromTheFileIsCorrupt() throws IOException {
    Path pdf = pdf(DRAW_IM1, null, null);

    assertRefused(
        pdf,
        StepErrorTypes.CORRUPT_INPUT,
        "page 1 draws an object (/Im1) that is missing from the PDF");
  }

  @Test
  void fontThatCannotBeLoadedIsUnsupported() throws IOException {
    COSDictionary type0WithoutDescendants = new COSDictionary();
    type0WithoutDescendants.setItem(COSName.TYPE, COSName.FONT);
    type0WithoutDescendants.setItem(COSName.SUBTYPE, COSName.TYPE0);
    type0WithoutDescendants.setName(COSName.BASE_FONT, "Broken");
    type0WithoutDescendants.setName(COSName.ENCODING, "Identity-H");
    Path pdf =
        pdf("BT /F1 24 Tf 10 30 Td <0001> Tj ET", null, Map.of("F1", type0WithoutDescendants));

    assertRefused(
        pdf, StepErrorTypes.UNSUPPORTED_INPUT, "page 1 uses a font (/F1) that cannot be loaded");
  }

  @Test
  void damagedEmbeddedFontIsDrawnWithASubstitute() throws IOException {
    COSDictionary descriptor = new COSDictionary();
    descriptor.setItem(COSName.TYPE, COSName.FONT_DESC);
    descriptor.setName(COSName.FONT_NAME, "Helvetica");
    descriptor.setInt(COSName.FLAGS, 32);
    descriptor.setItem(COSName.FONT_BBOX, new PDRectangle(0, -200, 1000, 900).getCOSArray());
    descriptor.setItem(
        COSName.FONT_FILE2, stream("not a TrueType font".getBytes(StandardCharsets.US_ASCII)));
    COSDictionary font = new COSDictionary();
    font.setItem(COSName.TYPE, COSName.FONT);
    font.setItem(COSName.SUBTYPE, COSName.TRUE_TYPE);
    font.setName(COSName.BASE_FONT, "Helvetica");
    font.setItem(COSName.FONT_DESC, descriptor);
    Path pdf = pdf("BT /F1 40 Tf 4 20 Td (HHHH) Tj ET", null, Map.of("F1", font));

    BufferedImage page = render(pdf);

    assertThat(Ink.coverage(page)).as("ink of the substituted text").isGreaterThan(0.05);
  }

  private void assertRefused(Path pdf, String type, String detail) {
    assertThatThrownBy(() -> render(pdf))
        .isInstanceOfSatisfying(
            PermanentStepFailure.class,
            failure -> {
              assertThat(failure.type()).isEqualTo(type);
              assertThat(failure.detail()).isEqualTo(detail);
              assertThat(failure.detail()).doesNotContainPattern(JAVA_INTERNALS);
            });
  }

  private BufferedImage render(Path pdf) throws IOException {
    Path output = Files.createTempFile(dir, "page", ".png");
    transformer.transform(
        PdfTransformerTest.step(PdfTransformer.RENDER, Map.of("dpi", 72)), pdf, output);
    return ImageIO.read(output.toFile());
  }

  /** A 144 x 72 pt one-page PDF drawing {@code content} with these XObjects and fonts. */
  private Path pdf(
      String content,
      Map<String, COSBase> xObjects,
      Map<String, COSBase> fonts,
      COSDictionary... annotations)
      throws IOException {
    Path pdf = Files.createTempFile(dir, "made", ".pdf");
    try (PDDocument document = new PDDocument()) {
      PDPage page = new PDPage(new PDRectangle(144, 72));
      document.addPage(page);
      COSDictionary resources = xObjects == null ? new COSDictionary() : xObjects(xObjects);
      if (fonts != null) {
        COSDictionary fontDictionary = new COSDictionary();
        fonts.forEach((name, font) -> fontDictionary.setItem(name, font));
        resources.setItem(COSName.FONT, fontDictionary);
      }
      page.getCOSObject().setItem(COSName.RESOURCES, resources);
      page.setContents(new PDStream(stream(content.getBytes(StandardCharsets.US_ASCII))));
      if (annotations.length > 0) {
        COSArray array = new COSArray();
        for (COSDictionary annotation : annotations) {
          array.add(annotation);
        }
        page.getCOSObject().setItem(COSName.ANNOTS, array);
      }
      document.save(pdf.toFile());
    }
    return pdf;
  }

  private static COSDictionary xObjects(Map<String, COSBase> xObjects) {
    COSDictionary dictionary = new COSDictionary();
    xObjects.forEach((name, xObject) -> dictionary.setItem(name, xObject));
    COSDictionary resources = new COSDictionary();
    resources.setItem(COSName.XOBJECT, dictionary);
    return resources;
  }

  /**
   * A gray image XObject whose data, {@code encoded}, is already in the form {@code filter} reads.
   */
  private static COSStream image(String filter, int width, int height, int bits, byte[] encoded)
      throws IOException {
    COSStream image = stream(encoded);
    image.setItem(COSName.TYPE, COSName.XOBJECT);
    image.setItem(COSName.SUBTYPE, COSName.IMAGE);
    image.setItem(COSName.WIDTH, COSInteger.get(width));
    image.setItem(COSName.HEIGHT, COSInteger.get(height));
    image.setItem(COSName.BITS_PER_COMPONENT, COSInteger.get(bits));
    image.setItem(COSName.COLORSPACE, COSName.DEVICEGRAY);
    image.setItem(COSName.FILTER, COSName.getPDFName(filter));
    return image;
  }

  /** A stream holding {@code raw} as is (no filter applied on writing). */
  private static COSStream stream(byte[] raw) throws IOException {
    COSStream stream = new COSStream();
    try (OutputStream out = stream.createRawOutputStream()) {
      out.write(raw);
    }
    return stream;
  }
}
