package dev.derive.worker.markup;

import com.openhtmltopdf.bidi.support.ICUBidiReorderer;
import com.openhtmltopdf.bidi.support.ICUBidiSplitter;
import com.openhtmltopdf.bidi.support.ICUBreakers;
import com.openhtmltopdf.extend.FSCacheEx;
import com.openhtmltopdf.extend.FSCacheValue;
import com.openhtmltopdf.extend.impl.FSDefaultCacheStore;
import com.openhtmltopdf.outputdevice.helper.BaseRendererBuilder;
import com.openhtmltopdf.pdfboxout.PdfRendererBuilder;
import dev.derive.protocol.io.ByteCaps;
import dev.derive.protocol.io.ByteCaps.ByteCapExceededException;
import dev.derive.protocol.message.StepErrorTypes;
import dev.derive.worker.runtime.PermanentStepFailure;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import org.jsoup.helper.W3CDom;
import org.jsoup.nodes.Document;

/**
 * Lays out a cleaned HTML document with openhtmltopdf (PDFBox output) on pages of the requested
 * size, with the {@link BundledFonts}. Text goes through ICU4J (openhtmltopdf's RTL support): the
 * Unicode bidirectional algorithm orders right-to-left runs (Hebrew, Arabic) within each line,
 * Arabic letters take their joined forms, and lines break where ICU's rules allow (Thai has no
 * spaces between words). The renderer resolves only {@code data:} URIs: every other URI resolves to
 * nothing, so no file, class-path or network resource is ever read.
 */
final class PdfWriter {
  static {
    JulXRLogger.install(); // openhtmltopdf's lines as the function's JSON log, its chatter at debug
  }

  /**
   * The bundled fonts' metrics, by family, weight and style, kept for the process: without it every
   * document parsed each font it looked at anew (~14 MB of the function's memory per render, bench
   * row {@code rss_markup_worker}), and with it a font not drawn in a document is not even loaded
   * for it. The fonts never change, so neither do their metrics; thread-safe. Measured (2026-12-06,
   * {@code ./derive bench --only e2e_3step,rss}, ~166 renders): the function's peak 1,509 MB
   * without, 310 MB with.
   */
  private static final FSCacheEx<String, FSCacheValue> FONT_METRICS = new FSDefaultCacheStore();

  private final long maxOutputBytes;

  PdfWriter(long maxOutputBytes) {
    this.maxOutputBytes = maxOutputBytes;
  }

  void write(Document html, PageSize pageSize, Path output) throws IOException {
    org.w3c.dom.Document dom = new W3CDom().fromJsoup(html);
    try (OutputStream out = ByteCaps.capped(Files.newOutputStream(output), maxOutputBytes)) {
      PdfRendererBuilder builder = new PdfRendererBuilder();
      builder.useFastMode();
      builder.withW3cDocument(dom, SafeHtml.BASE_URI);
      builder.useDefaultPageSize(
          pageSize.widthMm(), pageSize.heightMm(), BaseRendererBuilder.PageSizeUnits.MM);
      builder.useUriResolver(PdfWriter::resolveDataOnly);
      builder.useUnicodeBidiSplitter(new ICUBidiSplitter.ICUBidiSplitterFactory());
      builder.useUnicodeBidiReorderer(new ICUBidiReorderer());
      builder.useUnicodeLineBreaker(new ICUBreakers.ICULineBreaker(Locale.ROOT));
      BundledFonts.register(builder);
      builder.useCacheStore(PdfRendererBuilder.CacheStore.PDF_FONT_METRICS, FONT_METRICS);
      builder.toStream(out);
      try {
        builder.run();
      } catch (IOException | RuntimeException e) {
        if (ByteCapExceededException.in(e)) {
          throw tooLarge(e);
        }
        // the layout engine's message stays with the cause, for the logs
        throw new PermanentStepFailure(
            StepErrorTypes.CORRUPT_INPUT, "the document's markup cannot be laid out as pages", e);
      }
    }
  }

  /** Keeps {@code data:} URIs; any other URI resolves to nothing and is not loaded. */
  static String resolveDataOnly(String baseUri, String uri) {
    return uri != null && uri.trim().toLowerCase(Locale.ROOT).startsWith("data:") ? uri : null;
  }

  private PermanentStepFailure tooLarge(Exception e) {
    return new PermanentStepFailure(
        StepErrorTypes.OUTPUT_TOO_LARGE,
        "the PDF is larger than the limit of " + maxOutputBytes + " bytes",
        e);
  }
}
