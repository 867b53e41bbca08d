package dev.derive.worker.image;

import static org.assertj.core.api.Assertions.assertThat;

import java.awt.image.BufferedImage;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * SVG text on Lambda (issue 29): Lambda has no system fonts, so the image worker ships its own in
 * the fonts layer ({@code target/fonts-layer/fonts}, with the {@code fonts.conf} that {@code
 * FONTCONFIG_FILE} names in template.yaml). Rendered by Derive's libvips in a process that sees
 * only those fonts, two different CJK characters (and a Hangul syllable) are two different glyphs;
 * with no fonts at all, as on a bare Lambda, every character is the same box, which shows the
 * comparison can tell the two apart.
 */
class SvgFontsTest {
  private static final Path LAYER = Path.of("target", "fonts-layer", "fonts");

  @TempDir Path dir;

  @Test
  void theFontsLayerDrawsChineseJapaneseAndKoreanGlyphsNotBoxes() throws Exception {
    assertThat(LAYER.resolve("fonts.conf"))
        .as(
            "the fonts layer is built by the package phase (./mvnw package -pl worker-functions/image-worker)")
        .isRegularFile();
    Path bundled = LAYER.resolve("fonts.conf").toAbsolutePath();
    Path bare =
        Files.writeString(
            dir.resolve("bare.conf"),
            "<fontconfig><cachedir>" + dir.resolve("cache") + "</cachedir></fontconfig>");

    assertThat(differ(render("画", bundled), render("像", bundled))).as("CJK glyphs").isTrue();
    assertThat(differ(render("한", bundled), render("글", bundled))).as("Hangul glyphs").isTrue();
    assertThat(differ(render("画", bare), render("像", bare))).as("boxes without fonts").isFalse();
  }

  /** {@code text} drawn 80 px high in a font no system has, as the sample SVGs ask. */
  private BufferedImage render(String text, Path fontconfig) throws Exception {
    Path svg = dir.resolve("text-" + text.codePointAt(0) + ".svg");
    Files.writeString(
        svg,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"120\" height=\"120\">"
            + "<rect width=\"120\" height=\"120\" fill=\"white\"/>"
            + "<text x=\"10\" y=\"95\" font-family=\"MissingInAction, sans-serif\" font-size=\"80\">"
            + text
            + "</text></svg>");
    Path png = dir.resolve(fontconfig.getFileName() + "-" + text.codePointAt(0) + ".png");
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.add("--enable-native-access=ALL-UNNAMED");
    command.add(
        "-D"
            + dev.derive.worker.libvips.Vips.PATH_PROPERTY
            + "="
            + System.getProperty(dev.derive.worker.libvips.Vips.PATH_PROPERTY, ""));
    command.add("-cp");
    command.add(System.getProperty("java.class.path"));
    command.add(SvgTextRender.class.getName());
    command.add(svg.toString());
    command.add(png.toString());
    ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
    builder.environment().put("FONTCONFIG_FILE", fontconfig.toString());
    builder.environment().remove("FONTCONFIG_PATH");
    Process process = builder.start();
    String output = new String(process.getInputStream().readAllBytes());
    assertThat(process.waitFor(60, TimeUnit.SECONDS)).isTrue();
    assertThat(process.exitValue()).as(output).isZero();
    return ImageIO.read(png.toFile());
  }

  private static boolean differ(BufferedImage a, BufferedImage b) {
    int different = 0;
    for (int y = 0; y < a.getHeight(); y++) {
      for (int x = 0; x < a.getWidth(); x++) {
        if (Math.abs((a.getRGB(x, y) & 0xff) - (b.getRGB(x, y) & 0xff)) > 64) {
          different++;
        }
      }
    }
    return different > 100;
  }
}
