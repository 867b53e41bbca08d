package dev.derive.worker.office;

import java.awt.Font;
import java.awt.GraphicsEnvironment;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/** The fonts installed on this machine (fontconfig's, as Java sees them), by PostScript name. */
final class InstalledFonts {
  private static final Map<String, Font> BY_NAME =
      Stream.of(GraphicsEnvironment.getLocalGraphicsEnvironment().getAllFonts())
          .collect(Collectors.toMap(Font::getPSName, Function.identity(), (a, b) -> a));

  private InstalledFonts() {}

  /**
   * The installed font a PDF font was made from, by its base font name ({@code
   * BAAAAA+LiberationSerif}: a subset's tag, then the PostScript name), or null if none is.
   */
  static Font byPostScriptName(String pdfFontName) {
    if (pdfFontName == null) {
      return null;
    }
    String name = pdfFontName.replaceFirst("^[A-Z]{6}\\+", "");
    return BY_NAME.get(name);
  }
}
