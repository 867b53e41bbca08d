package dev.derive.coordinator.identity;

import static org.assertj.core.api.Assertions.assertThat;

import dev.derive.coordinator.Declarations;
import dev.derive.protocol.capability.CapabilityDescriptor;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
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

  /**
   * Issue 30 item 5: a BigTIFF is a TIFF whatever its byte order; Tika knows only the big-endian
   * header, and a little-endian one (what libtiff writes on x86 and ARM) was unknown bytes.
   */
  @ParameterizedTest(name = "{0}")
  @CsvSource({"II+\\0, 49 49 2B 00 08 00 00 00", "MM\\0+, 4D 4D 00 2B 00 08 00 00"})
  void aBigTiffOfEitherByteOrderIsATiff(String name, String header) {
    byte[] prefix = new byte[64];
    String[] bytes = header.split(" ");
    for (int i = 0; i < bytes.length; i++) {
      prefix[i] = (byte) Integer.parseInt(bytes[i], 16);
    }
    prefix[8] = 16; // first IFD at offset 16

    assertThat(detector.detect(prefix, "upload.bin")).hasValue("image/tiff");
  }

  /**
   * Issue 29: an SVG is identified by its content as image/svg+xml (it was text/plain while no
   * capability read SVG), whatever its name, with or without an XML declaration and doctype.
   */
  @ParameterizedTest(name = "{0}")
  @CsvSource({
    "svg/gt.svg",
    "svg/gu.svg",
    "svg/url-to-png.svg",
    "svg/struct-dom-01-b.svg",
    "svg/text-fonts-01-t.svg",
    "svg/text-intro-01-t.svg"
  })
  void anSvgIsAnImageByItsContent(String sample) throws IOException {
    assertThat(detector.detect(prefix(samples().resolve(sample)), "upload.bin"))
        .hasValue("image/svg+xml");
  }

  @Test
  void anSvgWithAnXmlDeclarationAndADoctypeIsAnImage() {
    byte[] svg =
        ("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
                + "<!DOCTYPE svg PUBLIC \"-//W3C//DTD SVG 1.1//EN\""
                + " \"http://www.w3.org/Graphics/SVG/1.1/DTD/svg11.dtd\">\n"
                + "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"10\" height=\"10\"/>\n")
            .getBytes(java.nio.charset.StandardCharsets.UTF_8);

    assertThat(detector.detect(svg, "drawing.txt")).hasValue("image/svg+xml");
  }

  @Test
  void theBytesWinOverAMisleadingName() throws IOException {
    Path pdf = samples().resolve("pdf/standard_fonts.pdf");

    assertThat(detector.detect(prefix(pdf), "photo.jpg")).hasValue("application/pdf");
  }

  /**
   * Many READMEs open with an HTML block ({@code <div align="center">}); the name says which text
   * format embeds it (issue 30 item 2).
   */
  @Test
  void aMarkdownFileThatStartsWithAnHtmlBlockIsMarkdown() {
    byte[] readme =
        ("""
            <div align="center">
              <img src="logo.svg" width="120">
              <h1>Project</h1>
            </div>

            # Install

            ```sh
            npm install project
            ```
            """)
            .getBytes(StandardCharsets.UTF_8);

    assertThat(detector.detect(readme, "README.md")).hasValue("text/markdown");
    assertThat(detector.detect(readme, "notes.markdown")).hasValue("text/markdown");
    assertThat(detector.detect(readme, "page.html")).hasValue("text/html");
    assertThat(detector.detect(readme, "upload")).as("bytes alone").hasValue("text/html");
  }

  /** A name never names bytes that are no known format: identification goes by bytes. */
  @Test
  void unknownBytesNamedLikeADocumentAreNoSupportedType() {
    byte[] noise = new byte[4096];
    new java.util.Random(30).nextBytes(noise);

    assertThat(detector.detect(noise, "slides.pptx")).isEmpty();
    assertThat(detector.detect(noise, "report.docx")).isEmpty();
    assertThat(detector.detect(noise, "photo.jpg")).isEmpty();
  }

  /** UTF-16 without a byte order mark is text all the same (issue 30 item 4). */
  @ParameterizedTest
  @CsvSource({
    "UTF-16LE, page.html, text/html",
    "UTF-16BE, page.html, text/html",
    "UTF-16LE, README.md, text/markdown",
    "UTF-16LE, notes.txt, text/plain"
  })
  void utf16TextWithoutAByteOrderMarkIsText(String charset, String name, String expected) {
    String text =
        name.endsWith(".html")
            ? "<!DOCTYPE html><html><head><title>Grüße</title></head><body><p>Ünïcödé</p></body></html>"
            : "# Grüße\n\nSome text, long enough to be read as text.\n";
    byte[] bytes = text.getBytes(java.nio.charset.Charset.forName(charset));

    assertThat(detector.detect(bytes, name)).hasValue(expected);
  }

  @Test
  void unknownBinaryContentIsNoSupportedType() {
    byte[] noise = {0, 1, 2, 3, (byte) 0xFE, (byte) 0x80, 0x7F, 0, 0, 9, 13, (byte) 0xC3};

    assertThat(detector.detect(noise, "data.bin")).isEmpty();
  }
}
