package dev.derive.worker.markup;

import com.openhtmltopdf.outputdevice.helper.BaseRendererBuilder.FontStyle;
import com.openhtmltopdf.pdfboxout.PdfRendererBuilder;
import java.io.InputStream;

/**
 * The fonts shipped inside the markup worker (class-path resources under {@code fonts/}), so text
 * renders with real glyphs on a Lambda without system fonts:
 *
 * <ul>
 *   <li>{@code Derive Sans}: DejaVu Sans and DejaVu Sans Bold (Latin, Greek, Cyrillic, Arabic,
 *       Hebrew; Bitstream Vera / DejaVu licence, redistribution allowed);
 *   <li>{@code Derive Mono}: DejaVu Sans Mono;
 *   <li>{@code Derive CJK}: Droid Sans Fallback Full (Chinese and Japanese: it has no Hangul
 *       syllables; Apache License 2.0);
 *   <li>{@code Derive Korean}: NanumSquare (all 11,172 Hangul syllables and the compatibility jamo,
 *       no Hanja, which Derive CJK draws; SIL Open Font License 1.1);
 *   <li>{@code Derive Thai}, {@code Derive Devanagari}: Noto Sans Thai and Noto Sans Devanagari
 *       (OFL 1.1);
 *   <li>{@code Derive Emoji}: Noto Emoji, Google's monochrome emoji (OFL 1.1): a PDF page has no
 *       colour glyphs in openhtmltopdf.
 * </ul>
 *
 * The default stylesheet lists these families; openhtmltopdf falls back along the list glyph by
 * glyph and embeds only the glyphs used (subsetting). Each font adds its size to the function's
 * package (fonts/README.md has the sizes); a script is added with its smallest complete font.
 */
final class BundledFonts {
  /** Family names the default stylesheet uses. */
  static final String SANS = "Derive Sans";

  static final String MONO = "Derive Mono";
  static final String CJK = "Derive CJK";
  static final String KOREAN = "Derive Korean";
  static final String THAI = "Derive Thai";
  static final String DEVANAGARI = "Derive Devanagari";
  static final String EMOJI = "Derive Emoji";

  private BundledFonts() {}

  static void register(PdfRendererBuilder builder) {
    add(builder, "DejaVuSans.ttf", SANS, 400);
    add(builder, "DejaVuSans-Bold.ttf", SANS, 700);
    add(builder, "DejaVuSansMono.ttf", MONO, 400);
    add(builder, "DroidSansFallbackFull.ttf", CJK, 400);
    add(builder, "NanumSquareR.ttf", KOREAN, 400);
    add(builder, "NotoSansThai-Regular.ttf", THAI, 400);
    add(builder, "NotoSansDevanagari-Regular.ttf", DEVANAGARI, 400);
    add(builder, "NotoEmoji-Regular.ttf", EMOJI, 400);
  }

  private static void add(PdfRendererBuilder builder, String file, String family, int weight) {
    String resource = "fonts/" + file;
    if (BundledFonts.class.getResource(resource) == null) {
      throw new IllegalStateException("bundled font missing from the artifact: " + resource);
    }
    builder.useFont(() -> open(resource), family, weight, FontStyle.NORMAL, true);
  }

  private static InputStream open(String resource) {
    return BundledFonts.class.getResourceAsStream(resource);
  }
}
