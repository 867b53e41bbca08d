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
 *   <li>{@code Derive CJK}: Droid Sans Fallback Full (Chinese, Japanese, Korean; Apache License
 *       2.0).
 * </ul>
 *
 * The default stylesheet lists these families; openhtmltopdf falls back along the list glyph by
 * glyph and embeds only the glyphs used (subsetting).
 */
final class BundledFonts {
  /** Family names the default stylesheet uses. */
  static final String SANS = "Derive Sans";

  static final String MONO = "Derive Mono";
  static final String CJK = "Derive CJK";

  private BundledFonts() {}

  static void register(PdfRendererBuilder builder) {
    add(builder, "DejaVuSans.ttf", SANS, 400);
    add(builder, "DejaVuSans-Bold.ttf", SANS, 700);
    add(builder, "DejaVuSansMono.ttf", MONO, 400);
    add(builder, "DroidSansFallbackFull.ttf", CJK, 400);
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
