package dev.derive.worker.image;

import dev.derive.protocol.MediaTypes;
import dev.derive.protocol.capability.CapabilityDeclarations;
import dev.derive.protocol.message.MessageCodec;
import dev.derive.protocol.message.ObjectRef;
import dev.derive.protocol.message.Operation;
import dev.derive.protocol.message.StepMessage;
import dev.derive.worker.libvips.Vips;
import dev.derive.worker.libvips.VipsImage;
import dev.derive.worker.libvips.VipsUnavailableException;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import javax.imageio.ImageIO;

/**
 * The capability's self-test (a probe, as Alfresco T-Engines have): registers the ImageIO plug-ins
 * (TwelveMonkeys), then decodes a generated 64 x 48 JPEG, resizes it (fit {@code contain}: scaling
 * and padding) into a 32 x 32 box and encodes it into every output format, checking each result is
 * a 32 x 32 image; each step message also goes through the codec, so readers, writers, colour
 * models and Jackson are all exercised. Then libvips is loaded and shrinks the same JPEG, so a
 * SnapStart snapshot holds it initialised.
 */
public final class ImageProbe {
  /** The media types the image capability writes with ImageIO. */
  private static final List<String> OUTPUT_TYPES =
      List.of(MediaTypes.IMAGE_JPEG, MediaTypes.IMAGE_PNG);

  /** The media types written by libvips' savers, probed (and warmed) when libvips loads. */
  private static final List<String> LIBVIPS_OUTPUT_TYPES =
      List.of(MediaTypes.IMAGE_WEBP, MediaTypes.IMAGE_AVIF, MediaTypes.IMAGE_GIF);

  private ImageProbe() {}

  /**
   * Runs the probe in {@code directory} and deletes its files.
   *
   * @throws IllegalStateException if an output is not a 32 x 32 image
   * @throws IOException on local I/O trouble
   */
  public static void run(ImageTransformer transformer, Path directory) throws IOException {
    ImageIO.scanForPlugins();
    Path input = Files.createTempFile(directory, "probe-", ".jpg");
    Path output = Files.createTempFile(directory, "probe-", ".out");
    try {
      try (OutputStream out = Files.newOutputStream(input)) {
        ImageIO.write(new BufferedImage(64, 48, BufferedImage.TYPE_INT_RGB), "jpeg", out);
      }
      for (String mediaType : OUTPUT_TYPES) {
        StepMessage step = step(mediaType);
        MessageCodec.decode(MessageCodec.encode(step), StepMessage.class);
        Files.write(output, new byte[0]);
        transformer.transform(step, input, output);
        BufferedImage image = ImageIO.read(output.toFile());
        if (image == null || image.getWidth() != 32 || image.getHeight() != 32) {
          throw new IllegalStateException("image probe: unexpected " + mediaType + " output");
        }
      }
      probeLibvips(transformer, input, output);
    } finally {
      Files.deleteIfExists(input);
      Files.deleteIfExists(output);
    }
  }

  /**
   * Loads libvips, shrinks the probe JPEG with it (16 x 12 expected) and encodes it as WebP, AVIF
   * and GIF (32 x 32 expected), so the savers are initialised before a SnapStart snapshot. Without
   * libvips the worker still serves what ImageIO reads; {@link Vips#shared()} has logged why, once,
   * and steps that need libvips fail as retryable until it is deployed.
   *
   * @throws IllegalStateException if libvips loads but gives a wrong result
   */
  private static void probeLibvips(ImageTransformer transformer, Path jpeg, Path output)
      throws IOException {
    Vips vips;
    try {
      vips = Vips.shared();
    } catch (VipsUnavailableException e) {
      return;
    }
    try (VipsImage thumbnail = vips.thumbnail(jpeg, 16, 16, "")) {
      if (thumbnail.width() != 16 || thumbnail.height() != 12 || thumbnail.bytes().length != 576) {
        throw new IllegalStateException("image probe: unexpected libvips thumbnail");
      }
    }
    for (String mediaType : LIBVIPS_OUTPUT_TYPES) {
      transformer.transform(step(mediaType), jpeg, output);
      try (VipsImage image = vips.open(output)) {
        if (image.width() != 32 || image.height() != 32) {
          throw new IllegalStateException("image probe: unexpected " + mediaType + " output");
        }
      }
    }
  }

  private static StepMessage step(String mediaType) {
    return new StepMessage(
        "0".repeat(64),
        0,
        1,
        CapabilityDeclarations.ofThisWorker(ImageProbe.class.getClassLoader()).name(),
        List.of(
            new Operation(
                ImageRecipe.RESIZE,
                Map.of("width", 32, "height", 32, "fit", "contain", "withoutEnlargement", true)),
            new Operation(ImageRecipe.ENCODE, Map.of("mediaType", mediaType))),
        ObjectRef.of("probe", "probe.jpg"),
        MediaTypes.IMAGE_JPEG,
        ObjectRef.of("probe", "probe.out"),
        mediaType,
        "probe");
  }
}
