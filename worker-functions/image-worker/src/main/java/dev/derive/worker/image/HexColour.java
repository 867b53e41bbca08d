package dev.derive.worker.image;

import java.awt.Color;

/**
 * Colours written as {@code #rrggbb} or {@code #rrggbbaa}, the pattern the image declaration gives
 * its {@code background} (the runtime has checked it).
 */
final class HexColour {
  private HexColour() {}

  /**
   * Parses {@code text}; without an alpha pair the colour is opaque.
   *
   * @throws NumberFormatException if {@code text} has other characters than hex digits after the
   *     {@code #}
   */
  static Color parse(String text) {
    int rgb = Integer.parseInt(text.substring(1, 7), 16);
    int alpha = text.length() == 9 ? Integer.parseInt(text.substring(7), 16) : 0xFF;
    return new Color((alpha << 24) | rgb, true);
  }
}
