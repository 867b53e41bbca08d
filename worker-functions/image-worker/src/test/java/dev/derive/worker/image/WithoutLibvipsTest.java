package dev.derive.worker.image;

import static dev.derive.worker.runtime.SampleCorpus.samples;
import static org.assertj.core.api.Assertions.assertThat;

import dev.derive.protocol.MediaTypes;
import dev.derive.worker.libvips.VipsUnavailableException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The honest fallback, in a JVM of its own where libvips cannot be found: JPEG is still served
 * (ImageIO), AVIF input and WebP/AVIF/GIF output fail with {@link VipsUnavailableException}
 * (retryable: a deployment fault, not the input's) naming where libvips was looked for.
 */
class WithoutLibvipsTest {
  @TempDir Path dir;

  @Test
  void jpegFallsBackToImageIoAndAvifIsRetryableWithTheReason() throws Exception {
    Path java = Path.of(System.getProperty("java.home"), "bin", "java");
    Process process =
        new ProcessBuilder(
                java.toString(),
                "--enable-native-access=ALL-UNNAMED",
                "-Dderive.libvips.path=" + dir.resolve("no-libvips-here"),
                "-cp",
                System.getProperty("java.class.path"),
                WithoutLibvipsTest.class.getName(),
                samples().resolve("exif/Landscape_1.jpg").toString(),
                samples().resolve("modern-images/kodim03_yuv420_8bpc.avif").toString(),
                dir.toString())
            .redirectErrorStream(true)
            .start();
    process.getOutputStream().close();
    String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(process.waitFor(60, TimeUnit.SECONDS)).isTrue();

    assertThat(process.exitValue()).as(output).isZero();
    assertThat(output).contains("jpeg: ok 256x").contains("avif: VipsUnavailableException");
    assertThat(output)
        .contains("webp out: VipsUnavailableException")
        .contains("avif out: VipsUnavailableException")
        .contains("gif out: VipsUnavailableException");
    assertThat(output).contains("no-libvips-here").contains("is not installed");
  }

  /** Child JVM: args are a JPEG, an AVIF and a scratch folder; prints one line per input. */
  public static void main(String[] args) throws IOException {
    if (System.getenv("LAMBDA_TASK_ROOT") != null || Files.exists(Path.of("/opt/lib"))) {
      System.out.println("unexpected: another libvips location exists");
    }
    ImageTransformer transformer = new ImageTransformer(100_000_000);
    var step =
        TestImages.step(TestImages.resize(256, 256), TestImages.encode(MediaTypes.IMAGE_JPEG, 85));
    Path out = Path.of(args[2], "out.jpg");
    transformer.transform(step, Path.of(args[0]), out);
    var image = javax.imageio.ImageIO.read(out.toFile());
    System.out.println("jpeg: ok " + image.getWidth() + "x" + image.getHeight());
    try {
      transformer.transform(step, Path.of(args[1]), out);
      System.out.println("avif: unexpectedly decoded");
    } catch (VipsUnavailableException e) {
      System.out.println("avif: VipsUnavailableException " + e.getMessage());
    }
    for (String mediaType :
        new String[] {MediaTypes.IMAGE_WEBP, MediaTypes.IMAGE_AVIF, MediaTypes.IMAGE_GIF}) {
      String name = mediaType.substring("image/".length());
      try {
        transformer.transform(
            TestImages.step(TestImages.resize(256, 256), TestImages.encode(mediaType, 80)),
            Path.of(args[0]),
            out);
        System.out.println(name + " out: unexpectedly encoded");
      } catch (VipsUnavailableException e) {
        System.out.println(name + " out: VipsUnavailableException " + e.getMessage());
      }
    }
  }
}
