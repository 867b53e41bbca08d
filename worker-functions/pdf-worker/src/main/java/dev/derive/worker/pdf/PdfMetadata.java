package dev.derive.worker.pdf;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.file.Path;
import java.time.format.DateTimeFormatter;
import java.util.Calendar;
import java.util.GregorianCalendar;
import org.apache.pdfbox.pdmodel.PDDocument;
import org.apache.pdfbox.pdmodel.PDDocumentInformation;
import org.apache.pdfbox.pdmodel.PDPage;
import org.apache.pdfbox.pdmodel.common.PDRectangle;

/**
 * The {@code metadata} operation's JSON, e.g. {@code {"pageCount":2,"encrypted":false,
 * "version":1.7,"title":"…","author":null,…,"created":"2024-01-02T03:04:05Z","modified":null,
 * "pages":[{"number":1,"width":595.0,"height":842.0,"rotation":0}]}}. Page sizes are the crop box
 * in points (1/72 inch) before rotation; dates are ISO-8601 with their offset; absent document
 * information entries are {@code null}.
 */
public final class PdfMetadata {
  private static final ObjectMapper JSON = new ObjectMapper();

  private PdfMetadata() {}

  /** Writes the metadata of {@code document} to {@code output} as UTF-8 JSON. */
  public static void write(PDDocument document, Path output) throws IOException {
    JSON.writeValue(output.toFile(), describe(document));
  }

  /** The metadata of {@code document} as a JSON tree. */
  public static ObjectNode describe(PDDocument document) {
    ObjectNode root = JSON.createObjectNode();
    root.put("pageCount", document.getNumberOfPages());
    root.put("encrypted", document.isEncrypted());
    root.put("version", document.getVersion());
    PDDocumentInformation info = document.getDocumentInformation();
    root.put("title", info.getTitle());
    root.put("author", info.getAuthor());
    root.put("subject", info.getSubject());
    root.put("keywords", info.getKeywords());
    root.put("creator", info.getCreator());
    root.put("producer", info.getProducer());
    root.put("created", date(safeDate(info, true)));
    root.put("modified", date(safeDate(info, false)));
    ArrayNode pages = root.putArray("pages");
    int number = 0;
    for (PDPage page : document.getPages()) {
      number++;
      PDRectangle box = page.getCropBox();
      pages
          .addObject()
          .put("number", number)
          .put("width", box.getWidth())
          .put("height", box.getHeight())
          .put("rotation", page.getRotation());
    }
    return root;
  }

  /** A date entry, or {@code null} when it is absent or not a valid PDF date. */
  private static Calendar safeDate(PDDocumentInformation info, boolean created) {
    try {
      return created ? info.getCreationDate() : info.getModificationDate();
    } catch (RuntimeException e) {
      return null;
    }
  }

  private static String date(Calendar calendar) {
    if (calendar instanceof GregorianCalendar gregorian) {
      return DateTimeFormatter.ISO_OFFSET_DATE_TIME.format(gregorian.toZonedDateTime());
    }
    return calendar == null ? null : calendar.toInstant().toString();
  }
}
