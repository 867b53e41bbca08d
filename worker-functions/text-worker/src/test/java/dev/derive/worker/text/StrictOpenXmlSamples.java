package dev.derive.worker.text;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.zip.ZipEntry;
import java.util.zip.ZipInputStream;
import java.util.zip.ZipOutputStream;

/**
 * Turns a transitional OOXML package into its Strict form (ISO/IEC 29500-1 Strict, as Excel's
 * "Strict Open XML Spreadsheet" saves it): the same parts with the Strict namespaces and
 * relationship types, and the workbook marked {@code conformance="strict"}.
 */
final class StrictOpenXmlSamples {
  static final String SPREADSHEET =
      "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet";

  /** Transitional namespace → Strict namespace (ECMA-376 Part 1, 5th edition, annex A). */
  private static final Map<String, String> NAMESPACES =
      Map.of(
          "http://schemas.openxmlformats.org/spreadsheetml/2006/main",
          "http://purl.oclc.org/ooxml/spreadsheetml/main",
          "http://schemas.openxmlformats.org/officeDocument/2006/relationships",
          "http://purl.oclc.org/ooxml/officeDocument/relationships",
          "http://schemas.openxmlformats.org/officeDocument/2006/extended-properties",
          "http://purl.oclc.org/ooxml/officeDocument/extendedProperties",
          "http://schemas.openxmlformats.org/drawingml/2006/main",
          "http://purl.oclc.org/ooxml/drawingml/main");

  private StrictOpenXmlSamples() {}

  static byte[] fromTransitional(byte[] transitional) throws IOException {
    ByteArrayOutputStream strict = new ByteArrayOutputStream();
    try (ZipInputStream in = new ZipInputStream(new ByteArrayInputStream(transitional));
        ZipOutputStream out = new ZipOutputStream(strict)) {
      for (ZipEntry entry = in.getNextEntry(); entry != null; entry = in.getNextEntry()) {
        String part = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        for (Map.Entry<String, String> namespace : NAMESPACES.entrySet()) {
          part = part.replace(namespace.getKey(), namespace.getValue());
        }
        if (entry.getName().equals("xl/workbook.xml")) {
          part = part.replaceFirst("<workbook ", "<workbook conformance=\"strict\" ");
        }
        out.putNextEntry(new ZipEntry(entry.getName()));
        out.write(part.getBytes(StandardCharsets.UTF_8));
        out.closeEntry();
      }
    }
    return strict.toByteArray();
  }
}
