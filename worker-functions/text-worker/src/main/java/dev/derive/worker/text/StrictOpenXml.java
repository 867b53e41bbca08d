package dev.derive.worker.text;

import dev.derive.protocol.message.StepErrorTypes;
import dev.derive.worker.runtime.PermanentStepFailure;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Enumeration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.zip.ZipEntry;
import java.util.zip.ZipException;
import java.util.zip.ZipFile;
import java.util.zip.ZipOutputStream;

/**
 * Reads Strict Open XML (ISO/IEC 29500-1 Strict; Excel's "Strict Open XML Spreadsheet", Word's
 * "Strict Open XML Document") as Transitional. The two differ, for text, in their namespace and
 * relationship-type URIs only (ECMA-376 Part 1, annex A); POI's readers that Tika uses refuse the
 * Strict ones ("Strict OOXML isn't currently supported"), so a Strict package is rewritten part by
 * part with the Transitional URIs before it is parsed. Other packages are left as they are.
 */
final class StrictOpenXml {
  /** The Strict main document relationship, in {@code _rels/.rels} of every Strict package. */
  static final String STRICT_OFFICE_DOCUMENT =
      "http://purl.oclc.org/ooxml/officeDocument/relationships/officeDocument";

  /** Largest part rewritten, inflated: as POI's own bound on a part's size (ZipSecureFile). */
  static final int MAX_PART_BYTES = 128 * 1024 * 1024;

  /** Strict URI → Transitional URI; a longer URI comes before any URI it starts with. */
  private static final Map<String, String> URIS = new LinkedHashMap<>();

  static {
    String strict = "http://purl.oclc.org/ooxml/";
    String transitional = "http://schemas.openxmlformats.org/";
    URIS.put(
        strict + "officeDocument/relationships",
        transitional + "officeDocument/2006/relationships");
    URIS.put(
        strict + "officeDocument/extendedProperties",
        transitional + "officeDocument/2006/extended-properties");
    URIS.put(
        strict + "officeDocument/customProperties",
        transitional + "officeDocument/2006/custom-properties");
    URIS.put(
        strict + "officeDocument/docPropsVTypes",
        transitional + "officeDocument/2006/docPropsVTypes");
    URIS.put(
        strict + "officeDocument/sharedTypes", transitional + "officeDocument/2006/sharedTypes");
    URIS.put(strict + "officeDocument/math", transitional + "officeDocument/2006/math");
    URIS.put(strict + "spreadsheetml/main", transitional + "spreadsheetml/2006/main");
    URIS.put(strict + "wordprocessingml/main", transitional + "wordprocessingml/2006/main");
    URIS.put(strict + "presentationml/main", transitional + "presentationml/2006/main");
    URIS.put(strict + "drawingml/main", transitional + "drawingml/2006/main");
    URIS.put(strict + "drawingml/chart", transitional + "drawingml/2006/chart");
    URIS.put(strict + "drawingml/picture", transitional + "drawingml/2006/picture");
    URIS.put(
        strict + "drawingml/spreadsheetDrawing",
        transitional + "drawingml/2006/spreadsheetDrawing");
    URIS.put(
        strict + "drawingml/wordprocessingDrawing",
        transitional + "drawingml/2006/wordprocessingDrawing");
  }

  private StrictOpenXml() {}

  /**
   * Whether {@code input} is a Strict Open XML package (a ZIP whose main relationship is Strict).
   */
  static boolean isStrict(Path input) throws IOException {
    try (ZipFile zip = new ZipFile(input.toFile())) {
      ZipEntry rels = zip.getEntry("_rels/.rels");
      if (rels == null) {
        return false;
      }
      try (InputStream in = zip.getInputStream(rels)) {
        return new String(in.readNBytes(64 * 1024), StandardCharsets.UTF_8)
            .contains(STRICT_OFFICE_DOCUMENT);
      }
    } catch (ZipException e) {
      return false; // not a ZIP: the parser says what it is
    }
  }

  /**
   * Writes {@code strict} to {@code transitional} with every XML part's Strict URIs replaced.
   *
   * @throws PermanentStepFailure {@code input-too-large} for a part over {@link #MAX_PART_BYTES}
   */
  static void toTransitional(Path strict, Path transitional) throws IOException {
    try (ZipFile zip = new ZipFile(strict.toFile());
        ZipOutputStream out = new ZipOutputStream(Files.newOutputStream(transitional))) {
      for (Enumeration<? extends ZipEntry> entries = zip.entries(); entries.hasMoreElements(); ) {
        ZipEntry entry = entries.nextElement();
        out.putNextEntry(new ZipEntry(entry.getName()));
        try (InputStream in = zip.getInputStream(entry)) {
          if (entry.getName().endsWith(".xml") || entry.getName().endsWith(".rels")) {
            out.write(transitional(in, entry.getName()));
          } else {
            in.transferTo(out);
          }
        }
        out.closeEntry();
      }
    }
  }

  private static byte[] transitional(InputStream part, String name) throws IOException {
    byte[] bytes = part.readNBytes(MAX_PART_BYTES + 1);
    if (bytes.length > MAX_PART_BYTES) {
      throw new PermanentStepFailure(
          StepErrorTypes.INPUT_TOO_LARGE,
          "the document's part " + name + " unpacks to more than " + MAX_PART_BYTES + " bytes");
    }
    String xml = new String(bytes, StandardCharsets.UTF_8);
    for (Map.Entry<String, String> uri : URIS.entrySet()) {
      xml = xml.replace(uri.getKey(), uri.getValue());
    }
    return xml.replace(" conformance=\"strict\"", "").getBytes(StandardCharsets.UTF_8);
  }
}
