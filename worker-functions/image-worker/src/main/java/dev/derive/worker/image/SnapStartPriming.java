package dev.derive.worker.image;

import dev.derive.protocol.MediaTypes;
import dev.derive.protocol.capability.Capabilities;
import dev.derive.protocol.message.MessageCodec;
import dev.derive.protocol.message.ObjectRef;
import dev.derive.protocol.message.Operation;
import dev.derive.protocol.message.StepMessage;
import dev.derive.worker.runtime.StepBatchProcessor;
import io.quarkus.runtime.Startup;
import jakarta.annotation.PostConstruct;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import javax.imageio.ImageIO;
import org.crac.Context;
import org.crac.Core;
import org.crac.Resource;

/**
 * Lambda SnapStart priming of the image worker (CRaC {@code beforeCheckpoint}, see the Quarkus "AWS
 * Lambda SnapStart" guide): injecting the batch processor at startup builds the S3 and SQS clients
 * before the snapshot, and {@link #prime} registers the ImageIO plug-ins (TwelveMonkeys) and runs a
 * tiny in-memory image through a real decode, resize (fit {@code contain}: scaling and padding) and
 * encode into every output format, plus a step message through the codec, so readers, writers,
 * colour models and Jackson are initialised in the snapshot.
 *
 * <p>Nothing unique is captured: no request reaches AWS (no connection, no credentials resolved),
 * no id or random value is generated; the scratch files are deleted.
 */
@Startup
@ApplicationScoped
public class SnapStartPriming implements Resource {
  /** The media types the image capability writes today ({@code ImageRecipe}). */
  private static final List<String> OUTPUT_TYPES =
      List.of(MediaTypes.IMAGE_JPEG, MediaTypes.IMAGE_PNG);

  private final ImageTransformer transformer;

  /**
   * @param transformer the transformer the worker runs
   * @param processor injected only so the SDK clients are built before the snapshot
   */
  @Inject
  SnapStartPriming(ImageTransformer transformer, StepBatchProcessor processor) {
    this.transformer = transformer;
  }

  @PostConstruct
  void register() {
    Core.getGlobalContext().register(this);
  }

  @Override
  public void beforeCheckpoint(Context<? extends Resource> context) throws IOException {
    prime(transformer);
  }

  @Override
  public void afterRestore(Context<? extends Resource> context) {
    // Nothing to renew: the SDK resolves credentials and opens connections on first use.
  }

  /**
   * Decodes a 64x48 JPEG and resizes and encodes it into each output format with {@code
   * transformer}.
   *
   * @throws IOException if a scratch file cannot be written, or the transform fails (a broken
   *     build, which should fail the deployment)
   */
  static void prime(ImageTransformer transformer) throws IOException {
    ImageIO.scanForPlugins();
    Path directory = Files.createTempDirectory("derive-priming");
    try {
      Path input = directory.resolve("input.jpg");
      try (OutputStream out = Files.newOutputStream(input)) {
        ImageIO.write(new BufferedImage(64, 48, BufferedImage.TYPE_INT_RGB), "jpeg", out);
      }
      for (String mediaType : OUTPUT_TYPES) {
        StepMessage step = step(mediaType);
        MessageCodec.decode(MessageCodec.encode(step), StepMessage.class);
        Path output = directory.resolve("output");
        transformer.transform(step, input, output);
        Files.deleteIfExists(output);
      }
    } finally {
      deleteScratch(directory);
    }
  }

  private static void deleteScratch(Path directory) throws IOException {
    try (var files = Files.list(directory)) {
      for (Path file : files.toList()) {
        Files.deleteIfExists(file);
      }
    }
    Files.deleteIfExists(directory);
  }

  private static StepMessage step(String mediaType) {
    return new StepMessage(
        "0".repeat(64),
        0,
        1,
        Capabilities.IMAGE,
        List.of(
            new Operation(
                Capabilities.RESIZE,
                Map.of("width", 32, "height", 32, "fit", "contain", "withoutEnlargement", true)),
            new Operation(Capabilities.ENCODE, Map.of("mediaType", mediaType))),
        ObjectRef.of("priming-source", "uploads/priming/sample.jpg"),
        MediaTypes.IMAGE_JPEG,
        ObjectRef.of("priming-derivatives", "derivatives/" + "0".repeat(64)),
        mediaType,
        "priming");
  }
}
