package dev.derive.worker.image;

import dev.derive.protocol.capability.Capabilities;
import java.awt.Color;

/** Colours written as {@code #rrggbb} or {@code #rrggbbaa} ({@link Capabilities#HEX_COLOUR}). */
final class HexColour {
  private HexColour() {}

  /**
   * Parses {@code text}; without an alpha pair the colour is opaque.
   *
   * @throws IllegalArgumentException if {@code text} does not match {@link Capabilities#HEX_COLOUR}
   */
  static Color parse(String text) {
    if (text == null || !text.matches(Capabilities.HEX_COLOUR)) {
      throw new IllegalArgumentException(
          "a colour is #rrggbb or #rrggbbaa in hex digits, not '" + text + "'");
    }
    int rgb = Integer.parseInt(text.substring(1, 7), 16);
    int alpha = text.length() == 9 ? Integer.parseInt(text.substring(7), 16) : 0xFF;
    return new Color((alpha << 24) | rgb, true);
  }
}
