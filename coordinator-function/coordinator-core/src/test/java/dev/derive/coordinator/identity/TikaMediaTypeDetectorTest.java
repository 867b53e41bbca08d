package dev.derive.coordinator.identity;

import static org.assertj.core.api.Assertions.assertThat;

import dev.derive.coordinator.Declarations;
import dev.derive.protocol.capability.CapabilityDescriptor;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import org.apache.poi.hssf.usermodel.HSSFWorkbook;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class TikaMediaTypeDetectorTest {
  private static final Set<String> READABLE =
      Declarations.ALL.stream()
          .map(CapabilityDescriptor::reads)
          .flatMap(java.util.List::stream)
          .collect(Collectors.toSet());
  private final TikaMediaTypeDetector detector = new TikaMediaTypeDetector(READABLE);

  private static Path samples() {
    String dir = System.getProperty("derive.samples", System.getenv("DERIVE_SAMPLES"));
    Path path = dir == null ? Path.of("../../../shared/samples") : Path.of(dir);
    if (!Files.isDirectory(path)) {
      throw new IllegalStateException(
          "sample corpus not found at "
              + path.toAbsolutePath()
              + ": set -Dderive.samples=/path/to/samples or DERIVE_SAMPLES");
    }
    return path;
  }

  private byte[] prefix(Path file) throws IOException {
    try (InputStream in = Files.newInputStream(file)) {
      return in.readNBytes(detector.prefixBytes());
    }
  }

  @ParameterizedTest(name = "{0} is {1}")
  @CsvSource({
    "jpeg/, image/jpeg",
    "png/, image/png",
    "other-images/quick.gif, image/gif",
    "other-images/rgb24.bmp, image/bmp",
    "other-images/hopper_lzw.tif, image/tiff",
    "other-images/hopper.webp, image/webp",
    "pdf/standard_fonts.pdf, application/pdf",
    "documents/quick.docx, application/vnd.openxmlformats-officedocument.wordprocessingml.document",
    "documents/quick.xlsx, application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
    "documents/quick.pptx,"
        + " application/vnd.openxmlformats-officedocument.presentationml.presentation",
    "documents/quick.odt, application/vnd.oasis.opendocument.text",
    "documents/sample.rtf, application/rtf",
    "documents/testEPUB.epub, application/epub+zip",
    "documents/testTXT_win-1252.txt, text/plain",
    "markdown-html/testMARKDOWN.md, text/markdown",
    "markdown-html/quick.html, text/html",
  })
  void detectsEachSampleTypeACapabilityReads(String sample, String expected) throws IOException {
    Path file = samples().resolve(sample);
    if (Files.isDirectory(file)) {
      try (var files = Files.list(file)) {
        file = files.filter(Files::isRegularFile).sorted().findFirst().orElseThrow();
      }
    }

    assertThat(detector.detect(prefix(file), file.getFileName().toString())).hasValue(expected);
  }

  /** Issue 10's modern images reach the image capability by their bytes, not their names. */
  @ParameterizedTest(name = "{0} is {1}")
  @CsvSource({
    "modern-images/abc_color_irot_alpha_irot.avif, image/avif",
    "modern-images/avif32.heif, image/avif",
    "modern-images/colors-animated-8bpc.avif, image/avif",
    "modern-images/cosmos1650_yuv444_10bpc_p3pq.avif, image/avif",
    "modern-images/kodim03_yuv420_8bpc.avif, image/avif",
    "modern-images/example.heic, image/heif",
    "modern-images/gopher-doc.with-alpha.lossless.webp, image/webp",
    "modern-images/iss634.webp, image/webp",
    "modern-images/apple_gainmap_new.jpg, image/jpeg",
    "modern-images/paris_exif_xmp_gainmap_littleendian.jpg, image/jpeg",
    "modern-images/testimgari.jpg, image/jpeg",
    "modern-images/tiff_strip_cmyk_jpeg.tif, image/tiff",
    "modern-images/video-001-gray-16bit.tiff, image/tiff",
  })
  void detectsEveryModernImageAsTheImageItIs(String sample, String expected) throws IOException {
    Path file = samples().resolve(sample);

    assertThat(detector.detect(prefix(file), "upload.bin")).hasValue(expected);
  }

  /**
   * iPhone, Android and camera HEIC: image/heic by their first brand, image/heif for mif1 first.
   */
  @ParameterizedTest
  @CsvSource({
    "heic/arrow.heic, image/heic",
    "heic/xiaomi.heic, image/heic",
    "heic/with-alpha-512x512.heic, image/heic",
    "heic/TestHDR.heic, image/heic",
    "heic/spatial_photo.heic, image/heic",
    "heic/sample_MP.heic, image/heic",
    "heic/truncated.heic, image/heic",
  })
  void detectsEveryHeicAsAHeifTheImageCapabilityReads(String sample, String expected)
      throws IOException {
    Path file = samples().resolve(sample);

    assertThat(detector.detect(prefix(file), "upload.bin")).hasValue(expected);
  }

  /**
   * A password-protected Office document is an OLE2 container holding the encrypted package: Tika's
   * {@code x-tika-ooxml-protected}, whatever its name says, so the request can end as {@code
   * password-required} instead of an unsupported type.
   */
  @ParameterizedTest(name = "named {0}")
  @CsvSource({"report.docx", "upload.bin"})
  void aPasswordProtectedWordDocumentIsProtectedOoxml(String name) throws IOException {
    Path docx = samples().resolve("documents/testWORD_protected_passtika.docx");

    assertThat(detector.detect(prefix(docx), name)).hasValue(TikaMediaTypeDetector.PROTECTED_OOXML);
  }

  /** An XLSX encrypted with a password here, by Apache POI's agile encryption as Excel does. */
  @Test
  void aPasswordProtectedSpreadsheetIsProtectedOoxml() throws Exception {
    byte[] xlsx = ProtectedOoxml.xlsx("secret", 2_000);

    assertThat(detector.detect(Arrays.copyOf(xlsx, detector.prefixBytes()), "budget.xlsx"))
        .hasValue(TikaMediaTypeDetector.PROTECTED_OOXML);
  }

  /** A legacy Excel file is OLE2 too, but holds no encrypted package: not protected. */
  @Test
  void anOle2FileWithoutAnEncryptedPackageIsNotProtected() throws IOException {
    ByteArrayOutputStream xls = new ByteArrayOutputStream();
    try (HSSFWorkbook workbook = new HSSFWorkbook()) {
      workbook.createSheet("one").createRow(0).createCell(0).setCellValue("plain");
      workbook.write(xls);
    }

    assertThat(detector.detect(xls.toByteArray(), "old.xls"))
        .isNotEqualTo(Optional.of(TikaMediaTypeDetector.PROTECTED_OOXML));
  }

  @Test
  void theBytesWinOverAMisleadingName() throws IOException {
    Path pdf = samples().resolve("pdf/standard_fonts.pdf");

    assertThat(detector.detect(prefix(pdf), "photo.jpg")).hasValue("application/pdf");
  }

  @Test
  void unknownBinaryContentIsNoSupportedType() {
    byte[] noise = {0, 1, 2, 3, (byte) 0xFE, (byte) 0x80, 0x7F, 0, 0, 9, 13, (byte) 0xC3};

    assertThat(detector.detect(noise, "data.bin")).isEmpty();
  }
}
