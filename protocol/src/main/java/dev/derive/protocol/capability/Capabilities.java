package dev.derive.protocol.capability;

import static dev.derive.protocol.MediaTypes.IMAGE_BMP;
import static dev.derive.protocol.MediaTypes.IMAGE_GIF;
import static dev.derive.protocol.MediaTypes.IMAGE_JPEG;
import static dev.derive.protocol.MediaTypes.IMAGE_PNG;
import static dev.derive.protocol.MediaTypes.IMAGE_TIFF;
import static dev.derive.protocol.MediaTypes.IMAGE_WEBP;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** The catalogue of capabilities Derive deploys, declared as data. */
public final class Capabilities {
  /** Name of the image capability. */
  public static final String IMAGE = "image";

  /** Operation names of the image capability, in the order a fused step applies them. */
  public static final String RESIZE = "resize";

  public static final String ENCODE = "encode";

  /** Largest width or height a request may ask for, in pixels. */
  public static final int MAX_DIMENSION = 16_384;

  private static final List<String> IMAGE_READS =
      List.of(IMAGE_JPEG, IMAGE_PNG, IMAGE_GIF, IMAGE_BMP, IMAGE_TIFF, IMAGE_WEBP);
  private static final List<String> IMAGE_WRITES = List.of(IMAGE_JPEG, IMAGE_PNG);

  /**
   * The image capability: decodes (with EXIF auto-orientation), resizes and encodes. Resize fit
   * modes follow sharp's meanings.
   */
  public static final CapabilityDescriptor IMAGE_CAPABILITY =
      new CapabilityDescriptor(
          IMAGE,
          "Decode, auto-orient, resize and encode raster images.",
          "IMAGE_QUEUE_URL",
          allPairs(IMAGE_READS, IMAGE_WRITES),
          List.of(
              new OperationDescriptor(
                  RESIZE,
                  "Scale into a box of width x height pixels.",
                  List.of(
                      ParameterDescriptor.integer(
                          "width", 1, MAX_DIMENSION, null, "Box width in pixels."),
                      ParameterDescriptor.integer(
                          "height", 1, MAX_DIMENSION, null, "Box height in pixels."),
                      ParameterDescriptor.choice(
                          "fit",
                          List.of("inside"),
                          "inside",
                          "inside: keep aspect ratio, as large as possible within the box."),
                      ParameterDescriptor.bool(
                          "withoutEnlargement",
                          true,
                          "Never scale up an image smaller than the box."))),
              new OperationDescriptor(
                  ENCODE,
                  "Write the image in a target format.",
                  List.of(
                      ParameterDescriptor.choice(
                          "mediaType", IMAGE_WRITES, IMAGE_JPEG, "Output media type."),
                      ParameterDescriptor.integer(
                          "quality", 1, 100, 85, "JPEG quality (1-100).")))));

  /** Every capability, in declaration order. */
  public static final List<CapabilityDescriptor> ALL = List.of(IMAGE_CAPABILITY);

  private Capabilities() {}

  /** Returns the capability called {@code name}, if Derive has one. */
  public static Optional<CapabilityDescriptor> named(String name) {
    return ALL.stream().filter(c -> c.name().equals(name)).findFirst();
  }

  private static List<Conversion> allPairs(List<String> reads, List<String> writes) {
    List<Conversion> pairs = new ArrayList<>();
    for (String source : reads) {
      for (String target : writes) {
        pairs.add(new Conversion(source, target, 1));
      }
    }
    return pairs;
  }
}
