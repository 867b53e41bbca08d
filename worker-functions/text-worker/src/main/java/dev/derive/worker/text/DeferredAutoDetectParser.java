package dev.derive.worker.text;

import java.io.IOException;
import java.io.InputStream;
import java.util.Set;
import org.apache.tika.exception.TikaException;
import org.apache.tika.metadata.Metadata;
import org.apache.tika.mime.MediaType;
import org.apache.tika.parser.AutoDetectParser;
import org.apache.tika.parser.ParseContext;
import org.apache.tika.parser.Parser;
import org.apache.tika.parser.ParserDecorator;
import org.xml.sax.ContentHandler;
import org.xml.sax.SAXException;

/**
 * Tika's {@link AutoDetectParser}, built the first time a document needs it instead of when the
 * worker starts: building it finds and loads every parser of the standard package through the
 * service loader (over a thousand classes, most of the text worker's Init; docs/cold-start.md). The
 * first document builds it (a PDF's too: Tika's PDF parser asks the context's parser which types it
 * reads, to decide on the PDF's XMP and XFA); SnapStart priming builds it before the snapshot (the
 * probe extracts an HTML page).
 *
 * <p>A {@link ParserDecorator}, so Tika's searches through the context's parser ({@code
 * EmbeddedDocumentUtil.tryToFindExistingLeafParser}) reach the parsers inside it, as they did when
 * the context held the {@code AutoDetectParser} itself. Safe for concurrent use.
 */
final class DeferredAutoDetectParser extends ParserDecorator {
  private final Runnable beforeBuilding;
  private volatile AutoDetectParser built;

  /**
   * @param beforeBuilding run once, just before the parser is built (settings of the libraries only
   *     its parsers use)
   */
  DeferredAutoDetectParser(Runnable beforeBuilding) {
    super(null);
    this.beforeBuilding = beforeBuilding;
  }

  /** The parser, built on the first call. */
  @Override
  public Parser getWrappedParser() {
    AutoDetectParser parser = built;
    if (parser == null) {
      synchronized (this) {
        parser = built;
        if (parser == null) {
          beforeBuilding.run();
          parser = new AutoDetectParser();
          built = parser;
        }
      }
    }
    return parser;
  }

  /** Whether the parser has been built yet. */
  boolean isBuilt() {
    return built != null;
  }

  @Override
  public Set<MediaType> getSupportedTypes(ParseContext context) {
    return getWrappedParser().getSupportedTypes(context);
  }

  @Override
  public void parse(
      InputStream stream, ContentHandler handler, Metadata metadata, ParseContext context)
      throws IOException, SAXException, TikaException {
    getWrappedParser().parse(stream, handler, metadata, context);
  }
}
