package dev.derive.worker.text;

import dev.derive.protocol.MediaTypes;
import dev.derive.protocol.message.StepErrorTypes;
import dev.derive.worker.runtime.DeclaredStep;
import dev.derive.worker.runtime.PermanentStepFailure;
import dev.derive.worker.runtime.StepTransformer;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.tika.detect.EncodingDetector;
import org.apache.tika.exception.EncryptedDocumentException;
import org.apache.tika.exception.TikaException;
import org.apache.tika.exception.ZeroByteFileException;
import org.apache.tika.io.TikaInputStream;
import org.apache.tika.metadata.Metadata;
import org.apache.tika.metadata.PagedText;
import org.apache.tika.metadata.TikaCoreProperties;
import org.apache.tika.parser.ParseContext;
import org.apache.tika.parser.Parser;
import org.apache.tika.parser.pdf.PDFParser;
import org.apache.tika.sax.BodyContentHandler;
import org.apache.tika.sax.SecureContentHandler;
import org.apache.tika.sax.ToTextContentHandler;
import org.xml.sax.ContentHandler;
import org.xml.sax.SAXException;
import org.xml.sax.helpers.DefaultHandler;

/**
 * The text capability (Apache Tika, standard parsers): {@code extract} writes the document's plain
 * text as UTF-8, without leading or trailing blank lines ({@link TrimmedWriter}: empty when the
 * document has no text, such as a scan); {@code metadata} writes the metadata Tika finds as JSON,
 * with whether there is any text ({@link TextMetadata}). Reads PDF, DOCX, XLSX, PPTX (Strict Open
 * XML too: {@link StrictOpenXml}), ODT, RTF, EPUB, HTML, Markdown and plain text in any charset
 * (Tika detects legacy encodings such as windows-1252 or IBM866; where its choice leaves U+FFFD in
 * the text of bytes another charset reads, such as EBCDIC, {@link LegacyText} decodes it).
 *
 * <p>The text is streamed to the output through a byte counter ({@link TextCapHandler}): the moment
 * it would pass {@code maxTextBytes} the parse is aborted and the step fails with {@code
 * output-too-large} (a small PDF can expand to gigabytes of text). Embedded documents are not
 * recursed into.
 */
// Over 300 lines because extract and metadata share Tika's parser set-up and its limits.
public final class TextTransformer implements StepTransformer {
  /** Operation writing the plain text. */
  public static final String EXTRACT = "extract";

  /** Operation writing the metadata as JSON. */
  public static final String METADATA = "metadata";

  /** Default of {@code MAX_TEXT_BYTES}: 10 MiB. */
  public static final long DEFAULT_MAX_TEXT_BYTES = 10L * 1024 * 1024;

  /** Tika's name of a parser that only skips its input: the format has no text parser. */
  private static final String EMPTY_PARSER = "org.apache.tika.parser.EmptyParser";

  /** How far into a file PDFBox (and Tika's magic) look for the {@code %PDF-} header, in bytes. */
  private static final int PDF_HEADER_WINDOW = 1024;

  private final long maxTextBytes;

  /**
   * Tika's type detection and every parser of the standard package, built on first use (most of a
   * cold start's Init otherwise); with it, POI's inflation bound is set ({@link ZipBudget}: a
   * part's declared size can lie), since only its parsers reach POI.
   */
  private final DeferredAutoDetectParser parser =
      new DeferredAutoDetectParser(
          () ->
              org.apache.poi.openxml4j.util.ZipSecureFile.setMaxEntrySize(
                  ZipBudget.MAX_ENTRY_BYTES));

  /**
   * The parser {@link #parser} picks for a PDF, called directly when the step's extract is of a
   * file that is one: Tika's type detection and its look-up among all parsers cost more than
   * reading a short PDF's text (docs/pdf-text.md).
   */
  private final PDFParser pdfParser = new PDFParser();

  /**
   * PDFBox starts a paragraph where the gap between two lines exceeds this many glyph heights (its
   * default 2.5). Single-spaced text is 1.6–2.7 of PDFBox's glyph heights apart (half the font's
   * box or its cap height: 0.45–0.7 em), so 2.5 made every line of a 12 pt Times document 13.8 pt
   * apart a paragraph (2.53): its text double-spaced. A blank line's gap is 3.3 or more;
   * docs/pdf-text.md.
   */
  static final float PARAGRAPH_GAP_IN_GLYPH_HEIGHTS = 3.0f;

  /**
   * @param maxTextBytes largest text written, in UTF-8 bytes (env {@code MAX_TEXT_BYTES})
   */
  public TextTransformer(long maxTextBytes) {
    if (maxTextBytes <= 0) {
      throw new IllegalArgumentException("max text bytes must be positive: " + maxTextBytes);
    }
    this.maxTextBytes = maxTextBytes;
    pdfParser.setDropThreshold(PARAGRAPH_GAP_IN_GLYPH_HEIGHTS);
  }

  /** Whether Tika's detecting parser has been built yet (a cold start's concern). */
  boolean detectingParserBuilt() {
    return parser.isBuilt();
  }

  /** Runs {@link TextProbe} in {@code scratch}. */
  @Override
  public void probe(Path scratch) throws IOException {
    TextProbe.run(this, scratch);
  }

  /**
   * {@inheritDoc}
   *
   * @throws PermanentStepFailure {@code password-required}, {@code corrupt-input}, {@code
   *     unsupported-input}, {@code input-too-large} (a zip-packaged document that unpacks beyond
   *     {@link ZipBudget}), {@code output-too-large}
   */
  @Override
  public void transform(DeclaredStep step, Path input, Path output) throws IOException {
    // the type as sent (its charset parameter, if any, is a hint Tika takes)
    String mediaType = step.message().inputMediaType();
    ZipBudget.check(input, documentName(mediaType));
    // each of the declaration's conversions applies one operation
    switch (step.only().operation()) {
      case EXTRACT -> extract(mediaType, input, output);
      case METADATA -> {
        TextPresence text = new TextPresence();
        Metadata metadata = parse(mediaType, input, new BodyContentHandler(text));
        TextMetadata.write(metadata, text.found(), output);
      }
      default -> throw new IllegalStateException("undeclared operation " + step.only());
    }
  }

  private void extract(String mediaType, Path input, Path output) throws IOException {
    Metadata metadata = extract(input, mediaType, output);
    String type = metadata.get(Metadata.CONTENT_TYPE);
    if (type != null
        && type.startsWith(MediaTypes.TEXT_PLAIN)
        && LegacyText.hasReplacementCharacters(output)
        && !LegacyText.isUtf8(input)) {
      // The detectors picked a charset that cannot read the text (short inputs give them too
      // little to go on, and none of them knows EBCDIC): decode it with one that can.
      Charset charset = LegacyText.charsetFor(input, metadata.get(Metadata.CONTENT_ENCODING));
      try (Writer writer = utf8(output)) {
        LegacyText.decode(input, charset, cap(writer));
      } catch (SAXException e) {
        if (TextCapHandler.limitReached(e)) {
          throw tooLarge(e);
        }
        throw new IOException("cannot write the decoded text", e);
      }
    }
  }

  private Metadata extract(Path input, String mediaType, Path output) throws IOException {
    boolean pdf = isPdf(mediaType, input);
    try (Writer writer = pdf ? TrimmedWriter.lines(utf8Stream(output)) : utf8(output)) {
      TextCapHandler cap = cap(writer);
      Metadata metadata =
          pdf
              ? parseWith(pdfParser, mediaType, input, new BodyContentHandler(cap))
              : parse(mediaType, input, new BodyContentHandler(cap));
      if (cap.reached()) {
        // a parser that caught the limit and finished: the text is cut short, never a result
        throw tooLarge(null);
      }
      return metadata;
    }
  }

  private static Writer utf8(Path output) throws IOException {
    return new TrimmedWriter(utf8Stream(output));
  }

  private static Writer utf8Stream(Path output) throws IOException {
    return new OutputStreamWriter(Files.newOutputStream(output), StandardCharsets.UTF_8);
  }

  /** Whether a document's body has any character that is not white space. */
  private static final class TextPresence extends DefaultHandler {
    private boolean found;

    boolean found() {
      return found;
    }

    @Override
    public void characters(char[] ch, int start, int length) {
      for (int i = start; i < start + length && !found; i++) {
        found = !Character.isWhitespace(ch[i]);
      }
    }
  }

  private TextCapHandler cap(Writer writer) {
    return new TextCapHandler(new ToTextContentHandler(writer), maxTextBytes);
  }

  /** Parses {@code input} into {@code handler} and returns what Tika learnt about it. */
  private Metadata parse(String mediaType, Path input, ContentHandler handler) throws IOException {
    if (StrictOpenXml.isStrict(input)) {
      Path transitional = input.resolveSibling(input.getFileName() + ".transitional");
      try {
        StrictOpenXml.toTransitional(input, transitional);
        return parse(mediaType, transitional, handler);
      } finally {
        Files.deleteIfExists(transitional);
      }
    }
    Metadata metadata = parseWith(parser, mediaType, input, handler);
    String[] parsedBy = metadata.getValues(TikaCoreProperties.TIKA_PARSED_BY);
    if (parsedBy.length == 0 || EMPTY_PARSER.equals(parsedBy[parsedBy.length - 1])) {
      throw new PermanentStepFailure(
          StepErrorTypes.UNSUPPORTED_INPUT,
          "no text can be extracted from " + metadata.get(Metadata.CONTENT_TYPE));
    }
    return metadata;
  }

  /**
   * Parses {@code input} with {@code chosen} into {@code handler}; an embedded document goes to
   * {@link #parser} (without it in the context, Tika builds a new one, its whole configuration read
   * again, for every document that can hold others, such as every PDF).
   */
  private Metadata parseWith(Parser chosen, String mediaType, Path input, ContentHandler handler)
      throws IOException {
    Metadata metadata = new Metadata();
    if (mediaType != null && !mediaType.isBlank()) {
      metadata.set(Metadata.CONTENT_TYPE, mediaType);
    }
    try (TikaInputStream in = TikaInputStream.get(input)) {
      ParseContext context = new ParseContext();
      context.set(EncodingDetector.class, new CheckedEncodingDetector());
      context.set(Parser.class, parser);
      if (chosen == parser) {
        chosen.parse(in, handler, metadata, context);
      } else {
        // what AutoDetectParser does around the parser it picks: bound the output's nesting
        // (a PDF outline 30,000 deep otherwise recurses until the stack overflows) and its ratio
        // to the input
        SecureContentHandler secure = new SecureContentHandler(handler, in);
        try {
          chosen.parse(in, secure, metadata, context);
        } catch (SAXException e) {
          secure.throwIfCauseOf(e);
          throw e;
        }
      }
    } catch (ZeroByteFileException e) {
      throw new PermanentStepFailure(StepErrorTypes.CORRUPT_INPUT, "the input is empty", e);
    } catch (TikaException | SAXException | IOException | RuntimeException e) {
      throw classify(e, metadata.get(Metadata.CONTENT_TYPE));
    }
    if ("0".equals(metadata.get(PagedText.N_PAGES))) {
      throw new PermanentStepFailure(
          StepErrorTypes.CORRUPT_INPUT, "the document has no pages (a broken page tree)");
    }
    return metadata;
  }

  /**
   * Whether {@code input} is sent as a PDF and is one: {@code %PDF-} within its first {@value
   * #PDF_HEADER_WINDOW} bytes, where PDFBox looks for it (a file sent under the wrong type goes
   * through Tika's detection instead).
   */
  private static boolean isPdf(String mediaType, Path input) throws IOException {
    if (mediaType == null
        || !MediaTypes.APPLICATION_PDF.equalsIgnoreCase(mediaType.split(";", 2)[0].trim())) {
      return false;
    }
    byte[] head;
    try (InputStream in = Files.newInputStream(input)) {
      head = in.readNBytes(PDF_HEADER_WINDOW);
    }
    return new String(head, StandardCharsets.ISO_8859_1).contains("%PDF-");
  }

  /**
   * Maps a parse failure to its permanent error, looking through Tika's wrapping. The detail is a
   * sentence about the document; Tika's message (which names its parser classes) stays with the
   * cause, for the logs.
   */
  private PermanentStepFailure classify(Exception e, String mediaType) {
    for (Throwable cause = e; cause != null; cause = cause.getCause()) {
      if (TextCapHandler.limitReached(cause)) {
        return tooLarge(e);
      }
      if (cause instanceof EncryptedDocumentException
          || cause instanceof org.apache.poi.EncryptedDocumentException) {
        return new PermanentStepFailure(
            StepErrorTypes.PASSWORD_REQUIRED, "the document is password-protected", e);
      }
    }
    return new PermanentStepFailure(
        StepErrorTypes.CORRUPT_INPUT,
        "the "
            + documentName(mediaType)
            + " cannot be read: it is damaged, cut short or not the format it claims to be",
        e);
  }

  /** What a user calls a document of {@code mediaType}: "PDF", "Word document" …. */
  static String documentName(String mediaType) {
    String essence = mediaType == null ? "" : mediaType.split(";")[0].trim();
    return switch (essence) {
      case MediaTypes.APPLICATION_PDF -> "PDF";
      case "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
          "application/msword" ->
          "Word document";
      case "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
          "application/vnd.ms-excel" ->
          "spreadsheet";
      case "application/vnd.openxmlformats-officedocument.presentationml.presentation",
          "application/vnd.ms-powerpoint" ->
          "presentation";
      case "application/vnd.oasis.opendocument.text" -> "OpenDocument text";
      case "application/rtf" -> "RTF document";
      case "application/epub+zip" -> "EPUB book";
      case MediaTypes.TEXT_HTML -> "HTML page";
      default -> "document";
    };
  }

  private PermanentStepFailure tooLarge(Exception e) {
    return new PermanentStepFailure(
        StepErrorTypes.OUTPUT_TOO_LARGE,
        "the text is longer than the limit of " + maxTextBytes + " bytes",
        e);
  }
}
