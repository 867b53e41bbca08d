package dev.derive.worker.office;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.zip.CRC32;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;

/**
 * Office documents the tests write themselves: minimal DOCX and ODT packages around a body, with
 * the parts a hostile document adds (a picture linked to a URL, a linked section, a Basic macro run
 * on load), a long DOCX for page limits, and a package that inflates to a given size.
 */
final class Documents {
  private static final String DOCX_TYPES =
      "<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"yes\"?><Types"
          + " xmlns=\"http://schemas.openxmlformats.org/package/2006/content-types\"><Default"
          + " Extension=\"rels\""
          + " ContentType=\"application/vnd.openxmlformats-package.relationships+xml\"/><Default"
          + " Extension=\"xml\" ContentType=\"application/xml\"/><Override"
          + " PartName=\"/word/document.xml\""
          + " ContentType=\"application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml\"/></Types>";
  private static final String DOCX_RELS =
      "<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"yes\"?><Relationships"
          + " xmlns=\"http://schemas.openxmlformats.org/package/2006/relationships\"><Relationship"
          + " Id=\"rId1\""
          + " Type=\"http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument\""
          + " Target=\"word/document.xml\"/></Relationships>";
  private static final String DOCUMENT_START =
      "<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"yes\"?><w:document"
          + " xmlns:w=\"http://schemas.openxmlformats.org/wordprocessingml/2006/main\""
          + " xmlns:r=\"http://schemas.openxmlformats.org/officeDocument/2006/relationships\""
          + " xmlns:wp=\"http://schemas.openxmlformats.org/drawingml/2006/wordprocessingDrawing\""
          + " xmlns:a=\"http://schemas.openxmlformats.org/drawingml/2006/main\""
          + " xmlns:pic=\"http://schemas.openxmlformats.org/drawingml/2006/picture\"><w:body>";
  private static final String DOCUMENT_END = "<w:sectPr/></w:body></w:document>";

  private Documents() {}

  /** A DOCX of {@code body} (WordprocessingML paragraphs) with {@code relationships} of its own. */
  static byte[] docx(String body, String relationships) throws IOException {
    Map<String, byte[]> parts = new LinkedHashMap<>();
    parts.put("[Content_Types].xml", utf8(DOCX_TYPES));
    parts.put("_rels/.rels", utf8(DOCX_RELS));
    parts.put("word/document.xml", utf8(DOCUMENT_START + body + DOCUMENT_END));
    parts.put(
        "word/_rels/document.xml.rels",
        utf8(
            "<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"yes\"?><Relationships"
                + " xmlns=\"http://schemas.openxmlformats.org/package/2006/relationships\">"
                + relationships
                + "</Relationships>"));
    return zip(parts);
  }

  /** A paragraph of {@code text}. */
  static String paragraph(String text) {
    return "<w:p><w:r><w:t>" + text + "</w:t></w:r></w:p>";
  }

  /** A DOCX of {@code pages} pages, each a paragraph naming its page, split by page breaks. */
  static byte[] longDocx(int pages) throws IOException {
    StringBuilder body = new StringBuilder();
    for (int page = 1; page <= pages; page++) {
      body.append(paragraph("This is page " + page + " of a long document."));
      if (page < pages) {
        body.append("<w:p><w:r><w:br w:type=\"page\"/></w:r></w:p>");
      }
    }
    return docx(body.toString(), "");
  }

  /**
   * A DOCX with a 1-inch picture whose image relationship points outside the package ({@code
   * TargetMode="External"}) at {@code target}, referenced as a link ({@code r:link}) or as if
   * embedded ({@code r:embed}).
   */
  static byte[] docxWithExternalPicture(String target, String attribute) throws IOException {
    String picture =
        "<w:p><w:r><w:t>A picture from elsewhere:</w:t></w:r><w:r><w:drawing><wp:inline>"
            + "<wp:extent cx=\"914400\" cy=\"914400\"/><wp:docPr id=\"1\" name=\"p\"/>"
            + "<a:graphic><a:graphicData"
            + " uri=\"http://schemas.openxmlformats.org/drawingml/2006/picture\"><pic:pic>"
            + "<pic:nvPicPr><pic:cNvPr id=\"1\" name=\"p\"/><pic:cNvPicPr/></pic:nvPicPr>"
            + "<pic:blipFill><a:blip "
            + attribute
            + "=\"rId9\"/><a:stretch><a:fillRect/></a:stretch></pic:blipFill><pic:spPr><a:xfrm>"
            + "<a:off x=\"0\" y=\"0\"/><a:ext cx=\"914400\" cy=\"914400\"/></a:xfrm><a:prstGeom"
            + " prst=\"rect\"/></pic:spPr></pic:pic></a:graphicData></a:graphic></wp:inline>"
            + "</w:drawing></w:r></w:p>";
    return docx(
        picture,
        "<Relationship Id=\"rId9\""
            + " Type=\"http://schemas.openxmlformats.org/officeDocument/2006/relationships/image\""
            + " Target=\""
            + target
            + "\" TargetMode=\"External\"/>");
  }

  /** An ODT of {@code body} (ODF text elements). */
  static byte[] odt(String body) throws IOException {
    Map<String, byte[]> parts = new LinkedHashMap<>();
    parts.put("mimetype", utf8("application/vnd.oasis.opendocument.text"));
    parts.put(
        "META-INF/manifest.xml",
        utf8(
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?><manifest:manifest"
                + " xmlns:manifest=\"urn:oasis:names:tc:opendocument:xmlns:manifest:1.0\""
                + " manifest:version=\"1.2\"><manifest:file-entry manifest:full-path=\"/\""
                + " manifest:media-type=\"application/vnd.oasis.opendocument.text\"/>"
                + "<manifest:file-entry manifest:full-path=\"content.xml\""
                + " manifest:media-type=\"text/xml\"/></manifest:manifest>"));
    parts.put(
        "content.xml",
        utf8(
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?><office:document-content"
                + " xmlns:office=\"urn:oasis:names:tc:opendocument:xmlns:office:1.0\""
                + " xmlns:text=\"urn:oasis:names:tc:opendocument:xmlns:text:1.0\""
                + " xmlns:draw=\"urn:oasis:names:tc:opendocument:xmlns:drawing:1.0\""
                + " xmlns:svg=\"urn:oasis:names:tc:opendocument:xmlns:svg-compatible:1.0\""
                + " xmlns:xlink=\"http://www.w3.org/1999/xlink\" office:version=\"1.2\">"
                + "<office:body><office:text>"
                + body
                + "</office:text></office:body></office:document-content>"));
    return zip(parts);
  }

  /** An ODT showing a 2 cm picture loaded from {@code href}. */
  static byte[] odtWithLinkedPicture(String href) throws IOException {
    return odt(
        "<text:p>A picture from elsewhere:<draw:frame draw:name=\"f\" text:anchor-type=\"as-char\""
            + " svg:width=\"2cm\" svg:height=\"2cm\"><draw:image xlink:href=\""
            + href
            + "\" xlink:type=\"simple\" xlink:show=\"embed\" xlink:actuate=\"onLoad\"/>"
            + "</draw:frame></text:p>");
  }

  /** An ODT with a section whose content is linked from {@code href}. */
  static byte[] odtWithLinkedSection(String href) throws IOException {
    return odt(
        "<text:p>Before the section</text:p><text:section text:name=\"linked\">"
            + "<text:section-source xlink:href=\""
            + href
            + "\" xlink:type=\"simple\"/><text:p>The section as it was saved</text:p>"
            + "</text:section>");
  }

  /**
   * A DOCX whose {@code word/document.xml} inflates to {@code bytes} bytes (a paragraph, then
   * spaces), written straight to {@code file} without holding it in memory.
   */
  static Path docxInflatingTo(Path file, long bytes) throws IOException {
    try (ZipOutputStream zip = new ZipOutputStream(Files.newOutputStream(file))) {
      zip.setLevel(1);
      put(zip, "[Content_Types].xml", utf8(DOCX_TYPES));
      put(zip, "_rels/.rels", utf8(DOCX_RELS));
      zip.putNextEntry(new ZipEntry("word/document.xml"));
      byte[] start = utf8(DOCUMENT_START + paragraph("Mostly blank."));
      zip.write(start);
      byte[] spaces = new byte[1 << 20];
      java.util.Arrays.fill(spaces, (byte) ' ');
      long left = bytes - start.length;
      while (left > 0) {
        int n = (int) Math.min(spaces.length, left);
        zip.write(spaces, 0, n);
        left -= n;
      }
      zip.closeEntry();
    }
    return file;
  }

  /** A DOCX that embeds {@code nested} (a package of its own) as {@code word/embeddings/x.xlsx}. */
  static byte[] docxEmbedding(byte[] nested) throws IOException {
    Map<String, byte[]> parts = new LinkedHashMap<>();
    parts.put("[Content_Types].xml", utf8(DOCX_TYPES));
    parts.put("_rels/.rels", utf8(DOCX_RELS));
    parts.put("word/document.xml", utf8(DOCUMENT_START + paragraph("Embeds") + DOCUMENT_END));
    parts.put("word/embeddings/x.xlsx", nested);
    return zip(parts);
  }

  /**
   * A ZIP of {@code parts}: a {@code mimetype} part stored first, as ODF wants, the rest deflated.
   */
  static byte[] zip(Map<String, byte[]> parts) throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (ZipOutputStream zip = new ZipOutputStream(bytes)) {
      for (Map.Entry<String, byte[]> part : parts.entrySet()) {
        if (part.getKey().equals("mimetype")) {
          ZipEntry entry = new ZipEntry(part.getKey());
          entry.setMethod(ZipEntry.STORED);
          entry.setSize(part.getValue().length);
          CRC32 crc = new CRC32();
          crc.update(part.getValue());
          entry.setCrc(crc.getValue());
          zip.putNextEntry(entry);
          zip.write(part.getValue());
          zip.closeEntry();
        } else {
          put(zip, part.getKey(), part.getValue());
        }
      }
    }
    return bytes.toByteArray();
  }

  private static void put(ZipOutputStream zip, String name, byte[] content) throws IOException {
    zip.putNextEntry(new ZipEntry(name));
    zip.write(content);
    zip.closeEntry();
  }

  private static byte[] utf8(String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }
}
