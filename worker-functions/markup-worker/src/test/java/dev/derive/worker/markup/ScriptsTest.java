package dev.derive.worker.markup;

import static org.assertj.core.api.Assertions.assertThat;

import dev.derive.protocol.MediaTypes;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.pdfbox.Loader;
import org.apache.pdfbox.pdmodel.PDDocument;
import org.apache.pdfbox.rendering.ImageType;
import org.apache.pdfbox.rendering.PDFRenderer;
import org.apache.pdfbox.text.PDFTextStripper;
import org.apache.pdfbox.text.TextPosition;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Scripts beyond Latin and Chinese (issue 30 item 3): each is drawn with real glyphs of a bundled
 * font (never the renderer's {@code #} for a missing glyph) and read back from the PDF as written;
 * Arabic and Hebrew are laid out right to left, Arabic with its joined letter forms.
 */
class ScriptsTest {
  @TempDir Path dir;

  @Test
  void hangulThaiDevanagariAndEmojiAreDrawnWithRealGlyphs() throws IOException {
    String korean = "한국어 안녕하세요";
    String thai = "ภาษาไทย สวัสดีครับ";
    String hindi = "हिन्दी नमस्ते";
    String emoji = "smile 😀 party 🎉 thumbs 👍";
    Path pdf =
        render(
            "# " + korean + "\n\n" + korean + "\n\n" + thai + "\n\n" + hindi + "\n\n" + emoji
                + "\n",
            MediaTypes.TEXT_MARKDOWN);

    try (PDDocument document = Loader.loadPDF(pdf.toFile())) {
      String text = new PDFTextStripper().getText(document);
      assertThat(text).contains(korean, thai, "😀", "🎉", "👍").doesNotContain("#");
      // Devanagari is shaped (PDFBox applies the font's substitutions): a conjunct's glyph maps to
      // no text in the PDF, as in poppler's pdftotext, so only the letters outside one read back
      assertThat(text).contains("दी", "नम");
      assertThat(MarkupTransformerTest.fontNames(document.getPage(0)))
          .anySatisfy(name -> assertThat(name).contains("NotoSansThai"))
          .anySatisfy(name -> assertThat(name).contains("NotoSansDevanagari"))
          .anySatisfy(name -> assertThat(name).contains("NotoEmoji"));
    }
  }

  @Test
  void hebrewAndArabicReadBackInLogicalOrderAndRunRightToLeft() throws IOException {
    String hebrew = "שלום עולם";
    String arabic = "مرحبا بالعالم";
    Path pdf =
        render(
            "<html><body><p>" + hebrew + "</p><p dir=\"rtl\">" + arabic + "</p></body></html>",
            MediaTypes.TEXT_HTML);

    try (PDDocument document = Loader.loadPDF(pdf.toFile())) {
      String text = new PDFTextStripper().getText(document);
      assertThat(text).contains(hebrew, arabic);
      List<TextPosition> glyphs = positions(document);
      // the first letter of a right-to-left word stands right of its last
      assertThat(x(glyphs, "ש")).isGreaterThan(x(glyphs, "ם"));
      assertThat(x(glyphs, "ע")).isLessThan(x(glyphs, "ש"));
    }
  }

  /**
   * Shaped Arabic letters join: {@code بسم} is one stroke of ink from its first letter to its last,
   * where isolated forms leave white columns between the letters.
   */
  @Test
  void arabicLettersAreJoined() throws IOException {
    Path shaped =
        render(
            "<html><body><p style=\"font-size:60pt\">بسم</p></body></html>", MediaTypes.TEXT_HTML);

    BufferedImage page;
    try (PDDocument document = Loader.loadPDF(shaped.toFile())) {
      page = new PDFRenderer(document).renderImageWithDPI(0, 72, ImageType.GRAY);
    }
    int[] columns = inkColumns(page);
    assertThat(columns[1] - columns[0]).as("width of the ink").isGreaterThan(40);
    assertThat(blankColumnsBetween(page, columns[0], columns[1]))
        .as("white columns inside the word")
        .isZero();
  }

  private Path render(String content, String mediaType) throws IOException {
    return MarkupTransformerTest.render(dir, content, mediaType, Map.of());
  }

  private static List<TextPosition> positions(PDDocument document) throws IOException {
    List<TextPosition> glyphs = new ArrayList<>();
    PDFTextStripper stripper =
        new PDFTextStripper() {
          @Override
          protected void processTextPosition(TextPosition text) {
            glyphs.add(text);
            super.processTextPosition(text);
          }
        };
    stripper.getText(document);
    return glyphs;
  }

  private static float x(List<TextPosition> glyphs, String letter) {
    return glyphs.stream()
        .filter(g -> g.getUnicode().equals(letter))
        .findFirst()
        .orElseThrow(() -> new AssertionError("no glyph for " + letter + " in " + glyphs))
        .getX();
  }

  /** The first and last column holding a dark pixel. */
  private static int[] inkColumns(BufferedImage image) {
    int first = -1;
    int last = -1;
    for (int x = 0; x < image.getWidth(); x++) {
      if (hasInk(image, x)) {
        first = first < 0 ? x : first;
        last = x;
      }
    }
    return new int[] {first, last};
  }

  private static int blankColumnsBetween(BufferedImage image, int from, int to) {
    int blank = 0;
    for (int x = from; x <= to; x++) {
      blank += hasInk(image, x) ? 0 : 1;
    }
    return blank;
  }

  private static boolean hasInk(BufferedImage image, int x) {
    for (int y = 0; y < image.getHeight(); y++) {
      if ((image.getRGB(x, y) & 0xFF) < 128) {
        return true;
      }
    }
    return false;
  }
}
