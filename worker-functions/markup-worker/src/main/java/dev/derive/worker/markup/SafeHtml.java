package dev.derive.worker.markup;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import org.jsoup.nodes.Document;
import org.jsoup.nodes.Element;

/**
 * Makes a parsed HTML document safe and predictable to render: removes scripts (they are never
 * run), frames, embedded objects, {@code <base>}, refreshes and stylesheet links (remote or local
 * resources are never fetched), and puts the bundled default stylesheet first in the head so the
 * document's own styles still override it. A {@code <style>} element in the body (HTML mail,
 * Markdown's raw HTML) is moved to the end of the head, keeping its order: browsers apply it
 * wherever it stands, while openhtmltopdf reads style sheets from the head only and would print its
 * rules as text.
 */
final class SafeHtml {
  /** The base URI documents are parsed against; it names no real location. */
  static final String BASE_URI = "about:blank";

  private static final String DEFAULT_STYLESHEET = load("default.css");

  private SafeHtml() {}

  /** Cleans {@code document} in place and returns it. */
  static Document clean(Document document) {
    document
        .select("script, iframe, frame, frameset, object, embed, applet, base, meta[http-equiv]")
        .remove();
    for (Element link : document.select("link")) {
      link.remove();
    }
    for (Element element : document.select("[src], [href]")) {
      for (String attribute : new String[] {"src", "href"}) {
        String value = element.attr(attribute).trim().toLowerCase(Locale.ROOT);
        if (element.hasAttr(attribute) && !value.startsWith("data:") && !value.startsWith("#")) {
          if (attribute.equals("src")) {
            element.removeAttr(attribute); // an image that is not embedded is left out
          }
        }
      }
    }
    for (Element style : document.body().select("style")) {
      document.head().appendChild(style); // moves it
    }
    document.head().prependElement("style").appendText(DEFAULT_STYLESHEET);
    document.outputSettings().charset(StandardCharsets.UTF_8);
    return document;
  }

  private static String load(String name) {
    try (InputStream in = SafeHtml.class.getResourceAsStream(name)) {
      if (in == null) {
        throw new IllegalStateException("bundled resource missing: " + name);
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
