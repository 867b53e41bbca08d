package dev.derive.worker.video;

import dev.derive.protocol.MediaTypes;
import dev.derive.protocol.capability.CapabilityDeclarations;
import dev.derive.protocol.message.ObjectRef;
import dev.derive.protocol.message.Operation;
import dev.derive.protocol.message.StepMessage;
import dev.derive.worker.ffmpeg.TestPattern;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import javax.imageio.ImageIO;

/**
 * The capability's self-test: FFmpeg makes a two-second 320x240 {@link TestPattern} (MPEG-4 in
 * MP4), the transformer takes its poster, which must be a 320x240 PNG that is not black.
 */
final class VideoSelfTest {
  private VideoSelfTest() {}

  static void run(VideoTransformer transformer, Path directory) throws IOException {
    Path input = Files.createTempFile(directory, "probe-", ".mp4");
    Path output = Files.createTempFile(directory, "probe-", ".png");
    try {
      TestPattern.write(input, 320, 240, 25, 2, "mp4", List.of("-c:v", "mpeg4"));
      StepMessage step =
          new StepMessage(
              "probe",
              0,
              1,
              CapabilityDeclarations.ofThisWorker(VideoSelfTest.class.getClassLoader()).name(),
              List.of(new Operation(VideoTransformer.POSTER, Map.of())),
              new ObjectRef("probe", "input", null),
              "video/mp4",
              new ObjectRef("probe", "output", null),
              MediaTypes.IMAGE_PNG,
              "probe");
      transformer.transform(step, input, output);
      BufferedImage poster = ImageIO.read(output.toFile());
      if (poster == null || poster.getWidth() != 320 || poster.getHeight() != 240) {
        throw new IllegalStateException("the video probe's poster is not a 320x240 PNG");
      }
      if ((poster.getRGB(160, 120) & 0xFFFFFF) == 0 && (poster.getRGB(40, 40) & 0xFFFFFF) == 0) {
        throw new IllegalStateException("the video probe's poster is black");
      }
    } finally {
      Files.deleteIfExists(input);
      Files.deleteIfExists(output);
    }
  }
}
