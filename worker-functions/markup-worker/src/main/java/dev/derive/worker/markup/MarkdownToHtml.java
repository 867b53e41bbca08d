package dev.derive.worker.markup;

import java.util.List;
import org.commonmark.Extension;
import org.commonmark.ext.gfm.strikethrough.StrikethroughExtension;
import org.commonmark.ext.gfm.tables.TablesExtension;
import org.commonmark.parser.Parser;
import org.commonmark.renderer.html.HtmlRenderer;
import org.jsoup.Jsoup;
import org.jsoup.nodes.Document;

/**
 * CommonMark (commonmark-java) with the GitHub Flavored Markdown tables and strikethrough
 * extensions, rendered to an HTML document. Raw HTML inside the Markdown is kept, as GitHub does;
 * {@link SafeHtml} cleans it afterwards.
 */
final class MarkdownToHtml {
  private static final List<Extension> EXTENSIONS =
      List.of(TablesExtension.create(), StrikethroughExtension.create());
  private static final Parser PARSER = Parser.builder().extensions(EXTENSIONS).build();
  private static final HtmlRenderer RENDERER =
      HtmlRenderer.builder().extensions(EXTENSIONS).build();

  private MarkdownToHtml() {}

  /** The HTML document of {@code markdown}. */
  static Document convert(String markdown) {
    String body = RENDERER.render(PARSER.parse(markdown));
    return Jsoup.parse(
        "<!DOCTYPE html><html><head><meta charset=\"utf-8\"></head><body>"
            + body
            + "</body></html>",
        SafeHtml.BASE_URI);
  }
}
