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
import org.apache.pdfbox.pdmodel.interactive.documentnavigation.outline.PDDocumentOutline;
import org.apache.pdfbox.pdmodel.interactive.documentnavigation.outline.PDOutlineItem;
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

  /**
   * Tika's detecting parser is built by the first document, not with the transformer (the worker's
   * Init; docs/cold-start.md).
   */
  @Test
  void theDetectingParserIsBuiltByTheFirstDocumentNotAtStart() throws IOException {
    TextTransformer fresh = new TextTransformer(1024 * 1024);
    assertThat(fresh.detectingParserBuilt()).isFalse();

    fresh.probe(dir);

    assertThat(fresh.detectingParserBuilt()).isTrue();
  }

  /** A PDF goes to Tika's PDF parser directly; a file only labelled as one still to detection. */
  @Test
  void aDocumentSentAsAPdfIsReadAsWhatItIs() throws IOException {
    Path docx = dir.resolve("labelled.pdf");
    try (XWPFDocument document = new XWPFDocument();
        OutputStream out = Files.newOutputStream(docx)) {
      document.createParagraph().createRun().setText("Labelled a PDF, written as Word.");
      document.write(out);
    }
    Path pdf = pdf("A PDF with a parameter on its type", null);

    assertThat(extract(docx, "application/pdf")).contains("Labelled a PDF, written as Word.");
    assertThat(extract(pdf, "Application/PDF; x=1")).contains("A PDF with a parameter on its type");
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

  /** Issue 30 item 4: the bytes are read before a label is believed, as browsers do. */
  @ParameterizedTest(name = "{0}")
  @org.junit.jupiter.params.provider.CsvSource({
    "UTF-16LE without a byte order mark, UTF-16LE, utf-16",
    "UTF-16BE without a byte order mark, UTF-16BE, utf-16",
    "windows-1252 labelled UTF-8, windows-1252, utf-8",
    "UTF-8 labelled windows-1252, UTF-8, windows-1252",
    "Shift_JIS labelled UTF-8, Shift_JIS, utf-8",
  })
  void htmlIsDecodedAsItsBytesSayWhateverItsLabel(String what, String encoding, String label)
      throws IOException {
    String body =
        encoding.equals("Shift_JIS")
            ? "日本語のテキストです。東京、大阪、京都。"
            : "Grüße aus Köln: Straße, Äpfel, Öl und Übermut.";
    String page =
        "<!DOCTYPE html><html><head><meta charset=\""
            + label
            + "\"><title>Seite</title></head><body><p>"
            + body
            + "</p></body></html>";
    Path html = dir.resolve("page.html");
    Files.write(html, page.getBytes(Charset.forName(encoding)));

    assertThat(extract(html, "text/html")).doesNotContain("\uFFFD").contains(body);
  }

  /**
   * A workbook saved as Strict Open XML (ISO/IEC 29500 Strict: Excel's "Strict Open XML
   * Spreadsheet") names its parts' namespaces and relationships under purl.oclc.org; it is read as
   * a transitional one is (issue 30 item 5: it was corrupt-input).
   */
  @Test
  void aStrictOpenXmlWorkbookIsRead() throws IOException {
    java.io.ByteArrayOutputStream transitional = new java.io.ByteArrayOutputStream();
    try (org.apache.poi.xssf.usermodel.XSSFWorkbook workbook =
        new org.apache.poi.xssf.usermodel.XSSFWorkbook()) {
      org.apache.poi.ss.usermodel.Sheet sheet = workbook.createSheet("Budget");
      sheet.createRow(0).createCell(0).setCellValue("Strict quarterly budget");
      sheet.createRow(1).createCell(0).setCellValue(1234.5);
      workbook.write(transitional);
    }
    Path strict = dir.resolve("budget.xlsx");
    Files.write(strict, StrictOpenXmlSamples.fromTransitional(transitional.toByteArray()));

    assertThat(extract(strict, StrictOpenXmlSamples.SPREADSHEET))
        .contains("Budget", "Strict quarterly budget", "1234.5");
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
   * Issue 26 item 15: a DOCX whose word/document.xml unpacks to far more than the worker can hold
   * is refused from its zip directory before anything is inflated (it ran the worker out of memory
   * in 15 s, and again on every retry).
   */
  @Test
  @Timeout(value = 60, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
  void aDocxWhosePartsUnpackBeyondTheBudgetIsRefusedBeforeParsing() throws IOException {
    Path docx = dir.resolve("bomb.docx");
    byte[] spaces = new byte[1024 * 1024];
    java.util.Arrays.fill(spaces, (byte) ' ');
    try (var zip = new java.util.zip.ZipOutputStream(Files.newOutputStream(docx))) {
      zip.putNextEntry(new java.util.zip.ZipEntry("[Content_Types].xml"));
      zip.write(
          ("<?xml version=\"1.0\"?><Types xmlns=\"http://schemas.openxmlformats.org/package/2006/"
                  + "content-types\"><Default Extension=\"rels\" ContentType=\"application/"
                  + "vnd.openxmlformats-package.relationships+xml\"/><Default Extension=\"xml\""
                  + " ContentType=\"application/xml\"/><Override PartName=\"/word/document.xml\""
                  + " ContentType=\"application/vnd.openxmlformats-officedocument."
                  + "wordprocessingml.document.main+xml\"/></Types>")
              .getBytes(StandardCharsets.UTF_8));
      zip.putNextEntry(new java.util.zip.ZipEntry("_rels/.rels"));
      zip.write(
          ("<?xml version=\"1.0\"?><Relationships xmlns=\"http://schemas.openxmlformats.org/"
                  + "package/2006/relationships\"><Relationship Id=\"rId1\" Type=\"http://"
                  + "schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument\""
                  + " Target=\"word/document.xml\"/></Relationships>")
              .getBytes(StandardCharsets.UTF_8));
      zip.putNextEntry(new java.util.zip.ZipEntry("word/document.xml"));
      zip.write(
          ("<?xml version=\"1.0\"?><w:document xmlns:w=\"http://schemas.openxmlformats.org/"
                  + "wordprocessingml/2006/main\"><w:body><w:p><w:r><w:t>")
              .getBytes(StandardCharsets.UTF_8));
      for (int i = 0; i < 200; i++) {
        zip.write(spaces);
      }
      zip.write("</w:t></w:r></w:p></w:body></w:document>".getBytes(StandardCharsets.UTF_8));
    }
    String docxType = "application/vnd.openxmlformats-officedocument.wordprocessingml.document";

    assertThatThrownBy(
            () -> TRANSFORMER.transform(step(TextTransformer.EXTRACT, docxType), docx, out()))
        .isInstanceOf(PermanentStepFailure.class)
        .hasMessageContaining("word/document.xml unpacks to 201 MiB")
        .extracting(e -> ((PermanentStepFailure) e).type())
        .isEqualTo(StepErrorTypes.INPUT_TOO_LARGE);
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

  /**
   * A PDF whose outline nests 30,000 deep is refused as any parser's output nested that deep is,
   * without the stack overflow that replaced the worker's process when the PDF parser was called
   * directly (Tika's AutoDetectParser bounds the nesting; the direct path does too now).
   */
  @Test
  void aPdfOutlineNestedBeyondAnyDocumentIsRefusedWithoutOverflowingTheStack() throws IOException {
    Path pdf = Files.createTempFile(dir, "outline", ".pdf");
    try (PDDocument document = new PDDocument()) {
      document.addPage(new PDPage());
      PDDocumentOutline outline = new PDDocumentOutline();
      document.getDocumentCatalog().setDocumentOutline(outline);
      PDOutlineItem parent = new PDOutlineItem();
      parent.setTitle("Level 0");
      outline.addLast(parent);
      for (int level = 1; level < 30_000; level++) {
        PDOutlineItem child = new PDOutlineItem();
        child.setTitle("Level " + level);
        parent.addLast(child);
        parent = child;
      }
      document.save(pdf.toFile());
    }

    assertThatThrownBy(
            () ->
                TRANSFORMER.transform(step(TextTransformer.EXTRACT, "application/pdf"), pdf, out()))
        .isInstanceOf(PermanentStepFailure.class)
        .extracting(e -> ((PermanentStepFailure) e).type())
        .isEqualTo(StepErrorTypes.CORRUPT_INPUT);
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
