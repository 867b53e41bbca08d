package dev.derive.worker.office;

import java.awt.Font;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.pdfbox.Loader;
import org.apache.pdfbox.pdmodel.PDDocument;
import org.apache.pdfbox.pdmodel.common.PDRectangle;
import org.apache.pdfbox.pdmodel.font.PDFont;
import org.apache.pdfbox.pdmodel.font.PDVectorFont;
import org.apache.pdfbox.rendering.PDFRenderer;
import org.apache.pdfbox.text.PDFTextStripper;
import org.apache.pdfbox.text.TextPosition;
import org.apache.pdfbox.util.Matrix;
import org.apache.pdfbox.util.Vector;

/**
 * A PDF the office capability wrote, read back with PDFBox the way a person checks it: its pages,
 * their size, their text, the page drawn as pixels, and the glyphs drawn as {@code .notdef} (the
 * "tofu" box a font without the character shows).
 */
final class ConvertedPdf implements AutoCloseable {
  private final PDDocument document;

  private ConvertedPdf(PDDocument document) {
    this.document = document;
  }

  static ConvertedPdf read(Path pdf) throws IOException {
    return new ConvertedPdf(Loader.loadPDF(pdf.toFile()));
  }

  int pages() {
    return document.getNumberOfPages();
  }

  /** The media box of {@code page} (1-based), in points. */
  PDRectangle size(int page) {
    return document.getPage(page - 1).getMediaBox();
  }

  /** The text of {@code page} (1-based), whitespace runs as one space. */
  String text(int page) throws IOException {
    PDFTextStripper stripper = new PDFTextStripper();
    stripper.setStartPage(page);
    stripper.setEndPage(page);
    return stripper.getText(document).replaceAll("\\s+", " ").trim();
  }

  /** {@code page} (1-based) drawn at {@code dpi}. */
  BufferedImage render(int page, int dpi) throws IOException {
    return new PDFRenderer(document).renderImageWithDPI(page - 1, dpi);
  }

  /**
   * The characters of {@code page} (1-based) drawn without a glyph of their own: the font's {@code
   * .notdef} (glyph 0), a glyph without an outline for a visible character (how LibreOffice draws
   * one its font lacks: it maps the character to the font's empty {@code .notdef} under a code of
   * its own), or a character the installed font of that name cannot display (private-use symbols
   * aside). Whitespace and format characters (bidi marks, joiners) have no outline and are left
   * out.
   */
  String notdefCharacters(int page) throws IOException {
    List<String> missing = new ArrayList<>();
    PDFTextStripper stripper =
        new PDFTextStripper() {
          @Override
          protected void showGlyph(Matrix matrix, PDFont font, int code, Vector displacement)
              throws IOException {
            String unicode = font.toUnicode(code);
            if (unicode != null && isVisible(unicode) && lacksGlyph(font, code, unicode)) {
              missing.add(unicode);
            }
            super.showGlyph(matrix, font, code, displacement);
          }
        };
    stripper.setStartPage(page);
    stripper.setEndPage(page);
    stripper.writeText(document, new StringWriter());
    return String.join("", missing);
  }

  private static boolean isVisible(String text) {
    return text.codePoints()
        .anyMatch(c -> !Character.isWhitespace(c) && Character.getType(c) != Character.FORMAT);
  }

  private static boolean lacksGlyph(PDFont font, int code, String unicode) throws IOException {
    if (font instanceof PDVectorFont vector
        && (!vector.hasGlyph(code) || vector.getPath(code).getBounds2D().isEmpty())) {
      return true;
    }
    // symbol fonts' private-use characters (Wingdings bullets) are drawn by LibreOffice's
    // replacement font under their private-use code, which the installed font need not map
    boolean privateUse =
        unicode.codePoints().allMatch(c -> Character.getType(c) == Character.PRIVATE_USE);
    Font installed = InstalledFonts.byPostScriptName(font.getName());
    return !privateUse && installed != null && installed.canDisplayUpTo(unicode) != -1;
  }

  /** Where each character of {@code page} (1-based) is drawn. */
  List<TextPosition> positions(int page) throws IOException {
    List<TextPosition> positions = new ArrayList<>();
    PDFTextStripper stripper =
        new PDFTextStripper() {
          @Override
          protected void processTextPosition(TextPosition text) {
            positions.add(text);
            super.processTextPosition(text);
          }
        };
    stripper.setStartPage(page);
    stripper.setEndPage(page);
    stripper.writeText(document, new StringWriter());
    return positions;
  }

  /**
   * How many pixels of {@code image} are marked: darker than 80 % white, so antialiasing fringes of
   * a blank page do not count; a page with one short line of text has a few hundred at 72 dpi.
   */
  static int markedPixels(BufferedImage image) {
    int marked = 0;
    for (int y = 0; y < image.getHeight(); y++) {
      for (int x = 0; x < image.getWidth(); x++) {
        if (luminance(image.getRGB(x, y)) < 0.8) {
          marked++;
        }
      }
    }
    return marked;
  }

  /**
   * Mean darkness of {@code image}, 0 (all white) to 1 (all black): 1 - luminance per pixel,
   * averaged; a blank page is 0.
   */
  static double ink(BufferedImage image) {
    double ink = 0;
    for (int y = 0; y < image.getHeight(); y++) {
      for (int x = 0; x < image.getWidth(); x++) {
        ink += 1 - luminance(image.getRGB(x, y));
      }
    }
    return ink / ((double) image.getWidth() * image.getHeight());
  }

  /** Relative luminance of an sRGB pixel, 0 black to 1 white (Rec. 709 weights). */
  private static double luminance(int rgb) {
    return (0.2126 * ((rgb >> 16) & 0xFF) + 0.7152 * ((rgb >> 8) & 0xFF) + 0.0722 * (rgb & 0xFF))
        / 255;
  }

  @Override
  public void close() throws IOException {
    document.close();
  }
}
