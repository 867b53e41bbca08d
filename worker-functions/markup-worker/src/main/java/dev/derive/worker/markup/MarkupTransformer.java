package dev.derive.worker.markup;

import dev.derive.protocol.MediaTypes;
import dev.derive.protocol.message.StepErrorTypes;
import dev.derive.worker.runtime.DeclaredStep;
import dev.derive.worker.runtime.PermanentStepFailure;
import dev.derive.worker.runtime.StepTransformer;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.Charset;
import java.nio.charset.IllegalCharsetNameException;
import java.nio.charset.UnsupportedCharsetException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Optional;
import org.jsoup.Jsoup;
import org.jsoup.nodes.Document;

/**
 * The markup capability: Markdown (CommonMark with GFM tables and strikethrough) and HTML to PDF
 * with openhtmltopdf, under a bundled default stylesheet and with bundled fonts for every script
 * {@link BundledFonts} lists ({@link PdfWriter}).
 *
 * <p>Real-world HTML is parsed by jsoup, then {@link SafeHtml} removes scripts, frames, embedded
 * objects and links to anything but {@code data:} URIs; the renderer itself resolves no URI but
 * {@code data:} ones, so nothing is ever fetched from the network or the file system.
 */
public final class MarkupTransformer implements StepTransformer {
  /** Operation rendering the document to PDF. */
  public static final String RENDER = "render";

  /** Default of {@code MAX_OUTPUT_BYTES}: 100 MiB. */
  public static final long DEFAULT_MAX_OUTPUT_BYTES = 100L * 1024 * 1024;

  private final long maxOutputBytes;

  /**
   * @param maxOutputBytes largest PDF written, in bytes (env {@code MAX_OUTPUT_BYTES})
   */
  public MarkupTransformer(long maxOutputBytes) {
    if (maxOutputBytes <= 0) {
      throw new IllegalArgumentException("max output bytes must be positive: " + maxOutputBytes);
    }
    this.maxOutputBytes = maxOutputBytes;
  }

  /** Runs {@link MarkupProbe} in {@code scratch}. */
  @Override
  public void probe(Path scratch) throws IOException {
    MarkupProbe.run(this, scratch);
  }

  /**
   * {@inheritDoc}
   *
   * @throws PermanentStepFailure {@code input-too-large} (elements nested deeper than {@link
   *     NestingLimit#MAX_DEPTH}), {@code corrupt-input} (the renderer failed), {@code
   *     output-too-large}
   */
  @Override
  public void transform(DeclaredStep step, Path input, Path output) throws IOException {
    PageSize pageSize = PageSize.named(step.only().string("pageSize"));
    // the type as sent: its charset parameter, if any, decodes the text
    Document html = SafeHtml.clean(parse(step.message().inputMediaType(), input));
    NestingLimit.check(html);
    new PdfWriter(maxOutputBytes).write(html, pageSize, output);
  }

  /**
   * Reads {@code input} as Markdown or HTML, as its media type says, in the charset {@link
   * SourceCharset} chooses.
   */
  static Document parse(String mediaType, Path input) throws IOException {
    String essence = essence(mediaType, input);
    Charset label = charset(mediaType);
    byte[] bytes = Files.readAllBytes(input);
    Optional<Charset> evident = SourceCharset.evident(bytes);
    return switch (essence) {
      case MediaTypes.TEXT_MARKDOWN ->
          MarkdownToHtml.convert(
              SourceCharset.decode(
                  bytes,
                  evident
                      .or(
                          () ->
                              Optional.ofNullable(label).filter(c -> SourceCharset.reads(c, bytes)))
                      .orElseGet(() -> SourceCharset.detected(bytes))));
      case MediaTypes.TEXT_HTML -> {
        if (evident.isPresent() || SourceCharset.reads(label, bytes)) {
          yield html(bytes, evident.orElse(label));
        }
        // jsoup reads a <meta charset> (UTF-8 without one): believed when the bytes decode in it
        Document labelled = Jsoup.parse(new ByteArrayInputStream(bytes), null, SafeHtml.BASE_URI);
        yield SourceCharset.reads(labelled.charset(), bytes)
            ? labelled
            : html(bytes, SourceCharset.detected(bytes));
      }
      default ->
          throw new PermanentStepFailure(
              StepErrorTypes.UNSUPPORTED_INPUT,
              "the markup capability reads Markdown and HTML, not " + mediaType);
    };
  }

  /** {@code bytes} parsed as HTML in {@code charset}, whatever a {@code <meta>} says. */
  private static Document html(byte[] bytes, Charset charset) {
    return Jsoup.parse(SourceCharset.decode(bytes, charset), SafeHtml.BASE_URI);
  }

  /** The essence of {@code mediaType}; without one, HTML if the text starts with '<'. */
  private static String essence(String mediaType, Path input) throws IOException {
    if (mediaType != null && !mediaType.isBlank()) {
      try {
        return MediaTypes.essence(mediaType);
      } catch (IllegalArgumentException e) {
        throw new PermanentStepFailure(StepErrorTypes.INVALID_STEP, e.getMessage(), e);
      }
    }
    try (InputStream in = Files.newInputStream(input)) {
      int c;
      while ((c = in.read()) >= 0 && Character.isWhitespace(c)) {
        // skip leading white space
      }
      return c == '<' ? MediaTypes.TEXT_HTML : MediaTypes.TEXT_MARKDOWN;
    }
  }

  /** The {@code charset} parameter of {@code mediaType}, or {@code null}. */
  private static Charset charset(String mediaType) {
    if (mediaType == null) {
      return null;
    }
    for (String parameter : mediaType.split(";")) {
      String[] pair = parameter.trim().split("=", 2);
      if (pair.length == 2 && pair[0].trim().toLowerCase(Locale.ROOT).equals("charset")) {
        try {
          return Charset.forName(pair[1].trim().replace("\"", ""));
        } catch (IllegalCharsetNameException | UnsupportedCharsetException e) {
          return null;
        }
      }
    }
    return null;
  }
}
