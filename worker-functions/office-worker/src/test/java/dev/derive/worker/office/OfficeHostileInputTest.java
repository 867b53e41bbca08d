package dev.derive.worker.office;

import static dev.derive.worker.runtime.SampleCorpus.samples;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpServer;
import dev.derive.protocol.MediaTypes;
import dev.derive.worker.runtime.PermanentStepFailure;
import dev.derive.worker.runtime.fixtures.OfficePackages;
import java.awt.image.BufferedImage;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;
import java.util.zip.ZipOutputStream;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Documents made to harm the converter: pictures, sections and fields pointing at a URL or a local
 * file, a macro run on load, a package that inflates to a gibibyte, protected documents of every
 * format LibreOffice encrypts. Each hostile fixture is first shown live where LibreOffice runs with
 * JODConverter's defaults ({@link PlainOffice}: the loopback listener sees the request, the macro
 * writes its marker), so a quiet listener under the office worker means something.
 */
class OfficeHostileInputTest {
  private static HttpServer listener;
  private static final List<String> requests = new CopyOnWriteArrayList<>();
  private static PlainOffice plain;

  @TempDir Path dir;

  @BeforeAll
  static void startTheListenerAndAPlainOffice() throws Exception {
    listener = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    byte[] picture = png(0x0000FF);
    listener.createContext(
        "/",
        exchange -> {
          requests.add(exchange.getRequestMethod() + " " + exchange.getRequestURI());
          exchange.getResponseHeaders().set("Content-Type", "image/png");
          exchange.sendResponseHeaders(200, picture.length);
          exchange.getResponseBody().write(picture);
          exchange.close();
        });
    listener.start();
    TestOffice.process();
    plain = new PlainOffice(TestOffice.workingDirectory("plain"));
  }

  @AfterAll
  static void stop() throws Exception {
    listener.stop(0);
    plain.close();
  }

  /**
   * A linked picture (DOCX {@code r:link}, ODT {@code xlink:href}) is fetched by LibreOffice with
   * JODConverter's defaults; the office worker converts the same documents and the listener hears
   * nothing.
   */
  @Test
  void linkedPicturesAreNeverFetched() throws Exception {
    Path docx =
        Files.write(
            dir.resolve("linked.docx"),
            Documents.docxWithExternalPicture(url("/docx-linked.png"), "r:link"));
    Path odt =
        Files.write(
            dir.resolve("linked.odt"), Documents.odtWithLinkedPicture(url("/odt-linked.png")));

    plain.convert(docx, dir.resolve("plain-docx.pdf"));
    plain.convert(odt, dir.resolve("plain-odt.pdf"));
    assertThat(requests)
        .as("requests LibreOffice made with JODConverter's defaults")
        .anyMatch(r -> r.endsWith("/docx-linked.png"))
        .anyMatch(r -> r.endsWith("/odt-linked.png"));
    requests.clear();

    convert(docx, MediaTypes.APPLICATION_DOCX);
    convert(odt, MediaTypes.APPLICATION_ODT);

    assertThat(requests).as("requests the office worker let LibreOffice make").isEmpty();
  }

  /**
   * The corpus's field codes (INCLUDEPICTURE, INCLUDETEXT, IMPORT, LINK) pointed at the listener, a
   * picture that claims to be embedded but lives at a URL, a section linked from a URL: nothing is
   * requested, and the fields show what the document saved.
   */
  @Test
  void fieldsSectionsAndExternalPartsAreNeverFetched() throws Exception {
    Path fields = dir.resolve("fields.docx");
    try (ZipFile source = new ZipFile(samples().resolve("office/testExternalRefs.docx").toFile());
        ZipOutputStream target = new ZipOutputStream(Files.newOutputStream(fields))) {
      for (ZipEntry entry : java.util.Collections.list(source.entries())) {
        byte[] content = source.getInputStream(entry).readAllBytes();
        if (entry.getName().equals("word/document.xml")) {
          content =
              new String(content, StandardCharsets.UTF_8)
                  .replaceAll("http://(example\\.(com|org|net)|test\\.invalid)/", url("/field/"))
                  .getBytes(StandardCharsets.UTF_8);
        }
        target.putNextEntry(new ZipEntry(entry.getName()));
        target.write(content);
        target.closeEntry();
      }
    }
    Path embedded =
        Files.write(
            dir.resolve("embedded.docx"),
            Documents.docxWithExternalPicture(url("/docx-embed.png"), "r:embed"));
    Path section =
        Files.write(
            dir.resolve("section.odt"), Documents.odtWithLinkedSection(url("/section.odt")));

    Path pdf = convert(fields, MediaTypes.APPLICATION_DOCX);
    convert(embedded, MediaTypes.APPLICATION_DOCX);
    Path sectionPdf = convert(section, MediaTypes.APPLICATION_ODT);

    assertThat(requests).as("requests the office worker let LibreOffice make").isEmpty();
    try (ConvertedPdf read = ConvertedPdf.read(pdf)) {
      assertThat(read.text(1))
          .contains("[Image placeholder]", "[Text placeholder]", "[Import placeholder]");
    }
    try (ConvertedPdf read = ConvertedPdf.read(sectionPdf)) {
      assertThat(read.text(1)).contains("The section as it was saved");
    }
  }

  /**
   * A picture linked to a local file ({@code file:///…}) is drawn into the PDF by LibreOffice with
   * JODConverter's defaults (a file disclosure); the office worker leaves it out.
   */
  @Test
  void aPictureLinkedToALocalFileIsNeverRead() throws Exception {
    Path secret = Files.write(dir.resolve("secret.png"), png(0xFF0000));
    Path docx =
        Files.write(
            dir.resolve("file-link.docx"),
            Documents.docxWithExternalPicture(secret.toUri().toString(), "r:link"));

    Path plainPdf = dir.resolve("plain.pdf");
    plain.convert(docx, plainPdf);
    try (ConvertedPdf read = ConvertedPdf.read(plainPdf)) {
      assertThat(redPixels(read.render(1, 72)))
          .as("the secret drawn by plain LibreOffice")
          .isPositive();
    }

    try (ConvertedPdf read = ConvertedPdf.read(convert(docx, MediaTypes.APPLICATION_DOCX))) {
      assertThat(redPixels(read.render(1, 72)))
          .as("the secret drawn by the office worker")
          .isZero();
    }
  }

  /**
   * A Basic macro bound to the document's load event (the document made by LibreOffice itself) runs
   * in LibreOffice opened in a window with macros allowed; through the office worker (hidden,
   * macros never executed, macro security very high and macro execution disabled in the profile) it
   * never runs.
   */
  @Test
  void aMacroOnLoadNeverRuns() throws Exception {
    Path marker = dir.resolve("macro-ran");
    Path odt = dir.resolve("macro.odt");
    plain.saveWithMacroOnLoad(marker, odt);
    if (System.getProperty("lomacro") != null) {
      odt = Path.of(System.getProperty("lomacro"));
      marker = Path.of("/tmp/ext/macro-ran");
    }

    plain.convertRunningMacros(odt, dir.resolve("plain.pdf"));
    assertThat(marker).as("the marker of the macro, where macros may run").exists();
    Files.delete(marker);

    Path pdf = convert(odt, MediaTypes.APPLICATION_ODT);

    assertThat(marker).as("the marker of the macro, through the office worker").doesNotExist();
    try (ConvertedPdf read = ConvertedPdf.read(pdf)) {
      assertThat(read.text(1)).contains("A document whose macro runs when it is opened.");
    }
  }

  /**
   * A DOCX whose document.xml inflates to 1 GiB is refused before LibreOffice sees it: the office
   * process given here does not exist, and would fail the step otherwise.
   */
  @Test
  void aPackageInflatingBeyondTheBudgetIsRefusedBeforeLibreOffice() throws IOException {
    Path bomb = OfficePackages.docxInflatingTo(dir.resolve("bomb.docx"), 1L << 30);
    assertThat(Files.size(bomb)).as("the bomb's size").isLessThan(10L << 20);

    assertThatThrownBy(() -> withoutOffice().transform(step(), bomb, output()))
        .isInstanceOfSatisfying(
            PermanentStepFailure.class,
            failure -> {
              assertThat(failure.type()).isEqualTo("input-too-large");
              assertThat(failure.detail())
                  .isEqualTo(
                      "the document's ZIP package inflates to more than 256 MiB, the most an"
                          + " office conversion reads");
            });
  }

  /** A workbook embedded in a document counts towards the same budget. */
  @Test
  void aNestedPackageCountsTowardsTheBudget() throws IOException {
    Path inner = OfficePackages.docxInflatingTo(dir.resolve("inner.xlsx"), 300L << 20);
    Path outer =
        Files.write(
            dir.resolve("outer.docx"), OfficePackages.docxEmbedding(Files.readAllBytes(inner)));

    assertThatThrownBy(() -> withoutOffice().transform(step(), outer, output()))
        .isInstanceOfSatisfying(
            PermanentStepFailure.class,
            failure -> assertThat(failure.type()).isEqualTo("input-too-large"));
  }

  /**
   * Documents LibreOffice itself saved with a password, in each format it encrypts: the worker
   * answers password-required (no prompt, no hang) and the next document converts.
   */
  @Test
  void documentsProtectedWithAPasswordAreRefusedAtOnce() throws Exception {
    Map<String, String[]> formats =
        Map.of(
            "protected.odt", new String[] {"writer8", MediaTypes.APPLICATION_ODT},
            "protected.doc", new String[] {"MS Word 97", "application/msword"},
            "protected.xls", new String[] {"MS Excel 97", "application/vnd.ms-excel"},
            "protected.ods",
                new String[] {"calc8", "application/vnd.oasis.opendocument.spreadsheet"});
    for (Map.Entry<String, String[]> format : formats.entrySet()) {
      String source =
          format.getValue()[0].contains("Excel") || format.getValue()[0].equals("calc8")
              ? "documents/quick.xlsx"
              : "documents/quick.odt";
      Path document = dir.resolve(format.getKey());
      plain.saveWithPassword(samples().resolve(source), document, format.getValue()[0], "secret");
      System.out.println(
          "PROTECTED "
              + format.getKey()
              + " "
              + java.util.HexFormat.of().formatHex(Files.readAllBytes(document), 0, 8));

      assertThatThrownBy(() -> convert(document, format.getValue()[1]))
          .as("converting %s", format.getKey())
          .isInstanceOfSatisfying(
              PermanentStepFailure.class,
              failure -> {
                assertThat(failure.type()).isEqualTo("password-required");
                assertThat(failure.detail())
                    .isEqualTo(
                        "the document is protected with a password; it is not opened without it");
              });
    }
    try (ConvertedPdf read =
        ConvertedPdf.read(
            convert(samples().resolve("documents/quick.odt"), MediaTypes.APPLICATION_ODT))) {
      assertThat(read.pages()).isEqualTo(1);
    }
  }

  private Path convert(Path input, String mediaType) throws IOException {
    Path output = output();
    TestOffice.transformer().transform(TestOffice.step(mediaType, Map.of()), input, output);
    return output;
  }

  private Path output() throws IOException {
    return Files.createTempFile(dir, "out-", ".pdf");
  }

  private static dev.derive.protocol.message.StepMessage step() {
    return TestOffice.step(MediaTypes.APPLICATION_DOCX, Map.of());
  }

  private static OfficeTransformer withoutOffice() {
    OfficeSettings absent =
        new OfficeSettings(
            Path.of("/nonexistent/libreoffice"),
            1_000,
            500,
            TestOffice.SETTINGS.maxInflatedBytes());
    return new OfficeTransformer(
        new OfficeProcess(absent, TestOffice.workingDirectory("absent")), absent);
  }

  private static String url(String path) {
    return "http://127.0.0.1:" + listener.getAddress().getPort() + path;
  }

  /** A 64 x 64 PNG of one colour ({@code 0xRRGGBB}). */
  private static byte[] png(int rgb) throws IOException {
    BufferedImage image = new BufferedImage(64, 64, BufferedImage.TYPE_INT_RGB);
    for (int y = 0; y < 64; y++) {
      for (int x = 0; x < 64; x++) {
        image.setRGB(x, y, rgb);
      }
    }
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    ImageIO.write(image, "png", bytes);
    return bytes.toByteArray();
  }

  private static long redPixels(BufferedImage image) {
    long red = 0;
    for (int y = 0; y < image.getHeight(); y++) {
      for (int x = 0; x < image.getWidth(); x++) {
        int rgb = image.getRGB(x, y);
        if (((rgb >> 16) & 0xFF) > 200 && ((rgb >> 8) & 0xFF) < 60 && (rgb & 0xFF) < 60) {
          red++;
        }
      }
    }
    return red;
  }
}
