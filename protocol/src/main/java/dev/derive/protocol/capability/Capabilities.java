package dev.derive.protocol.capability;

import static dev.derive.protocol.MediaTypes.APPLICATION_DOCX;
import static dev.derive.protocol.MediaTypes.APPLICATION_EPUB;
import static dev.derive.protocol.MediaTypes.APPLICATION_JSON;
import static dev.derive.protocol.MediaTypes.APPLICATION_ODT;
import static dev.derive.protocol.MediaTypes.APPLICATION_PDF;
import static dev.derive.protocol.MediaTypes.APPLICATION_PPTX;
import static dev.derive.protocol.MediaTypes.APPLICATION_RTF;
import static dev.derive.protocol.MediaTypes.APPLICATION_XLSX;
import static dev.derive.protocol.MediaTypes.IMAGE_AVIF;
import static dev.derive.protocol.MediaTypes.IMAGE_BMP;
import static dev.derive.protocol.MediaTypes.IMAGE_GIF;
import static dev.derive.protocol.MediaTypes.IMAGE_JPEG;
import static dev.derive.protocol.MediaTypes.IMAGE_PNG;
import static dev.derive.protocol.MediaTypes.IMAGE_TIFF;
import static dev.derive.protocol.MediaTypes.IMAGE_WEBP;
import static dev.derive.protocol.MediaTypes.TEXT_HTML;
import static dev.derive.protocol.MediaTypes.TEXT_MARKDOWN;
import static dev.derive.protocol.MediaTypes.TEXT_PLAIN;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The catalogue of capabilities Derive deploys, declared as data: what each reads and writes, the
 * operations it offers with their parameters, and which target options each operation consumes. The
 * planner, the request validator and {@code GET /v1/capabilities} read these declarations; workers
 * check their steps against the same constants.
 *
 * <p>Longer than 300 lines on purpose: it is a table, not logic, and keeping every capability's
 * declaration beside the shared limits and parameter builders lets one reading show what Derive
 * accepts (splitting it per capability would scatter the limits the declarations share).
 */
public final class Capabilities {
  /** Capability names. */
  public static final String IMAGE = "image";

  public static final String PDF = "pdf";
  public static final String TEXT = "text";
  public static final String MARKUP = "markup";

  /** Operation names (an operation name is scoped to its capability). */
  public static final String RESIZE = "resize";

  /** Image operation cutting a region out of the upright image, before {@link #RESIZE}. */
  public static final String CROP = "crop";

  /** Image operations reachable through explicit steps only (they consume no target option). */
  public static final String IMAGE_PAGE = "page";

  public static final String ROTATE = "rotate";
  public static final String FLIP = "flip";
  public static final String FLOP = "flop";
  public static final String GREYSCALE = "greyscale";

  public static final String ENCODE = "encode";
  public static final String RENDER = "render";
  public static final String METADATA = "metadata";
  public static final String EXTRACT = "extract";

  /** Largest width or height a request may ask for, in pixels. */
  public static final int MAX_DIMENSION = 16_384;

  /** Largest page number a request may ask for (1-based). */
  public static final int MAX_PAGE = 100_000;

  /** Largest PDF rendering resolution, in dots per inch. */
  public static final int MAX_DPI = 600;

  /** Resize fit modes the image worker implements (sharp's meanings). */
  public static final List<String> FIT_MODES =
      List.of("cover", "contain", "fill", "inside", "outside");

  /** Crop gravities: where a {@code width} x {@code height} region sits (sharp's names). */
  public static final List<String> GRAVITIES =
      List.of(
          "centre",
          "north",
          "northeast",
          "east",
          "southeast",
          "south",
          "southwest",
          "west",
          "northwest");

  /** Largest crop offset ({@code left}, {@code top}) a request may give, in pixels. */
  public static final int MAX_OFFSET = 1_000_000;

  /** A background colour: {@code #rrggbb} or {@code #rrggbbaa}, hex digits of either case. */
  public static final String HEX_COLOUR = "#[0-9a-fA-F]{6}([0-9a-fA-F]{2})?";

  private static final List<String> IMAGE_READS =
      List.of(
          IMAGE_JPEG,
          IMAGE_PNG,
          IMAGE_GIF,
          IMAGE_BMP,
          IMAGE_TIFF,
          IMAGE_WEBP,
          IMAGE_AVIF,
          // HEIF as Tika names it: image/heif (brand mif1 first), image/heic (heic, heix first);
          // AV1 pictures through libvips, HEVC through FFmpeg (docs/heic-and-video.md)
          "image/heif",
          "image/heic");

  /** What the image capability writes; WebP, AVIF and GIF through libvips' savers. */
  private static final List<String> IMAGE_WRITES =
      List.of(IMAGE_JPEG, IMAGE_PNG, IMAGE_WEBP, IMAGE_AVIF, IMAGE_GIF);

  private static final List<String> TEXT_READS =
      List.of(
          APPLICATION_PDF,
          APPLICATION_DOCX,
          APPLICATION_XLSX,
          APPLICATION_PPTX,
          APPLICATION_ODT,
          APPLICATION_RTF,
          APPLICATION_EPUB,
          TEXT_HTML,
          TEXT_PLAIN,
          TEXT_MARKDOWN);
  private static final List<String> MARKUP_READS = List.of(TEXT_MARKDOWN, TEXT_HTML);

  // no declared default: a step without it keeps its fingerprint
  private static ParameterDescriptor lossless() {
    return ParameterDescriptor.flag("lossless", "Lossless WebP (default false).");
  }

  // 0..9 as libvips' heifsave (AVIF); webpsave stops at 6, so WebP reads 7..9 as 6; gifsave's
  // 1..10 is 0..9 plus one
  private static ParameterDescriptor effort() {
    return ParameterDescriptor.integer(
        "effort",
        0,
        9,
        null,
        "WebP/AVIF/GIF CPU effort, 0 fastest to 9 smallest (WebP max 6). Default: WebP 4, AVIF 3"
            + " up to 256x256 px and 4 above, GIF 6.");
  }

  private static ParameterDescriptor width(String description) {
    return ParameterDescriptor.integer("width", 1, MAX_DIMENSION, null, description);
  }

  private static ParameterDescriptor height(String description) {
    return ParameterDescriptor.integer("height", 1, MAX_DIMENSION, null, description);
  }

  /**
   * The options a request's {@code target} may give besides {@code mediaType}. Each is consumed by
   * an operation that lists it in {@link OperationDescriptor#consumes()}; defaults are the
   * consuming operation's.
   */
  public static final List<ParameterDescriptor> TARGET_OPTIONS =
      List.of(
          width("Box width in pixels."),
          height("Box height in pixels."),
          ParameterDescriptor.choice(
              "fit", FIT_MODES, null, "How the image fits the box (sharp's meanings)."),
          ParameterDescriptor.flag(
              "withoutEnlargement", "Never scale up an image smaller than the box."),
          ParameterDescriptor.integer("page", 1, MAX_PAGE, null, "Page to render (1-based)."),
          ParameterDescriptor.integer(
              "quality", 1, 100, null, "JPEG/WebP/AVIF quality (1-100; GIF has none)."),
          lossless(),
          effort(),
          ParameterDescriptor.text(
              "background", HEX_COLOUR, null, "Background colour, #rrggbb or #rrggbbaa."),
          ParameterDescriptor.integer("dpi", 1, MAX_DPI, null, "Rendering resolution in dpi."));

  /**
   * The image capability: decodes (with EXIF auto-orientation), resizes and encodes. Resize fit
   * modes follow sharp's meanings; {@link #FIT_MODES} lists those implemented.
   */
  public static final CapabilityDescriptor IMAGE_CAPABILITY =
      new CapabilityDescriptor(
          IMAGE,
          "Decode, auto-orient, crop, resize and encode raster images.",
          "IMAGE_QUEUE_URL",
          allPairs(
              IMAGE_READS,
              IMAGE_WRITES,
              1,
              List.of(IMAGE_PAGE, CROP, RESIZE, ROTATE, FLIP, FLOP, GREYSCALE, ENCODE)),
          List.of(
              new OperationDescriptor(
                  IMAGE_PAGE,
                  "Pick a TIFF page or GIF frame.",
                  List.of(ParameterDescriptor.integer("page", 1, MAX_PAGE, 1, "1-based.")),
                  List.of(),
                  true),
              new OperationDescriptor(
                  CROP,
                  "Cut a box (left, top) or a gravity-placed region out of the upright image.",
                  List.of(
                      ParameterDescriptor.integer(
                          "left", 0, MAX_OFFSET, null, "Left edge of the box in pixels."),
                      ParameterDescriptor.integer(
                          "top", 0, MAX_OFFSET, null, "Top edge of the box in pixels."),
                      width("Region width in pixels.").asRequired(),
                      height("Region height in pixels.").asRequired(),
                      ParameterDescriptor.choice(
                          "gravity",
                          GRAVITIES,
                          null,
                          "Where the region sits when left and top are not given (default"
                              + " centre).")),
                  List.of(),
                  true,
                  List.of(),
                  // the image worker's ImageRecipe.crop: a box is placed by both offsets or by a
                  // gravity, never by one offset or by both ways at once
                  List.of(
                      ParameterGroup.allOrNone("left", "top"),
                      ParameterGroup.atMostOne("left", "gravity"))),
              new OperationDescriptor(
                  RESIZE,
                  "Scale into a box of width x height pixels (at least one of them).",
                  List.of(
                      width("Box width in pixels."),
                      height("Box height in pixels."),
                      ParameterDescriptor.choice(
                          "fit",
                          FIT_MODES,
                          "inside",
                          "sharp's fit modes: cover (crop the centre), contain (pad with"
                              + " background), fill (stretch), inside, outside."),
                      ParameterDescriptor.bool(
                          "withoutEnlargement",
                          true,
                          "Never scale up an image smaller than the box."),
                      ParameterDescriptor.text(
                          "background",
                          HEX_COLOUR,
                          null,
                          "Colour of areas the image does not cover, #rrggbb or #rrggbbaa.")),
                  List.of("width", "height", "fit", "withoutEnlargement", "background"),
                  true,
                  List.of(),
                  // ImageRecipe.box: "resize needs a width or a height"
                  List.of(ParameterGroup.atLeastOne("width", "height"))),
              new OperationDescriptor(
                  ROTATE,
                  "Rotate clockwise.",
                  // the worker turns by quarter turns only (ImageRecipe: 90, 180 or 270)
                  List.of(
                      ParameterDescriptor.steppedInteger(
                              "angle", 90, 270, 90, "Degrees clockwise: 90, 180 or 270.")
                          .asRequired()),
                  List.of(),
                  true),
              new OperationDescriptor(FLIP, "Mirror top to bottom.", List.of(), List.of(), true),
              new OperationDescriptor(FLOP, "Mirror left to right.", List.of(), List.of(), true),
              new OperationDescriptor(GREYSCALE, "Convert to grey.", List.of(), List.of(), true),
              new OperationDescriptor(
                  ENCODE,
                  "Write the image in a target format.",
                  List.of(
                      ParameterDescriptor.choice(
                          "mediaType", IMAGE_WRITES, IMAGE_JPEG, "Output media type."),
                      ParameterDescriptor.integer(
                          "quality", 1, 100, 85, "JPEG/WebP/AVIF quality (1-100; GIF has none)."),
                      // no declared default: a step without it keeps its fingerprint
                      ParameterDescriptor.flag(
                          "progressive", "Write a progressive JPEG (default false)."),
                      lossless(),
                      effort()),
                  List.of("quality", "lossless", "effort"),
                  false)));

  /** The pdf capability: renders a page to PNG and reads document metadata (Apache PDFBox). */
  public static final CapabilityDescriptor PDF_CAPABILITY =
      new CapabilityDescriptor(
          PDF,
          "Render a PDF page to PNG; read page count and document metadata.",
          "PDF_QUEUE_URL",
          List.of(
              new Conversion(APPLICATION_PDF, IMAGE_PNG, 2, List.of(RENDER)),
              new Conversion(APPLICATION_PDF, APPLICATION_JSON, 1, List.of(METADATA))),
          List.of(
              new OperationDescriptor(
                  RENDER,
                  "Render one page to a PNG image, optionally scaled into a box.",
                  List.of(
                      ParameterDescriptor.integer(
                          "page", 1, MAX_PAGE, 1, "Page to render (1-based)."),
                      ParameterDescriptor.integer(
                          "dpi", 1, MAX_DPI, 150, "Rendering resolution in dpi."),
                      width("Width of the box the page is drawn into, in pixels."),
                      height("Height of the box the page is drawn into, in pixels."),
                      // no declared default: a step without it keeps its fingerprint
                      ParameterDescriptor.choice(
                          "fit",
                          FIT_MODES,
                          null,
                          "How the page meets the box: inside and contain (default) draw it"
                              + " within the box, cover, fill and outside draw it covering the"
                              + " box (the resize after it crops, stretches or keeps it)."),
                      ParameterDescriptor.flag(
                          "withoutEnlargement",
                          "Never draw the page above dpi, even when the box is larger (default"
                              + " false: the box decides).")),
                  // A target's size goes to the image step's resize (it fits, crops and pads); the
                  // page is told the box as a hint so it is drawn at the resolution the resize
                  // needs: a thumbnail of a huge page never exists at dpi first (issue 14 item 4).
                  List.of("page", "dpi"),
                  false,
                  List.of("width", "height", "fit", "withoutEnlargement")),
              new OperationDescriptor(
                  METADATA,
                  "Page count, page sizes and the document information, as JSON.",
                  List.of(),
                  List.of(),
                  false)));

  /** The text capability: plain text and metadata from documents (Apache Tika). */
  public static final CapabilityDescriptor TEXT_CAPABILITY =
      new CapabilityDescriptor(
          TEXT,
          "Extract plain text and metadata from office documents, PDF, HTML, EPUB and text.",
          "TEXT_QUEUE_URL",
          concat(
              allPairs(TEXT_READS, List.of(TEXT_PLAIN), 2, List.of(EXTRACT)),
              allPairs(TEXT_READS, List.of(APPLICATION_JSON), 2, List.of(METADATA))),
          List.of(
              new OperationDescriptor(
                  EXTRACT, "The document's text as UTF-8 plain text.", List.of(), List.of(), false),
              new OperationDescriptor(
                  METADATA, "The document's metadata as JSON.", List.of(), List.of(), false)));

  /** The markup capability: Markdown and HTML to PDF (commonmark-java, openhtmltopdf). */
  public static final CapabilityDescriptor MARKUP_CAPABILITY =
      new CapabilityDescriptor(
          MARKUP,
          "Render Markdown or HTML to PDF.",
          "MARKUP_QUEUE_URL",
          allPairs(MARKUP_READS, List.of(APPLICATION_PDF), 3, List.of(RENDER)),
          List.of(
              new OperationDescriptor(
                  RENDER,
                  "Lay the document out on pages and write a PDF.",
                  List.of(
                      ParameterDescriptor.choice(
                          "pageSize", List.of("A4", "Letter"), "A4", "Paper size.")),
                  List.of(),
                  false)));

  /** Every capability, in declaration order. */
  public static final List<CapabilityDescriptor> ALL =
      List.of(IMAGE_CAPABILITY, PDF_CAPABILITY, TEXT_CAPABILITY, MARKUP_CAPABILITY);

  private Capabilities() {}

  /** Returns the capability called {@code name}, if Derive has one. */
  public static Optional<CapabilityDescriptor> named(String name) {
    return ALL.stream().filter(c -> c.name().equals(name)).findFirst();
  }

  private static List<Conversion> allPairs(
      List<String> reads, List<String> writes, int cost, List<String> operations) {
    List<Conversion> pairs = new ArrayList<>();
    for (String source : reads) {
      for (String target : writes) {
        pairs.add(new Conversion(source, target, cost, operations));
      }
    }
    return pairs;
  }

  private static List<Conversion> concat(List<Conversion> first, List<Conversion> second) {
    List<Conversion> all = new ArrayList<>(first);
    all.addAll(second);
    return all;
  }
}
