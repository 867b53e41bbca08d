package dev.derive.worker.office;

import static dev.derive.worker.runtime.fixtures.OfficePackages.docx;
import static dev.derive.worker.runtime.fixtures.OfficePackages.paragraph;
import static dev.derive.worker.runtime.fixtures.OfficePackages.zip;

import dev.derive.worker.runtime.fixtures.OfficePackages;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Office documents the office tests write themselves, over the minimal packages they share with the
 * end-to-end tests ({@link OfficePackages}: a DOCX around a body, one that inflates to a given
 * size, one that embeds another): an ODT around a body, the parts a hostile document adds (a
 * picture linked to a URL, a linked section, a Basic macro run on load) and a long DOCX for page
 * limits.
 */
final class Documents {
  private Documents() {}

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

  private static byte[] utf8(String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }
}
