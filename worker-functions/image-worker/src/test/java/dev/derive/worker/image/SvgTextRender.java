package dev.derive.worker.image;

import dev.derive.worker.libvips.Vips;
import dev.derive.worker.libvips.VipsImage;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Renders one SVG to a PNG with Derive's libvips (the layer's build, as on Lambda), in a process of
 * its own: fontconfig reads {@code FONTCONFIG_FILE} once, when libvips first draws text, so each
 * font setup {@link SvgFontsTest} compares needs a fresh process.
 */
public final class SvgTextRender {
  private SvgTextRender() {}

  /** {@code args}: the SVG file and the PNG to write. */
  public static void main(String[] args) throws Exception {
    Vips vips = Vips.shared();
    try (VipsImage image =
        vips.operation("svgload_buffer")
            .set("buffer", Files.readAllBytes(Path.of(args[0])))
            .image()) {
      vips.operation("pngsave").set("in", image).set("filename", args[1]).run();
    }
  }
}
