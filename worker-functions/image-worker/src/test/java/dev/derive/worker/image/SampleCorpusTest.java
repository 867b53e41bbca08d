package dev.derive.worker.image;

import static dev.derive.worker.image.PixelDifference.meanDifference;
import static dev.derive.worker.image.PixelDifference.premultipliedDifference;
import static dev.derive.worker.runtime.SampleCorpus.samples;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.fail;
import static org.assertj.core.api.Assertions.within;

import dev.derive.protocol.MediaTypes;
import dev.derive.protocol.message.StepErrorTypes;
import dev.derive.protocol.message.StepMessage;
import dev.derive.worker.libvips.Vips;
import dev.derive.worker.libvips.VipsImage;
import dev.derive.worker.runtime.PermanentStepFailure;
import java.awt.Color;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Real files from the shared sample corpus (system property {@code derive.samples}, set by the root
 * POM's surefire configuration to {@code ../shared/samples} beside the repository).
 */
class SampleCorpusTest {
  private static final int THUMBNAIL = 256;

  @TempDir Path dir;

  private final ImageTransformer transformer = new ImageTransformer(100_000_000);

  @Test
  void exifSamplesComeOutUprightWithTheirLongestSideAt256() throws IOException {
    List<Path> photos = files("exif", ".jpg");
    assertThat(photos).as("EXIF orientation samples in %s", samples().resolve("exif")).isNotEmpty();
    List<BufferedImage> landscapes = new ArrayList<>();
    List<BufferedImage> portraits = new ArrayList<>();

    for (Path photo : photos) {
      String name = photo.getFileName().toString();
      BufferedImage thumbnail = thumbnail(photo);
      assertThat(Math.max(thumbnail.getWidth(), thumbnail.getHeight()))
          .as("longest side of %s", name)
          .isEqualTo(THUMBNAIL);
      if (name.startsWith("Landscape")) {
        assertThat(thumbnail.getWidth())
            .as("%s is landscape", name)
            .isGreaterThan(thumbnail.getHeight());
        landscapes.add(thumbnail);
      } else if (name.startsWith("Portrait")) {
        assertThat(thumbnail.getHeight())
            .as("%s is portrait", name)
            .isGreaterThan(thumbnail.getWidth());
        portraits.add(thumbnail);
      } else {
        fail("unexpected sample " + name);
      }
    }
    // Every variant of a scene shows the same picture once upright (only the digit naming the
    // orientation differs); a mirrored or rotated result differs by 40 or more.
    assertSamePicture(landscapes);
    assertSamePicture(portraits);
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "jpeg/5dhtsegments.jpg",
        "jpeg/cmm-exception-adobe-rgb.jpg",
        "jpeg/cmyk-sample.jpg",
        "jpeg/pil_sample_cmyk.jpg",
        "jpeg/gradient_ls.jpg",
        "png/basi0g01.png",
        "png/basi3p08.png",
        "png/basn0g16.png",
        "png/basn4a08.png",
        "png/basn6a16.png",
        "png/tbbn3p08.png",
        "other-images/dispose_bgnd.gif",
        "other-images/quick.gif",
        "other-images/rgb24.bmp",
        "other-images/pal8rle.bmp",
        "other-images/hopper_lzw.tif",
        "other-images/multipage.tiff",
        "other-images/g4-multi.tiff",
        "other-images/hopper.webp",
        "other-images/testWebp_Alpha_Lossless.webp"
      })
  void decodesEverySupportedFormat(String sample) throws IOException {
    BufferedImage thumbnail = thumbnail(samples().resolve(sample));

    assertThat(thumbnail.getWidth()).isPositive().isLessThanOrEqualTo(THUMBNAIL);
    assertThat(thumbnail.getHeight()).isPositive().isLessThanOrEqualTo(THUMBNAIL);
  }

  @Test
  void decompressionBombGifIsRefusedFromItsHeaderUnderATighterLimit() {
    // The frame declares 65535 x 1321 pixels (86.6 MP) in a 44-byte file.
    assertFailsWith(
        new ImageTransformer(10_000_000),
        "other-images/decompression_bomb.gif",
        StepErrorTypes.INPUT_TOO_LARGE);
  }

  @Test
  void decompressionBombGifUnderTheDefaultLimitFailsAsCorrupt() {
    assertFailsWith(
        transformer, "other-images/decompression_bomb.gif", StepErrorTypes.CORRUPT_INPUT);
  }

  @ParameterizedTest
  @ValueSource(strings = {"png/truncated_end_chunk.png"})
  void truncatedFilesAreCorruptInput(String sample) {
    assertFailsWith(transformer, sample, StepErrorTypes.CORRUPT_INPUT);
  }

  /**
   * PngSuite's damaged signatures (high bit stripped, line feeds turned into carriage returns) are
   * damaged PNGs, so {@code corrupt-input}: the format is one the capability reads.
   */
  @ParameterizedTest
  @ValueSource(strings = {"png/xs1n0g01.png", "png/xcrn0g04.png"})
  void pngWithADamagedSignatureIsCorruptInput(String sample) {
    assertFailsWith(transformer, sample, StepErrorTypes.CORRUPT_INPUT);
  }

  /**
   * PngSuite's {@code xlfn0g04} (not in the corpus), made here the way it was made: every carriage
   * return of a good PNG turned into a line feed, as a text-mode transfer to Unix does.
   */
  @Test
  void pngWhoseCarriageReturnsBecameLineFeedsIsCorruptInput() throws IOException {
    byte[] png = Files.readAllBytes(samples().resolve("png/basn0g16.png"));
    for (int i = 0; i < png.length; i++) {
      if (png[i] == '\r') {
        png[i] = '\n';
      }
    }
    Path damaged = Files.write(dir.resolve("xlfn.png"), png);

    assertThatThrownBy(() -> thumbnail(damaged))
        .isInstanceOfSatisfying(
            PermanentStepFailure.class,
            e -> {
              assertThat(e.type()).isEqualTo(StepErrorTypes.CORRUPT_INPUT);
              assertThat(e.detail()).contains("PNG", "signature");
            });
  }

  /**
   * Arithmetic-coded variants libvips' decoder lacks (12-bit samples; lossless, SOF11) are refused
   * as {@code unsupported-input}, never as damaged: the arithmetic JPEG of the corpus with its
   * frame header changed.
   */
  @ParameterizedTest
  @CsvSource({"12-bit, 0xC9, 12", "lossless, 0xCB, 8"})
  void arithmeticJpegVariantsLibvipsCannotDecodeAreUnsupported(
      String variant, String marker, int precision) throws IOException {
    byte[] jpeg = Files.readAllBytes(samples().resolve(ARITHMETIC_JPEG));
    int sof = indexOf(jpeg, (byte) 0xFF, (byte) 0xC9);
    jpeg[sof + 1] = (byte) Integer.parseInt(marker.substring(2), 16);
    jpeg[sof + 4] = (byte) precision;
    Path changed = Files.write(dir.resolve(variant + ".jpg"), jpeg);

    assertThatThrownBy(() -> thumbnail(changed))
        .as("%s arithmetic JPEG", variant)
        .isInstanceOf(PermanentStepFailure.class)
        .extracting(e -> ((PermanentStepFailure) e).type())
        .isEqualTo(StepErrorTypes.UNSUPPORTED_INPUT);
  }

  private static int indexOf(byte[] bytes, byte first, byte second) {
    for (int i = 0; i + 1 < bytes.length; i++) {
      if (bytes[i] == first && bytes[i + 1] == second) {
        return i;
      }
    }
    throw new AssertionError("marker not found");
  }

  /**
   * Files whose damage ImageIO decodes into garbage without failing: a progressive JPEG cut off
   * mid-scan (noise where the picture should be), a PNG whose IHDR fails its CRC (libpng and
   * browsers refuse it), an RLE8 BMP whose runs leave the image (BMP Suite's "bad" file).
   */
  @ParameterizedTest
  @ValueSource(strings = {BROKEN_JPEG, BROKEN_PNG, BROKEN_BMP})
  void damagedFilesImageIoWouldGarbleAreCorruptInput(String sample) {
    assertThatThrownBy(() -> thumbnail(samples().resolve(sample)))
        .isInstanceOfSatisfying(
            PermanentStepFailure.class,
            e -> {
              assertThat(e.type()).isEqualTo(StepErrorTypes.CORRUPT_INPUT);
              assertThat(e.detail()).containsAnyOf("truncated", "damaged");
            });
  }

  @Test
  void twelveBitJpegIsUnsupportedInput() {
    assertFailsWith(transformer, "jpeg/monkey12.jpg", StepErrorTypes.UNSUPPORTED_INPUT);
  }

  /**
   * Every image file of the manifest, each with its expectation in this suite: a file added to the
   * corpus fails here until it gets one.
   */
  @Test
  void everyImageOfTheManifestHasAnExpectation() throws IOException {
    List<String> images =
        Files.readAllLines(samples().resolve("MANIFEST.tsv")).stream()
            .skip(1)
            .map(line -> line.split("\t"))
            .filter(cells -> cells.length > 1 && cells[1].startsWith("image/"))
            .map(cells -> cells[0])
            .toList();

    List<String> expected = new ArrayList<>(covered());
    PENDING.values().forEach(expected::addAll);
    assertThat(images).containsExactlyInAnyOrderElementsOf(expected);
    PENDING.forEach(
        (issue, files) ->
            System.out.printf(
                "corpus files pending %s (no expectation until it is done): %s%n", issue, files));
  }

  /**
   * Files whose correct derivative needs an issue not yet done, by issue: listed here, never given
   * a wrong expectation meanwhile; the issue that makes them right empties its list and gives each
   * file its expectation. (Animated files also have a first-frame expectation in {@link
   * FirstFrameCorpusTest}: what a still output must show; keeping their animation is issue 29.)
   */
  static final Map<String, List<String>> PENDING = Map.of();

  /** The files this suite has an expectation for (the exif folder is listed, not named). */
  private static List<String> covered() throws IOException {
    List<String> covered = new ArrayList<>();
    for (Path photo : files("exif", ".jpg")) {
      covered.add("exif/" + photo.getFileName());
    }
    covered.addAll(FirstFrameCorpusTest.ANIMATED);
    covered.addAll(SvgCorpusTest.FILES);
    covered.add(FirstFrameCorpusTest.SCAN);
    covered.addAll(
        List.of(
            // decodesEverySupportedFormat
            "jpeg/5dhtsegments.jpg",
            "jpeg/cmm-exception-adobe-rgb.jpg",
            "jpeg/cmyk-sample.jpg",
            "jpeg/pil_sample_cmyk.jpg",
            "jpeg/gradient_ls.jpg",
            "png/basi0g01.png",
            "png/basi3p08.png",
            "png/basn0g16.png",
            "png/basn4a08.png",
            "png/basn6a16.png",
            "png/tbbn3p08.png",
            "other-images/dispose_bgnd.gif",
            "other-images/quick.gif",
            "other-images/rgb24.bmp",
            "other-images/pal8rle.bmp",
            "other-images/hopper_lzw.tif",
            "other-images/multipage.tiff",
            "other-images/g4-multi.tiff",
            "other-images/hopper.webp",
            "other-images/testWebp_Alpha_Lossless.webp",
            // failures
            "other-images/decompression_bomb.gif",
            "png/truncated_end_chunk.png",
            "png/xs1n0g01.png",
            "png/xcrn0g04.png",
            "jpeg/monkey12.jpg",
            BROKEN_JPEG,
            BROKEN_BMP,
            BROKEN_PNG,
            // modern-images
            KODIM_AVIF,
            IROT_ALPHA_AVIF,
            AV1_HEIF,
            ANIMATED_AVIF,
            PQ_AVIF,
            HEIC, // HeicCorpusTest, as every file of heic/
            "heic/arrow.heic",
            "heic/xiaomi.heic",
            "heic/with-alpha-512x512.heic",
            "heic/TestHDR.heic",
            "heic/spatial_photo.heic",
            "heic/sample_MP.heic",
            "heic/truncated.heic",
            ALPHA_WEBP,
            ANIMATED_WEBP,
            APPLE_GAIN_MAP,
            PARIS_GAIN_MAP,
            ARITHMETIC_JPEG,
            CMYK_TIFF,
            GREY16_TIFF));
    return covered;
  }

  private static final String BROKEN_JPEG = "jpeg/truncated_jpeg.jpg";
  private static final String BROKEN_BMP = "other-images/badrle.bmp";
  private static final String BROKEN_PNG = "png/xhdn0g08.png";
  private static final String KODIM_AVIF = "modern-images/kodim03_yuv420_8bpc.avif";
  private static final String IROT_ALPHA_AVIF = "modern-images/abc_color_irot_alpha_irot.avif";
  private static final String AV1_HEIF = "modern-images/avif32.heif";
  private static final String ANIMATED_AVIF = "modern-images/colors-animated-8bpc.avif";
  private static final String PQ_AVIF = "modern-images/cosmos1650_yuv444_10bpc_p3pq.avif";
  private static final String HEIC = "modern-images/example.heic";
  private static final String ALPHA_WEBP = "modern-images/gopher-doc.with-alpha.lossless.webp";
  private static final String ANIMATED_WEBP = "modern-images/iss634.webp";
  private static final String APPLE_GAIN_MAP = "modern-images/apple_gainmap_new.jpg";
  private static final String PARIS_GAIN_MAP =
      "modern-images/paris_exif_xmp_gainmap_littleendian.jpg";
  private static final String ARITHMETIC_JPEG = "modern-images/testimgari.jpg";
  private static final String CMYK_TIFF = "modern-images/tiff_strip_cmyk_jpeg.tif";
  private static final String GREY16_TIFF = "modern-images/video-001-gray-16bit.tiff";

  /**
   * An 8-bit 4:2:0 AVIF (libvips/libheif/aom): 768 x 512 fitted to 256 x 171, with the colours
   * libavif's own decoder gives (avifdec 0.11.1 + dav1d: mean R, G, B 110.0, 103.1, 76.5 over the
   * full image; a downscale keeps the mean).
   */
  @Test
  void avifStillHasTheColoursOfLibavifsDecode() throws IOException {
    BufferedImage thumbnail = thumbnail(samples().resolve(KODIM_AVIF), MediaTypes.IMAGE_PNG);

    assertThat(size(thumbnail)).isEqualTo("256x171");
    assertThat(Stats.of(thumbnail).meanRgb())
        .containsExactly(new double[] {110.0, 103.1, 76.5}, within(1.5));
  }

  /**
   * Stored 512 x 256 with {@code irot} 90 degrees anticlockwise on colour and alpha: displayed 256
   * x 512, so 128 x 256. The text "abc" then runs bottom to top, the ascender of the "b" pointing
   * left (a clockwise or ignored turn points it right or leaves the text horizontal); the
   * translucent background (alpha 128) stays translucent in PNG, the letters opaque.
   */
  @Test
  void avifWithIrotAndAlphaComesOutUprightAndTranslucent() throws IOException {
    BufferedImage thumbnail = thumbnail(samples().resolve(IROT_ALPHA_AVIF), MediaTypes.IMAGE_PNG);

    assertThat(size(thumbnail)).isEqualTo("128x256");
    assertThat(thumbnail.getColorModel().hasAlpha()).isTrue();
    assertThat(alpha(thumbnail, 0, 0)).isBetween(120, 136);
    assertThat(alpha(thumbnail, 127, 255)).isBetween(120, 136);
    Stats stats = Stats.of(thumbnail);
    assertThat(stats.maxAlpha()).isEqualTo(255);
    assertThat(stats.meanAlpha()).isCloseTo(135.4, within(2.0)); // avifdec, full size
    Ink ink = Ink.of(thumbnail);
    assertThat(ink.height()).as("text runs vertically").isGreaterThan(2 * ink.width());
    Ink b = Ink.of(thumbnail.getSubimage(0, 256 / 3, 128, 256 / 3));
    Ink a = Ink.of(thumbnail.getSubimage(0, 2 * 256 / 3, 128, 256 / 3));
    Ink c = Ink.of(thumbnail.getSubimage(0, 0, 128, 256 / 3));
    assertThat(b.minX())
        .as("ascender of b points left")
        .isLessThan(Math.min(a.minX(), c.minX()) - 8);
  }

  /**
   * An AV1-coded HEIF named {@code .heif}: read by its content, 32 x 32 kept (no enlargement),
   * colours as avifdec gives them (mean 206.2, 199.3, 199.7).
   */
  @Test
  void av1HeifNamedHeifIsReadByItsContent() throws IOException {
    BufferedImage thumbnail = thumbnail(samples().resolve(AV1_HEIF), MediaTypes.IMAGE_PNG);

    assertThat(size(thumbnail)).isEqualTo("32x32");
    assertThat(Stats.of(thumbnail).meanRgb())
        .containsExactly(new double[] {206.2, 199.3, 199.7}, within(3.0));
  }

  /**
   * An AVIF image sequence: a viewer shows frame 0 first, and its still primary item is that frame
   * (its {@code iloc} extent is the first sample's bytes, offset 1023, 39 bytes). Frame 0 of this
   * test file is black (avifdec --index 0; frames 1 to 4 are blue, ..., cyan), so the thumbnail is
   * 150 x 150 of black.
   */
  @Test
  void animatedAvifGivesItsFirstFrame() throws IOException {
    BufferedImage thumbnail = thumbnail(samples().resolve(ANIMATED_AVIF), MediaTypes.IMAGE_PNG);

    assertThat(size(thumbnail)).isEqualTo("150x150");
    Stats stats = Stats.of(thumbnail);
    assertThat(stats.meanRgb()).containsExactly(new double[] {0, 0, 0}, within(2.0));
    assertThat(stats.maxLuma()).isLessThan(8);
  }

  /**
   * 10-bit PQ (SMPTE ST 2084) HDR in Display P3, tone-mapped to sRGB: contrast and highlights of a
   * sunset, where the PQ code values read as sRGB (what libvips alone gives) look dim and flat.
   */
  @Test
  void hdrPqAvifIsToneMappedNotDimAndFlat() throws IOException {
    Path sample = samples().resolve(PQ_AVIF);
    BufferedImage thumbnail = thumbnail(sample, MediaTypes.IMAGE_PNG);
    Stats naive;
    try (VipsImage untoned = Vips.shared().thumbnail(sample, 256, 256, "")) {
      naive = Stats.of(VipsTestImages.toBufferedImage(untoned));
    }

    assertThat(size(thumbnail)).isEqualTo("256x107");
    Stats stats = Stats.of(thumbnail);
    assertThat(stats.lumaDeviation()).isGreaterThan(1.3 * naive.lumaDeviation()).isGreaterThan(60);
    assertThat(stats.maxLuma()).isGreaterThan(225).isGreaterThan(naive.maxLuma() + 15);
    assertThat(stats.meanLuma()).isBetween(85.0, 110.0);
  }

  /**
   * Lossless WebP with alpha and an sRGB ICC profile: 75 x 100 kept, the transparent background
   * transparent in PNG, pixel for pixel what libvips' libwebp decode gives (so what sharp gives).
   */
  @Test
  void losslessWebpWithAlphaKeepsItsTransparency() throws IOException {
    Path sample = samples().resolve(ALPHA_WEBP);
    BufferedImage thumbnail = thumbnail(sample, MediaTypes.IMAGE_PNG);

    assertThat(size(thumbnail)).isEqualTo("75x100");
    assertThat(alpha(thumbnail, 0, 0)).isZero();
    Stats stats = Stats.of(thumbnail);
    assertThat(stats.maxAlpha()).isEqualTo(255);
    assertThat(stats.meanAlpha()).isCloseTo(28.4, within(1.0)); // dwebp 1.2.4
    assertThat(premultipliedDifference(thumbnail, libvips(sample, ""))).isLessThan(1.0);
  }

  /**
   * Animated WebP, 42 frames on a 245 x 245 canvas: the first frame composited on the canvas, as
   * libvips renders page 0 (and a browser shows first), not a later frame.
   */
  @Test
  void animatedWebpGivesItsFirstFrame() throws IOException {
    Path sample = samples().resolve(ANIMATED_WEBP);
    BufferedImage thumbnail = thumbnail(sample, MediaTypes.IMAGE_PNG);

    assertThat(size(thumbnail)).isEqualTo("245x245");
    double toFirst = premultipliedDifference(thumbnail, libvips(sample, ""));
    double toLater = premultipliedDifference(thumbnail, libvips(sample, "page=20"));
    assertThat(toFirst).isLessThan(0.5);
    assertThat(toLater).as("a later frame").isGreaterThan(Math.max(2.0, 4 * toFirst));
  }

  /**
   * JPEGs with an HDR gain map (MPF secondary image, grey): the primary SDR picture, in colour,
   * never the grey gain map; the same picture as the JDK's decoder gives of the file's first image
   * converted to sRGB with the JDK's colour management (the Apple one is Display P3).
   */
  @ParameterizedTest
  @CsvSource({APPLE_GAIN_MAP + ", 192x256", PARIS_GAIN_MAP + ", 256x192"})
  void gainMapJpegsGiveTheirPrimaryPicture(String sample, String size) throws IOException {
    Path file = samples().resolve(sample);
    BufferedImage thumbnail = thumbnail(file, MediaTypes.IMAGE_PNG);

    assertThat(size(thumbnail)).isEqualTo(size);
    assertThat(Stats.of(thumbnail).meanChroma())
        .as("colour, not the grey gain map")
        .isGreaterThan(8);
    BufferedImage primary = ColourManagement.toSrgb(ImageIO.read(file.toFile()));
    BufferedImage reference =
        Pixels.resize(
            Pixels.normalize(primary, false), thumbnail.getWidth(), thumbnail.getHeight());
    assertThat(meanDifference(thumbnail, reference)).isLessThan(5.0);
  }

  /**
   * Arithmetic-coded JPEG (SOF9), which the JDK refuses: decoded by libvips' mozjpeg, 227 x 149
   * kept, the colours libjpeg-turbo's djpeg 2.1.5 gives (mean 146.4, 90.5, 81.5).
   */
  @Test
  void arithmeticCodedJpegDecodes() throws IOException {
    BufferedImage thumbnail = thumbnail(samples().resolve(ARITHMETIC_JPEG), MediaTypes.IMAGE_PNG);

    assertThat(size(thumbnail)).isEqualTo("227x149");
    assertThat(Stats.of(thumbnail).meanRgb())
        .containsExactly(new double[] {146.4, 90.5, 81.5}, within(1.0));
  }

  /**
   * CMYK TIFF with JPEG-compressed strips and no ICC profile: the same picture as the CMYK JPEG it
   * was made from (Pillow's test_strip_cmyk_jpeg compares the two), both converted with libvips'
   * built-in CMYK profile as sharp does: red letters on the near-black a rich black prints as.
   */
  @Test
  void cmykJpegTiffIsTheSamePictureAsItsJpegOriginal() throws IOException {
    BufferedImage thumbnail = thumbnail(samples().resolve(CMYK_TIFF), MediaTypes.IMAGE_PNG);
    BufferedImage original =
        thumbnail(samples().resolve("jpeg/pil_sample_cmyk.jpg"), MediaTypes.IMAGE_PNG);

    assertThat(size(thumbnail)).isEqualTo("100x100");
    assertThat(meanDifference(thumbnail, original)).isLessThan(3.0);
    int red = 0;
    for (int y = 0; y < 100; y++) {
      for (int x = 0; x < 100; x++) {
        Color c = new Color(thumbnail.getRGB(x, y));
        if (c.getRed() > 170 && c.getGreen() < 90 && c.getBlue() < 90) {
          red++;
        }
      }
    }
    assertThat(red).as("red pixels of the letters").isGreaterThan(500);
    Color ground = new Color(thumbnail.getRGB(2, 97));
    assertThat(Math.max(ground.getRed(), Math.max(ground.getGreen(), ground.getBlue())))
        .as("near-black ground %s", ground)
        .isLessThan(60);
  }

  /**
   * 16-bit greyscale TIFF over the full 0..65535 range: 150 x 103 kept, grey, black to white as
   * libvips scales 16 bits to 8 (an 8-bit misreading would come out noisy or dark).
   */
  @Test
  void sixteenBitGreyTiffKeepsItsTonalRange() throws IOException {
    Path sample = samples().resolve(GREY16_TIFF);
    BufferedImage thumbnail = thumbnail(sample, MediaTypes.IMAGE_PNG);

    assertThat(size(thumbnail)).isEqualTo("150x103");
    Stats stats = Stats.of(thumbnail);
    assertThat(stats.meanChroma()).isLessThan(0.5);
    assertThat(stats.minLuma()).isLessThan(10);
    assertThat(stats.maxLuma()).isGreaterThan(245);
    assertThat(meanDifference(thumbnail, libvips(sample, ""))).isLessThan(1.5);
  }

  private void assertFailsWith(ImageTransformer transformer, String sample, String type) {
    assertThatThrownBy(() -> thumbnail(transformer, samples().resolve(sample)))
        .isInstanceOf(PermanentStepFailure.class)
        .extracting(e -> ((PermanentStepFailure) e).type())
        .isEqualTo(type);
  }

  private BufferedImage thumbnail(Path source) throws IOException {
    return thumbnail(transformer, source);
  }

  private BufferedImage thumbnail(ImageTransformer transformer, Path source) throws IOException {
    Path output = Files.createTempFile(dir, "thumb", ".jpg");
    StepMessage step =
        TestImages.step(
            TestImages.resize(THUMBNAIL, THUMBNAIL), TestImages.encode(MediaTypes.IMAGE_JPEG, 85));
    transformer.transform(step, source, output);
    BufferedImage image = ImageIO.read(output.toFile());
    assertThat(image).as("thumbnail of %s decodes", source).isNotNull();
    return image;
  }

  private BufferedImage thumbnail(Path source, String mediaType) throws IOException {
    Path output = Files.createTempFile(dir, "thumb", ".out");
    StepMessage step =
        TestImages.step(TestImages.resize(THUMBNAIL, THUMBNAIL), TestImages.encode(mediaType, 85));
    transformer.transform(step, source, output);
    BufferedImage image = ImageIO.read(output.toFile());
    assertThat(image).as("thumbnail of %s decodes", source).isNotNull();
    return image;
  }

  /** libvips' own thumbnail of {@code source} into the same box, as sharp would make it. */
  private static BufferedImage libvips(Path source, String loadOptions) {
    try (VipsImage image = Vips.shared().thumbnail(source, THUMBNAIL, THUMBNAIL, loadOptions)) {
      return VipsTestImages.toBufferedImage(image);
    }
  }

  private static String size(BufferedImage image) {
    return image.getWidth() + "x" + image.getHeight();
  }

  private static int alpha(BufferedImage image, int x, int y) {
    return image.getRGB(x, y) >>> 24;
  }

  /** Summary statistics of an image's pixels (sRGB values 0..255, luma BT.709). */
  private record Stats(
      double[] meanRgb,
      double meanAlpha,
      int maxAlpha,
      double meanLuma,
      double lumaDeviation,
      int minLuma,
      int maxLuma,
      int maxRed,
      double meanChroma) {
    static Stats of(BufferedImage image) {
      double[] rgb = new double[3];
      double alpha = 0;
      int maxAlpha = 0;
      double luma = 0;
      double luma2 = 0;
      int minLuma = 255;
      int maxLuma = 0;
      int maxRed = 0;
      double chroma = 0;
      int n = image.getWidth() * image.getHeight();
      for (int y = 0; y < image.getHeight(); y++) {
        for (int x = 0; x < image.getWidth(); x++) {
          int p = image.getRGB(x, y);
          int r = (p >> 16) & 0xFF;
          int g = (p >> 8) & 0xFF;
          int b = p & 0xFF;
          rgb[0] += r;
          rgb[1] += g;
          rgb[2] += b;
          alpha += p >>> 24;
          maxAlpha = Math.max(maxAlpha, p >>> 24);
          double l = 0.2126 * r + 0.7152 * g + 0.0722 * b;
          luma += l;
          luma2 += l * l;
          minLuma = Math.min(minLuma, (int) Math.round(l));
          maxLuma = Math.max(maxLuma, (int) Math.round(l));
          maxRed = Math.max(maxRed, r);
          chroma += Math.abs(r - g) + Math.abs(g - b);
        }
      }
      double mean = luma / n;
      return new Stats(
          new double[] {rgb[0] / n, rgb[1] / n, rgb[2] / n},
          alpha / n,
          maxAlpha,
          mean,
          Math.sqrt(Math.max(0, luma2 / n - mean * mean)),
          minLuma,
          maxLuma,
          maxRed,
          chroma / n);
    }
  }

  /** The bounding box of the opaque dark pixels (text) of an image. */
  private record Ink(int minX, int minY, int maxX, int maxY) {
    static Ink of(BufferedImage image) {
      int minX = Integer.MAX_VALUE;
      int minY = Integer.MAX_VALUE;
      int maxX = -1;
      int maxY = -1;
      for (int y = 0; y < image.getHeight(); y++) {
        for (int x = 0; x < image.getWidth(); x++) {
          int p = image.getRGB(x, y);
          int g = (p >> 8) & 0xFF;
          if ((p >>> 24) > 200 && g < 100) {
            minX = Math.min(minX, x);
            minY = Math.min(minY, y);
            maxX = Math.max(maxX, x);
            maxY = Math.max(maxY, y);
          }
        }
      }
      assertThat(maxX).as("dark opaque pixels").isNotNegative();
      return new Ink(minX, minY, maxX, maxY);
    }

    int width() {
      return maxX - minX + 1;
    }

    int height() {
      return maxY - minY + 1;
    }
  }

  private static void assertSamePicture(List<BufferedImage> images) {
    for (BufferedImage image : images.subList(1, images.size())) {
      assertThat(meanDifference(images.get(0), image)).isLessThan(20.0);
    }
  }

  private static List<Path> files(String folder, String suffix) throws IOException {
    try (Stream<Path> files = Files.list(samples().resolve(folder))) {
      return files.filter(p -> p.getFileName().toString().endsWith(suffix)).sorted().toList();
    }
  }
}
