package dev.derive.worker.markup;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpServer;
import dev.derive.protocol.MediaTypes;
import dev.derive.protocol.message.ObjectRef;
import dev.derive.protocol.message.Operation;
import dev.derive.protocol.message.StepErrorTypes;
import dev.derive.protocol.message.StepMessage;
import dev.derive.worker.runtime.PermanentStepFailure;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.pdfbox.Loader;
import org.apache.pdfbox.cos.COSName;
import org.apache.pdfbox.pdmodel.PDDocument;
import org.apache.pdfbox.pdmodel.PDPage;
import org.apache.pdfbox.text.PDFTextStripper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The markup capability on Markdown and HTML written here. */
class MarkupTransformerTest {
  private static final MarkupTransformer TRANSFORMER =
      new MarkupTransformer(MarkupTransformer.DEFAULT_MAX_OUTPUT_BYTES);

  @TempDir Path dir;

  @Test
  void probeRendersTheKnownPage() throws IOException {
    TRANSFORMER.probe(dir);

    assertThat(Files.list(dir)).as("the probe cleans up").isEmpty();
  }

  @Test
  void markdownTablesBecomeTablesInAnA4Pdf() throws IOException {
    Path pdf =
        render(
            "# Prices\n\n| fruit | price |\n|:--|--:|\n| apple | 1.20 |\n| ~~pear~~ | 2.40 |\n",
            MediaTypes.TEXT_MARKDOWN,
            Map.of());

    try (PDDocument document = Loader.loadPDF(pdf.toFile())) {
      assertThat(document.getNumberOfPages()).isEqualTo(1);
      assertThat(document.getPage(0).getMediaBox().getWidth()).isCloseTo(595.3f, within());
      String text = new PDFTextStripper().getText(document);
      assertThat(text).contains("Prices", "apple", "1.20", "pear");
      assertThat(text).doesNotContain("|", "~~");
    }
  }

  @Test
  void letterPageSizeIsHonoured() throws IOException {
    Path pdf = render("Letter", MediaTypes.TEXT_MARKDOWN, Map.of("pageSize", "Letter"));

    try (PDDocument document = Loader.loadPDF(pdf.toFile())) {
      assertThat(document.getPage(0).getMediaBox().getWidth()).isCloseTo(612f, within());
      assertThat(document.getPage(0).getMediaBox().getHeight()).isCloseTo(792f, within());
    }
  }

  @Test
  void unknownPageSizeIsAnInvalidStep() {
    assertThatThrownBy(() -> render("x", MediaTypes.TEXT_MARKDOWN, Map.of("pageSize", "A3")))
        .isInstanceOf(PermanentStepFailure.class)
        .extracting(e -> ((PermanentStepFailure) e).type())
        .isEqualTo(StepErrorTypes.INVALID_STEP);
  }

  @Test
  void chineseJapaneseAndArabicTextUseTheBundledFonts() throws IOException {
    Path pdf =
        render(
            "<html><body><p>中文：你好世界</p><p>日本語：こんにちは</p><p>العربية</p></body></html>",
            MediaTypes.TEXT_HTML,
            Map.of());

    try (PDDocument document = Loader.loadPDF(pdf.toFile())) {
      String text = new PDFTextStripper().getText(document);
      assertThat(text).contains("你好世界", "こんにちは");
      assertThat(text).doesNotContain("#");
      assertThat(fontNames(document.getPage(0)))
          .anySatisfy(name -> assertThat(name).contains("DroidSansFallback"))
          .anySatisfy(name -> assertThat(name).contains("DejaVuSans"));
    }
  }

  private static String nested(String open, String close, int times, String inner) {
    return "<html><body>" + open.repeat(times) + inner + close.repeat(times) + "</body></html>";
  }

  private void assertTooDeep(String content, String mediaType) {
    assertThatThrownBy(() -> render(content, mediaType, Map.of()))
        .isInstanceOf(PermanentStepFailure.class)
        .hasMessageContaining("levels deep")
        .extracting(e -> ((PermanentStepFailure) e).type())
        .isEqualTo(StepErrorTypes.INPUT_TOO_LARGE);
  }

  /** Nesting that once laid out for minutes is refused before layout starts. */
  @Test
  @org.junit.jupiter.api.Timeout(30)
  void elementsNestedTooDeepAreInputTooLargeAtOnce() {
    assertTooDeep(nested("<div>", "</div>", 2000, "deep"), MediaTypes.TEXT_HTML);
    assertTooDeep(
        nested("<table><tr><td>", "</td></tr></table>", 300, "deep"), MediaTypes.TEXT_HTML);
    assertTooDeep(">".repeat(500) + " deep\n", MediaTypes.TEXT_MARKDOWN);
  }

  /** Just under the limit still renders, and soon: the limit is set where layout stays fast. */
  @Test
  @org.junit.jupiter.api.Timeout(60)
  void nestingUpToTheLimitRenders() throws IOException {
    // html (1) > body (2) > 98 divs: 100 levels
    Path divs =
        render(nested("<div>", "</div>", 98, "deepest div"), MediaTypes.TEXT_HTML, Map.of());
    assertThat(text(divs)).contains("deepest div");
    // html > body > 24 × (table > tbody > tr > td): 98 levels
    Path tables =
        render(
            nested("<table><tr><td>", "</td></tr></table>", 24, "deepest cell"),
            MediaTypes.TEXT_HTML,
            Map.of());
    assertThat(text(tables)).contains("deepest cell");
  }

  /** Issue 30 item 4: the bytes are read before a label is believed, as browsers do. */
  @org.junit.jupiter.params.ParameterizedTest(name = "{0}")
  @org.junit.jupiter.params.provider.CsvSource({
    "UTF-16LE without a byte order mark, UTF-16LE, utf-16, text/html",
    "UTF-16BE without a byte order mark, UTF-16BE, utf-16, text/html",
    "windows-1252 labelled UTF-8, windows-1252, utf-8, text/html",
    "UTF-8 labelled windows-1252, UTF-8, windows-1252, text/html",
    "Shift_JIS labelled UTF-8, Shift_JIS, utf-8, text/html",
    "Markdown in windows-1252, windows-1252, , text/markdown",
    "Markdown in UTF-16LE, UTF-16LE, , text/markdown",
  })
  void textIsDecodedAsItsBytesSayWhateverItsLabel(
      String what, String encoding, String label, String mediaType) throws IOException {
    String body =
        encoding.equals("Shift_JIS")
            ? "日本語のテキストです。東京、大阪、京都。"
            : "Grüße aus Köln: Straße, Äpfel, Öl und Übermut.";
    String content =
        mediaType.equals(MediaTypes.TEXT_HTML)
            ? "<!DOCTYPE html><html><head><meta charset=\""
                + label
                + "\"><title>Seite</title></head><body><p>"
                + body
                + "</p></body></html>"
            : "# Seite\n\n" + body + "\n";
    Path input = Files.createTempFile(dir, "in", ".txt");
    Files.write(input, content.getBytes(java.nio.charset.Charset.forName(encoding)));
    Path output = Files.createTempFile(dir, "out", ".pdf");

    TRANSFORMER.transform(step(mediaType, Map.of()), input, output);

    assertThat(text(output)).doesNotContain("\uFFFD").contains(body);
  }

  /** HTML mail and Markdown's raw HTML put {@code <style>} in the body; browsers apply it there. */
  @Test
  void aStyleElementInTheBodyIsAppliedNotPrinted() throws IOException {
    Path pdf =
        render(
            "<div>\n<style>p { color: rgb(0, 0, 255); font-size: 40pt }</style>\n</div>\n\n"
                + "# Title\n\nblue text\n",
            MediaTypes.TEXT_MARKDOWN,
            Map.of());

    assertThat(text(pdf)).contains("Title", "blue text").doesNotContain("color", "{");
    try (PDDocument document = Loader.loadPDF(pdf.toFile())) {
      java.awt.image.BufferedImage page =
          new org.apache.pdfbox.rendering.PDFRenderer(document).renderImageWithDPI(0, 72);
      int blue = 0;
      for (int y = 0; y < page.getHeight(); y++) {
        for (int x = 0; x < page.getWidth(); x++) {
          int rgb = page.getRGB(x, y);
          blue += (rgb & 0xFF) > 200 && ((rgb >> 16) & 0xFF) < 80 ? 1 : 0;
        }
      }
      assertThat(blue).as("blue pixels of the 40-point paragraph").isGreaterThan(500);
    }
  }

  @Test
  void scriptsAreIgnored() throws IOException {
    Path pdf =
        render(
            "<html><body><p>visible</p><script>document.write('injected')</script></body></html>",
            MediaTypes.TEXT_HTML,
            Map.of());

    assertThat(text(pdf)).contains("visible").doesNotContain("injected", "document.write");
  }

  @Test
  void remoteImagesAndStylesheetsAreNeverFetched() throws IOException {
    AtomicInteger requests = new AtomicInteger();
    HttpServer server =
        HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.createContext(
        "/",
        exchange -> {
          requests.incrementAndGet();
          exchange.sendResponseHeaders(404, -1);
          exchange.close();
        });
    server.start();
    try {
      String origin = "http://127.0.0.1:" + server.getAddress().getPort();
      Path pdf =
          render(
              "<html><head><link rel=\"stylesheet\" href=\""
                  + origin
                  + "/style.css\"><style>@import url('"
                  + origin
                  + "/imported.css');</style></head><body><p>offline</p><img src=\""
                  + origin
                  + "/image.png\"><div style=\"background-image:url("
                  + origin
                  + "/bg.png)\">x</div></body></html>",
              MediaTypes.TEXT_HTML,
              Map.of());

      assertThat(text(pdf)).contains("offline");
      assertThat(requests).as("requests the renderer sent").hasValue(0);
    } finally {
      server.stop(0);
    }
  }

  @Test
  void embeddedDataUriImagesAreDrawn() throws IOException {
    // A 1x1 red PNG.
    String png =
        "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==";
    Path pdf =
        render(
            "<html><body><img style=\"width:50px;height:50px\" src=\"data:image/png;base64,"
                + png
                + "\"></body></html>",
            MediaTypes.TEXT_HTML,
            Map.of());

    try (PDDocument document = Loader.loadPDF(pdf.toFile())) {
      assertThat(document.getPage(0).getResources().getXObjectNames()).isNotEmpty();
    }
  }

  @Test
  void otherInputTypesAreUnsupported() {
    assertThatThrownBy(() -> render("body { color: red }", "text/css", Map.of()))
        .isInstanceOf(PermanentStepFailure.class)
        .extracting(e -> ((PermanentStepFailure) e).type())
        .isEqualTo(StepErrorTypes.UNSUPPORTED_INPUT);
  }

  @Test
  void outputOverTheLimitFailsAsOutputTooLarge() {
    MarkupTransformer tiny = new MarkupTransformer(500);
    Path input = dir.resolve("long.md");

    assertThatThrownBy(
            () -> {
              Files.writeString(input, "Lorem ipsum dolor sit amet.\n\n".repeat(200));
              tiny.transform(
                  step(MediaTypes.TEXT_MARKDOWN, Map.of()),
                  input,
                  Files.createTempFile(dir, "out", ".pdf"));
            })
        .isInstanceOf(PermanentStepFailure.class)
        .extracting(e -> ((PermanentStepFailure) e).type())
        .isEqualTo(StepErrorTypes.OUTPUT_TOO_LARGE);
  }

  private Path render(String content, String mediaType, Map<String, Object> params)
      throws IOException {
    return render(dir, content, mediaType, params);
  }

  /** The PDF of {@code content} (written as UTF-8 in {@code dir}) as {@code mediaType}. */
  static Path render(Path dir, String content, String mediaType, Map<String, Object> params)
      throws IOException {
    Path input = Files.createTempFile(dir, "in", ".txt");
    Files.writeString(input, content, StandardCharsets.UTF_8);
    Path output = Files.createTempFile(dir, "out", ".pdf");
    TRANSFORMER.transform(step(mediaType, params), input, output);
    return output;
  }

  static StepMessage step(String mediaType, Map<String, Object> params) {
    return new StepMessage(
        "c".repeat(64),
        0,
        1,
        "markup",
        List.of(new Operation(MarkupTransformer.RENDER, params)),
        ObjectRef.of("source", "in"),
        mediaType,
        ObjectRef.of("derivatives", "out"),
        MediaTypes.APPLICATION_PDF,
        "test");
  }

  static String text(Path pdf) throws IOException {
    try (PDDocument document = Loader.loadPDF(pdf.toFile())) {
      return new PDFTextStripper().getText(document);
    }
  }

  static List<String> fontNames(PDPage page) throws IOException {
    List<String> names = new ArrayList<>();
    for (COSName name : page.getResources().getFontNames()) {
      names.add(page.getResources().getFont(name).getName());
    }
    return names;
  }

  private static org.assertj.core.data.Offset<Float> within() {
    return org.assertj.core.data.Offset.offset(1f);
  }
}
