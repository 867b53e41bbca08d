package dev.derive.worker.image;

import static dev.derive.worker.runtime.SampleCorpus.samples;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.derive.protocol.message.ObjectRef;
import dev.derive.protocol.message.Operation;
import dev.derive.protocol.message.StepMessage;
import dev.derive.worker.libvips.ExifBlocks;
import java.awt.Color;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The {@code info} derivative (issue 29): each member checked against what the file holds. */
class ImageInfoTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir Path dir;

  private final ImageTransformer transformer = new ImageTransformer(100_000_000);

  @Test
  void aPhotoTurnedByExifReportsItsUprightSizeOrientationCameraAndTakenAt() throws IOException {
    byte[] jpeg =
        exifJpeg(TestImages.quadrants(300, 200), 6, "Canon", "Canon EOS 5D", "2024:05:17 10:30:00");

    JsonNode info = info(jpeg, "image/jpeg");

    assertThat(info.path("mediaType").asText()).isEqualTo("image/jpeg");
    assertThat(info.path("width").asInt()).as("upright: turned a quarter").isEqualTo(200);
    assertThat(info.path("height").asInt()).isEqualTo(300);
    assertThat(info.has("orientation")).as("only the EXIF tag, under exif").isFalse();
    assertThat(info.path("exif").path("orientation").asInt()).isEqualTo(6);
    assertThat(info.path("colourSpace").asText()).isEqualTo("srgb");
    assertThat(info.path("bitsPerSample").asInt()).isEqualTo(8);
    assertThat(info.path("alpha").asBoolean()).isFalse();
    assertThat(info.path("frames").asInt()).isEqualTo(1);
    assertThat(info.path("exif").path("make").asText()).isEqualTo("Canon");
    assertThat(info.path("exif").path("model").asText()).isEqualTo("Canon EOS 5D");
    assertThat(info.path("exif").path("takenAt").asText()).isEqualTo("2024-05-17T10:30:00");
    assertThat(info.has("gps")).isFalse();
  }

  @Test
  void theDominantColourIsTheLargestAreaAndTheBlurHashIsWellFormed() throws IOException {
    byte[] png =
        TestImages.encode(
            TestImages.bands(300, 100, new Color(200, 30, 30), new Color(200, 30, 30), Color.BLUE),
            "png");

    JsonNode info = info(png, "image/png");

    String colour = info.path("dominantColour").asText();
    assertThat(colour).matches("#[0-9a-f]{6}");
    Color dominant = Color.decode(colour);
    assertThat(dominant.getRed()).isGreaterThan(180);
    assertThat(dominant.getBlue()).isLessThan(60);
    // BlurHash: 1 size character (4 x 3 components), 1 for the maximum AC, 4 for DC, 2 per AC
    String blurHash = info.path("blurHash").asText();
    assertThat(blurHash)
        .hasSize(1 + 1 + 4 + 2 * (4 * 3 - 1))
        .matches("[0-9A-Za-z#$%*+,-.:;=?@\\[\\]^_{|}~]+");
    // ThumbHash of an opaque landscape: 5 header bytes, no alpha flag, the landscape flag set
    byte[] thumbHash = java.util.Base64.getDecoder().decode(info.path("thumbHash").asText());
    assertThat(thumbHash.length).isBetween(15, 30);
    assertThat(thumbHash[2] & 0x80).as("no alpha").isZero();
    assertThat(thumbHash[4] & 0x80).as("landscape").isNotZero();
  }

  /**
   * The contract the API's image URL placeholders read (docs/image-urls.md): the declared
   * placeholder derivative is this one, and its pointer finds a standard base64 ThumbHash in it.
   */
  @Test
  void theDeclaredPlaceholderPointerFindsTheThumbHash() throws IOException {
    var placeholder =
        dev.derive.protocol.capability.CapabilityDeclarations.ofThisWorker(
                getClass().getClassLoader())
            .imageUrls()
            .placeholder();
    JsonNode info = info(TestImages.encode(TestImages.quadrants(120, 80), "png"), "image/png");

    assertThat(placeholder.mediaType()).isEqualTo("application/json");
    String hash = info.at(placeholder.thumbHash()).asText();
    assertThat(hash).matches("[A-Za-z0-9+/]+=*");
    assertThat(java.util.Base64.getDecoder().decode(hash).length).isBetween(15, 30);
  }

  @Test
  void anIccProfileIsNamedAndAnAnimationCountsItsFrames() throws IOException {
    JsonNode adobe =
        info(
            Files.readAllBytes(samples().resolve("jpeg/cmm-exception-adobe-rgb.jpg")),
            "image/jpeg");
    JsonNode animated =
        info(Files.readAllBytes(samples().resolve("animated/rotating-squares.gif")), "image/gif");
    JsonNode cmyk =
        info(Files.readAllBytes(samples().resolve("jpeg/cmyk-sample.jpg")), "image/jpeg");

    assertThat(adobe.path("iccProfile").asText()).containsIgnoringCase("Adobe RGB");
    assertThat(animated.path("frames").asInt()).isEqualTo(30);
    assertThat(animated.path("alpha").asBoolean()).isTrue();
    assertThat(cmyk.path("colourSpace").asText()).isEqualTo("cmyk");
  }

  /**
   * An iPhone HEIC whose EXIF says orientation 6 and whose {@code irot} turns it the same way: the
   * size is upright (portrait), the EXIF tag is reported as stored, the time in ISO 8601.
   */
  @Test
  void aHeicReportsItsUprightSizeAndItsExifTagAsStored() throws IOException {
    JsonNode info = info(Files.readAllBytes(samples().resolve("heic/arrow.heic")), "image/heic");

    assertThat(info.path("width").asInt() + "x" + info.path("height").asInt())
        .isEqualTo("3024x4032");
    assertThat(info.path("exif").path("orientation").asInt()).isEqualTo(6);
    assertThat(info.path("exif").path("takenAt").asText())
        .matches("\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}([+-]\\d{2}:\\d{2})?");
  }

  @Test
  void exifTimesAreIso8601WithTheirOffsetAndBlankOnesAreLeftOut() {
    assertThat(ImageInfo.takenAt("2018:07:31 14:52:07", java.util.Optional.empty()))
        .hasValue("2018-07-31T14:52:07");
    assertThat(ImageInfo.takenAt("2018:07:31 14:52:07", java.util.Optional.of("+02:00")))
        .hasValue("2018-07-31T14:52:07+02:00");
    assertThat(ImageInfo.takenAt("2018:07:31 14:52:07", java.util.Optional.of("   :  ")))
        .hasValue("2018-07-31T14:52:07");
    assertThat(ImageInfo.takenAt("    :  :     :  :  ", java.util.Optional.empty())).isEmpty();
    assertThat(ImageInfo.takenAt("0000:00:00 00:00:00", java.util.Optional.empty())).isEmpty();
    assertThat(ImageInfo.takenAt("2018:13:31 14:52:07", java.util.Optional.empty())).isEmpty();
  }

  @Test
  void iccDescriptionsOfVersion2And4ProfilesAreRead() {
    assertThat(ImageInfo.iccDescription(profile("desc", descV2("sRGB IEC61966-2.1"))))
        .hasValue("sRGB IEC61966-2.1");
    assertThat(ImageInfo.iccDescription(profile("mluc", mluc("Display P3"))))
        .hasValue("Display P3");
    assertThat(ImageInfo.iccDescription(new byte[40])).isEmpty();
  }

  private JsonNode info(byte[] input, String mediaType) throws IOException {
    Path in = Files.write(dir.resolve("in-" + System.nanoTime()), input);
    Path out = dir.resolve("out-" + System.nanoTime() + ".json");
    StepMessage step =
        new StepMessage(
            "f".repeat(64),
            0,
            1,
            "image",
            List.of(new Operation(ImageInfo.OPERATION, Map.of())),
            ObjectRef.of("s", "in"),
            mediaType,
            ObjectRef.of("d", "out"),
            "application/json",
            "t");
    transformer.transform(step, in, out);
    return JSON.readTree(out.toFile());
  }

  /**
   * A JPEG with an EXIF block: Orientation, Make and Model in IFD0, DateTimeOriginal in its
   * sub-IFD.
   */
  private static byte[] exifJpeg(
      BufferedImage image, int orientation, String make, String model, String takenAt)
      throws IOException {
    byte[] makeBytes = (make + "\0").getBytes(StandardCharsets.US_ASCII);
    byte[] modelBytes = (model + "\0").getBytes(StandardCharsets.US_ASCII);
    byte[] dateBytes = (takenAt + "\0").getBytes(StandardCharsets.US_ASCII);
    int ifd0 = 8;
    int ifd0Size = 2 + 4 * 12 + 4;
    int exifIfd = ifd0 + ifd0Size;
    int exifIfdSize = 2 + 12 + 4;
    int data = exifIfd + exifIfdSize;
    ByteBuffer tiff =
        ByteBuffer.allocate(data + makeBytes.length + modelBytes.length + dateBytes.length);
    tiff.order(ByteOrder.LITTLE_ENDIAN);
    tiff.put((byte) 'I').put((byte) 'I').putShort((short) 42).putInt(ifd0);
    tiff.putShort((short) 4);
    tiff.putShort((short) 0x010F).putShort((short) 2).putInt(makeBytes.length).putInt(data);
    tiff.putShort((short) 0x0110)
        .putShort((short) 2)
        .putInt(modelBytes.length)
        .putInt(data + makeBytes.length);
    tiff.putShort((short) 0x0112)
        .putShort((short) 3)
        .putInt(1)
        .putShort((short) orientation)
        .putShort((short) 0);
    tiff.putShort((short) 0x8769).putShort((short) 4).putInt(1).putInt(exifIfd);
    tiff.putInt(0);
    tiff.putShort((short) 1);
    tiff.putShort((short) 0x9003)
        .putShort((short) 2)
        .putInt(dateBytes.length)
        .putInt(data + makeBytes.length + modelBytes.length);
    tiff.putInt(0);
    tiff.put(makeBytes).put(modelBytes).put(dateBytes);
    return ExifBlocks.inJpeg(TestImages.encode(image, "jpg"), tiff.array());
  }

  /** A minimal ICC profile: a 128-byte header and one tag, {@code desc}, holding {@code tag}. */
  private static byte[] profile(String type, byte[] tag) {
    ByteBuffer icc = ByteBuffer.allocate(128 + 4 + 12 + tag.length);
    icc.position(128);
    icc.putInt(1).putInt(0x64657363).putInt(144).putInt(tag.length);
    icc.put(tag);
    return icc.array();
  }

  private static byte[] descV2(String text) {
    byte[] ascii = (text + "\0").getBytes(StandardCharsets.US_ASCII);
    ByteBuffer tag = ByteBuffer.allocate(12 + ascii.length + 16);
    tag.put("desc".getBytes(StandardCharsets.US_ASCII)).putInt(0).putInt(ascii.length).put(ascii);
    return tag.array();
  }

  private static byte[] mluc(String text) {
    byte[] utf16 = text.getBytes(StandardCharsets.UTF_16BE);
    ByteBuffer tag = ByteBuffer.allocate(28 + utf16.length);
    tag.put("mluc".getBytes(StandardCharsets.US_ASCII)).putInt(0).putInt(1).putInt(12);
    tag.put("enUS".getBytes(StandardCharsets.US_ASCII)).putInt(utf16.length).putInt(28).put(utf16);
    return tag.array();
  }
}
