package dev.derive.worker.image;

import static dev.derive.worker.image.TestImages.step;
import static dev.derive.worker.runtime.SampleCorpus.samples;
import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import dev.derive.protocol.message.Operation;
import java.awt.Color;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * SVG input (issue 29 part 2): every svg/ file of the corpus with what its MANIFEST says a correct
 * derivative shows, drawn by librsvg with nothing fetched and no script run. Text needs fonts: this
 * machine's (Debian's fontconfig); a deployment draws text only where its image worker has fonts
 * (docs/image-pipeline.md).
 */
class SvgCorpusTest {
  /** The files this suite gives an expectation, for {@link SampleCorpusTest}'s guard. */
  static final List<String> FILES =
      List.of(
          "svg/url-to-png.svg",
          "svg/struct-dom-01-b.svg",
          "svg/text-fonts-01-t.svg",
          "svg/text-intro-01-t.svg",
          "svg/gt.svg",
          "svg/gu.svg");

  @TempDir Path dir;

  private final ImageTransformer transformer = new ImageTransformer(100_000_000);

  @Test
  void anExternalImageIsNotFetchedAndOnlyTheFrameIsDrawn() throws IOException {
    BufferedImage out = png(samples().resolve("svg/url-to-png.svg"), 480);

    assertThat(out.getWidth() + "x" + out.getHeight())
        .as("its viewBox, not enlarged")
        .isEqualTo("80x80");
    assertThat(new Color(out.getRGB(1, 40), true).getAlpha()).as("the frame").isGreaterThan(100);
    assertThat(new Color(out.getRGB(40, 40), true).getAlpha()).as("the empty interior").isZero();
  }

  @Test
  void aScriptDoesNotRunTheRectangleHasNoShadowAndNoSentence() throws IOException {
    BufferedImage out = png(samples().resolve("svg/struct-dom-01-b.svg"), 480);

    assertThat(out.getWidth() + "x" + out.getHeight()).isEqualTo("480x360");
    Color rect = new Color(out.getRGB(65, 175), true);
    assertThat(rect.getGreen()).isGreaterThan(100);
    assertThat(rect.getRed()).isLessThan(40);
    assertThat(drawn(out, 91, 151, 110, 215)).as("no shadow beside the rectangle").isZero();
    assertThat(drawn(out, 20, 40, 460, 140)).as("no sentence a script would insert").isZero();
  }

  @Test
  void everyLineOfGenericAndMissingFontsIsDrawn() throws IOException {
    BufferedImage out = png(samples().resolve("svg/text-fonts-01-t.svg"), 480);

    for (int baseline : new int[] {50, 80, 130, 160, 210, 240, 290}) {
      assertThat(drawn(out, 20, baseline - 16, 400, baseline))
          .as("the line ending at y=%d", baseline)
          .isGreaterThan(150);
    }
    Color fallback = averageInk(out, 40, 274, 330, 292);
    assertThat(fallback.getGreen())
        .as("'This must be displayed', in green")
        .isGreaterThan(fallback.getRed());
  }

  @Test
  void everyScriptOfTheInternationalTextIsDrawn() throws IOException {
    BufferedImage out = png(samples().resolve("svg/text-intro-01-t.svg"), 480);

    for (int top = 60; top < 290; top += 35) {
      assertThat(drawn(out, 10, top, 470, top + 20)).as("the line at y=%d", top).isGreaterThan(100);
    }
  }

  @Test
  void aDrawingWithGradientsKeepsItsAspectAndItsEmblem() throws IOException {
    BufferedImage out = png(samples().resolve("svg/gt.svg"), 256);

    assertThat(out.getWidth() + "x" + out.getHeight()).isEqualTo("256x160");
    Color stripe = new Color(out.getRGB(20, 80));
    assertThat(stripe.getBlue()).isGreaterThan(180);
    assertThat(stripe.getRed()).isBetween(50, 100);
    assertThat(new Color(out.getRGB(128, 15)).getRed()).as("white middle band").isGreaterThan(240);
    assertThat(drawn(out, 110, 60, 146, 100)).as("the emblem in the middle").isGreaterThan(200);
  }

  @Test
  void aHugeViewBoxIsDrawnAtTheBoxNotAtItsOwnSize() throws IOException {
    BufferedImage out = png(samples().resolve("svg/gu.svg"), 256);

    assertThat(out.getWidth() + "x" + out.getHeight()).isEqualTo("256x137");
    Color border = new Color(out.getRGB(2, 68));
    Color field = new Color(out.getRGB(40, 68));
    assertThat(border.getRed()).isGreaterThan(150);
    assertThat(field.getBlue()).isGreaterThan(90);
    assertThat(field.getRed()).isLessThan(30);
    Color seal = new Color(out.getRGB(120, 45));
    assertThat(seal.getBlue()).as("the seal's light blue sky").isGreaterThan(200);
  }

  /**
   * Nothing outside the input is read: neither a URL (a listener here sees it) nor a file beside.
   */
  @Test
  void referencesToTheNetworkAndToFilesBesideTheInputAreNotFollowed() throws IOException {
    AtomicInteger requests = new AtomicInteger();
    HttpServer listener = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    listener.createContext(
        "/",
        exchange -> {
          requests.incrementAndGet();
          byte[] red = TestImages.encode(TestImages.bands(8, 8, Color.RED), "png");
          exchange.sendResponseHeaders(200, red.length);
          exchange.getResponseBody().write(red);
          exchange.close();
        });
    listener.start();
    try {
      String url = "http://127.0.0.1:" + listener.getAddress().getPort();
      Files.write(
          dir.resolve("beside.png"), TestImages.encode(TestImages.bands(8, 8, Color.RED), "png"));
      String svg =
          """
          <?xml version="1.0" encoding="UTF-8"?>
          <!DOCTYPE svg PUBLIC "-//W3C//DTD SVG 1.1//EN" "%1$s/dtd">
          <svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink"
               width="60" height="30">
            <style>@import url("%1$s/style.css");</style>
            <image x="0" y="0" width="30" height="30" xlink:href="%1$s/picture.png"/>
            <image x="30" y="0" width="30" height="30" xlink:href="beside.png"/>
          </svg>
          """
              .formatted(url);
      Path input = dir.resolve("refs.svg");
      Files.writeString(input, svg, StandardCharsets.UTF_8);

      BufferedImage out = png(input, 60);

      assertThat(requests.get()).as("requests the listener saw").isZero();
      assertThat(drawn(out, 0, 0, 60, 30)).as("nothing drawn from either reference").isZero();
    } finally {
      listener.stop(0);
    }
  }

  private BufferedImage png(Path svg, int box) throws IOException {
    Path out = dir.resolve(svg.getFileName() + ".png");
    Path in = dir.resolve(svg.getFileName() + ".in");
    Files.copy(svg, in, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
    transformer.transform(
        step(
            TestImages.resize(box, box),
            new Operation(ImageRecipe.ENCODE, Map.of("mediaType", "image/png"))),
        in,
        out);
    return ImageIO.read(out.toFile());
  }

  /** Pixels in [x0, x1) x [y0, y1) that are drawn: opaque enough and not white. */
  private static int drawn(BufferedImage image, int x0, int y0, int x1, int y1) {
    int count = 0;
    for (int y = y0; y < Math.min(y1, image.getHeight()); y++) {
      for (int x = x0; x < Math.min(x1, image.getWidth()); x++) {
        Color c = new Color(image.getRGB(x, y), true);
        if (c.getAlpha() > 128 && c.getRed() + c.getGreen() + c.getBlue() < 600) {
          count++;
        }
      }
    }
    return count;
  }

  /** The mean colour of the drawn pixels in the area. */
  private static Color averageInk(BufferedImage image, int x0, int y0, int x1, int y1) {
    long r = 0;
    long g = 0;
    long b = 0;
    long n = 0;
    for (int y = y0; y < y1; y++) {
      for (int x = x0; x < x1; x++) {
        Color c = new Color(image.getRGB(x, y), true);
        if (c.getAlpha() > 128 && c.getRed() + c.getGreen() + c.getBlue() < 600) {
          r += c.getRed();
          g += c.getGreen();
          b += c.getBlue();
          n++;
        }
      }
    }
    return n == 0 ? Color.WHITE : new Color((int) (r / n), (int) (g / n), (int) (b / n));
  }
}
