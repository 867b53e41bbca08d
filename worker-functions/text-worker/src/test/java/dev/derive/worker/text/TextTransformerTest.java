package dev.derive.worker.text;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.derive.protocol.message.ObjectRef;
import dev.derive.protocol.message.Operation;
import dev.derive.protocol.message.StepErrorTypes;
import dev.derive.protocol.message.StepMessage;
import dev.derive.worker.runtime.PermanentStepFailure;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.pdfbox.cos.COSName;
import org.apache.pdfbox.cos.COSStream;
import org.apache.pdfbox.pdmodel.PDDocument;
import org.apache.pdfbox.pdmodel.PDPage;
import org.apache.pdfbox.pdmodel.PDPageContentStream;
import org.apache.pdfbox.pdmodel.encryption.AccessPermission;
import org.apache.pdfbox.pdmodel.encryption.StandardProtectionPolicy;
import org.apache.pdfbox.pdmodel.font.PDType1Font;
import org.apache.pdfbox.pdmodel.font.Standard14Fonts;
import org.apache.poi.xwpf.usermodel.XWPFDocument;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The text capability on documents generated here (PDFBox, Apache POI, plain strings). */
class TextTransformerTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final TextTransformer TRANSFORMER = new TextTransformer(1024 * 1024);

  @TempDir Path dir;

  @Test
  void probeExtractsTheKnownPhrase() throws IOException {
    TRANSFORMER.probe(dir);

    assertThat(Files.list(dir)).as("the probe cleans up").isEmpty();
  }

  @Test
  void extractsTheTextOfAPdf() throws IOException {
    Path pdf = pdf("Derivatives from PDFs", null);

    assertThat(extract(pdf, "application/pdf")).contains("Derivatives from PDFs");
  }

  @Test
  void extractsTheTextOfADocxAndItsTitle() throws IOException {
    Path docx = dir.resolve("letter.docx");
    try (XWPFDocument document = new XWPFDocument();
        OutputStream out = Files.newOutputStream(docx)) {
      document.createParagraph().createRun().setText("Dear reader, Derive extracts this.");
      document.getProperties().getCoreProperties().setTitle("A generated letter");
      document.write(out);
    }

    assertThat(extract(docx, null)).contains("Dear reader, Derive extracts this.");
    JsonNode metadata = metadata(docx);
    assertThat(metadata.get("mediaType").asText())
        .isEqualTo("application/vnd.openxmlformats-officedocument.wordprocessingml.document");
    assertThat(metadata.get("metadata").get("dc:title").asText()).isEqualTo("A generated letter");
  }

  @Test
  void htmlLosesItsMarkupAndScripts() throws IOException {
    Path html =
        Files.writeString(
            dir.resolve("page.html"),
            "<html><head><title>T</title><script>var secret = 1;</script></head>"
                + "<body><h1>Heading</h1><p>Body &amp; soul</p></body></html>");

    String text = extract(html, "text/html");

    assertThat(text).contains("Heading").contains("Body & soul").doesNotContain("secret", "<p>");
  }

  @Test
  void legacyEncodedTextComesOutAsUtf8() throws IOException {
    String german = "Grüße aus Köln: Straße, Äpfel, Öl und Übermut. ".repeat(5);
    Path latin1 = dir.resolve("legacy.txt");
    Files.write(latin1, german.getBytes(Charset.forName("windows-1252")));

    assertThat(extract(latin1, "text/plain"))
        .contains("Grüße aus Köln: Straße, Äpfel, Öl und Übermut.");
  }

  /**
   * EBCDIC text (IBM500, as IBM mainframes write it), ten lines as in the report: every byte is
   * valid in the charset, so not one U+FFFD may come out (Tika's detectors read it as a Latin or
   * Hebrew charset, in which the EBCDIC line break 0x15 is a control character it replaces), and
   * the text reads as written.
   */
  @ParameterizedTest
  @ValueSource(ints = {1, 3})
  void ebcdicTextComesOutWithoutReplacementCharacters(int copies) throws IOException {
    List<String> lines =
        List.of(
            "MEMBER REPORT FOR ACCOUNT 000123, BRANCH: ZURICH.",
            "Opening balance 1,250.00; interest (2.5%) added at year end!",
            "Please keep this statement for your records.",
            "Hello world",
            "The quick brown fox jumps over the lazy dog.",
            "Questions? Call us on 0800 123 456 [weekdays only].",
            "Deposits: 3 | Withdrawals: 2 | Fees: none",
            "Your adviser: J. Smith <j.smith@example.com>",
            "Next statement due 31/12.",
            "END OF REPORT");
    String text = (String.join("\n", lines) + "\n").repeat(copies);
    Path ebcdic = dir.resolve("statement.txt");
    Files.write(ebcdic, text.getBytes(Charset.forName("IBM500")));

    String extracted = extract(ebcdic, "text/plain");

    assertThat(extracted).doesNotContain("\uFFFD").contains(lines);
  }

  @Test
  void markdownIsReadAsText() throws IOException {
    Path markdown = Files.writeString(dir.resolve("notes.md"), "# Notes\n\nSome *emphasis*.\n");

    assertThat(extract(markdown, "text/markdown")).contains("Notes").contains("emphasis");
  }

  @Test
  void textPastTheLimitFailsAsOutputTooLarge() throws IOException {
    Path big = dir.resolve("big.txt");
    Files.writeString(big, "0123456789abcdef\n".repeat(10_000), StandardCharsets.UTF_8);
    TextTransformer small = new TextTransformer(1000);

    assertThatThrownBy(() -> small.transform(step(TextTransformer.EXTRACT, null), big, out()))
        .isInstanceOf(PermanentStepFailure.class)
        .extracting(e -> ((PermanentStepFailure) e).type())
        .isEqualTo(StepErrorTypes.OUTPUT_TOO_LARGE);
  }

  /**
   * A small PDF whose thousands of pages share one content stream expands to far more text than the
   * cap: the parse stops at the cap (the handler throws, Tika's per-page error handling does not
   * swallow it) instead of reading every remaining page.
   */
  @Test
  @Timeout(value = 60, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
  void pdfOfManyPagesSharingOneContentStreamStopsAtTheCap() throws IOException {
    Path pdf = dir.resolve("pages.pdf");
    try (PDDocument document = new PDDocument()) {
      PDPage first = new PDPage();
      document.addPage(first);
      try (PDPageContentStream content = new PDPageContentStream(document, first)) {
        content.setFont(new PDType1Font(Standard14Fonts.FontName.HELVETICA), 6);
        for (int line = 0; line < 100; line++) {
          content.beginText();
          content.newLineAtOffset(20, 780 - 7 * line);
          content.showText(
              "Derive repeats this line of text on every page of the document " + line);
          content.endText();
        }
      }
      COSStream shared = first.getCOSObject().getCOSStream(COSName.CONTENTS);
      for (int i = 1; i < 20_000; i++) {
        PDPage page = new PDPage();
        page.getCOSObject().setItem(COSName.CONTENTS, shared);
        page.setResources(first.getResources());
        document.addPage(page);
      }
      document.save(pdf.toFile());
    }
    TextTransformer capped = new TextTransformer(1024 * 1024);
    Path output = out();

    assertThatThrownBy(
            () -> capped.transform(step(TextTransformer.EXTRACT, "application/pdf"), pdf, output))
        .isInstanceOf(PermanentStepFailure.class)
        .extracting(e -> ((PermanentStepFailure) e).type())
        .isEqualTo(StepErrorTypes.OUTPUT_TOO_LARGE);
    assertThat(Files.size(output)).isLessThanOrEqualTo(1024 * 1024);
  }

  @Test
  void pdfWithAUserPasswordNeedsThePassword() throws IOException {
    Path pdf = pdf("secret text", "password");

    assertFailure(pdf, StepErrorTypes.PASSWORD_REQUIRED);
  }

  @Test
  void truncatedDocxIsCorrupt() throws IOException {
    Path docx = dir.resolve("whole.docx");
    try (XWPFDocument document = new XWPFDocument();
        OutputStream out = Files.newOutputStream(docx)) {
      document.createParagraph().createRun().setText("soon truncated");
      document.write(out);
    }
    byte[] bytes = Files.readAllBytes(docx);
    Path truncated =
        Files.write(dir.resolve("truncated.docx"), java.util.Arrays.copyOf(bytes, 600));

    assertFailure(truncated, StepErrorTypes.CORRUPT_INPUT);
  }

  @Test
  void emptyInputIsCorrupt() throws IOException {
    assertFailure(Files.createFile(dir.resolve("empty.bin")), StepErrorTypes.CORRUPT_INPUT);
  }

  @Test
  void unknownOperationIsAnInvalidStep() throws IOException {
    Path text = Files.writeString(dir.resolve("a.txt"), "a");

    assertThatThrownBy(() -> TRANSFORMER.transform(step("translate", null), text, out()))
        .isInstanceOf(PermanentStepFailure.class)
        .extracting(e -> ((PermanentStepFailure) e).type())
        .isEqualTo(StepErrorTypes.INVALID_STEP);
  }

  private String extract(Path input, String mediaType) throws IOException {
    Path output = out();
    TRANSFORMER.transform(step(TextTransformer.EXTRACT, mediaType), input, output);
    return Files.readString(output, StandardCharsets.UTF_8);
  }

  private JsonNode metadata(Path input) throws IOException {
    Path output = out();
    TRANSFORMER.transform(step(TextTransformer.METADATA, null), input, output);
    return JSON.readTree(output.toFile());
  }

  private void assertFailure(Path input, String type) {
    assertThatThrownBy(() -> extract(input, null))
        .isInstanceOf(PermanentStepFailure.class)
        .extracting(e -> ((PermanentStepFailure) e).type())
        .isEqualTo(type);
  }

  private Path out() throws IOException {
    return Files.createTempFile(dir, "out", ".txt");
  }

  private Path pdf(String text, String userPassword) throws IOException {
    Path pdf = Files.createTempFile(dir, "doc", ".pdf");
    try (PDDocument document = new PDDocument()) {
      PDPage page = new PDPage();
      document.addPage(page);
      try (PDPageContentStream content = new PDPageContentStream(document, page)) {
        content.beginText();
        content.setFont(new PDType1Font(Standard14Fonts.FontName.HELVETICA), 12);
        content.newLineAtOffset(72, 700);
        content.showText(text);
        content.endText();
      }
      if (userPassword != null) {
        StandardProtectionPolicy policy =
            new StandardProtectionPolicy("owner", userPassword, new AccessPermission());
        policy.setEncryptionKeyLength(128);
        document.protect(policy);
      }
      document.save(pdf.toFile());
    }
    return pdf;
  }

  /** A step of the text capability; {@code mediaType} is the coordinator's detected type. */
  static StepMessage step(String operation, String mediaType) {
    return new StepMessage(
        "b".repeat(64),
        0,
        1,
        "text",
        List.of(new Operation(operation, Map.of())),
        ObjectRef.of("source", "in"),
        mediaType,
        ObjectRef.of("derivatives", "out"),
        TextTransformer.EXTRACT.equals(operation)
            ? "text/plain; charset=utf-8"
            : "application/json",
        "test");
  }
}
