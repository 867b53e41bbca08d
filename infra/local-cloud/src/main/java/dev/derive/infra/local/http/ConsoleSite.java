package dev.derive.infra.local.http;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * The web console's files (docs/console.md), served by the local HTTP API ahead of its routes:
 * {@code GET} or {@code HEAD} of {@code /}, {@code /console} or {@code /console/} answers the page,
 * {@code /console/<file>} one of its {@link #FILES}. Anything else, and any other method, is not
 * the console's and goes on to the route table, so an unknown path still gets the {@code $default}
 * route's problem+json 404. The files are read once from the classpath ({@code
 * dev/derive/infra/local/console/}); a name outside the fixed list is never looked up, so no path
 * can reach another resource.
 */
public final class ConsoleSite {
  /** The console's files, as named under {@code /console/}. */
  public static final List<String> FILES =
      List.of("index.html", "console.css", "console.js", "api.js", "target-form.js");

  /**
   * The page's Content-Security-Policy: its own files and the API from its origin; images, fetches
   * and PDF frames also from the presigned bucket URLs on the loopback address and from blobs.
   * Nothing from the internet.
   */
  public static final String CONTENT_SECURITY_POLICY =
      "default-src 'self'; img-src 'self' blob: http://127.0.0.1:*; connect-src 'self'"
          + " http://127.0.0.1:*; frame-src 'self' blob:; object-src 'none'; style-src 'self';"
          + " script-src 'self'; frame-ancestors 'none'";

  private static final String RESOURCES = "dev/derive/infra/local/console/";

  private final Map<String, byte[]> files;

  private ConsoleSite(Map<String, byte[]> files) {
    this.files = files;
  }

  /**
   * The console as packaged with the local cloud.
   *
   * @throws IllegalStateException if one of {@link #FILES} is missing from the classpath
   */
  public static ConsoleSite packaged() {
    Map<String, byte[]> files = new LinkedHashMap<>();
    ClassLoader loader = ConsoleSite.class.getClassLoader();
    for (String name : FILES) {
      try (InputStream in = loader.getResourceAsStream(RESOURCES + name)) {
        if (in == null) {
          throw new IllegalStateException("the console file " + RESOURCES + name + " is missing");
        }
        files.put(name, in.readAllBytes());
      } catch (IOException e) {
        throw new UncheckedIOException("cannot read the console file " + RESOURCES + name, e);
      }
    }
    return new ConsoleSite(Map.copyOf(files));
  }

  /** No console: every request goes to the routes. */
  public static ConsoleSite none() {
    return new ConsoleSite(Map.of());
  }

  /**
   * The console's answer to {@code method} on the raw {@code path}, or empty when the request is
   * not the console's.
   */
  public Optional<HttpResponse> answer(String method, String rawPath) {
    if (files.isEmpty() || !(method.equals("GET") || method.equals("HEAD"))) {
      return Optional.empty();
    }
    String name =
        switch (rawPath) {
          case "/", "/console", "/console/" -> "index.html";
          default ->
              rawPath.startsWith("/console/") ? rawPath.substring("/console/".length()) : null;
        };
    byte[] body = name == null ? null : files.get(name);
    if (body == null) {
      return Optional.empty();
    }
    return Optional.of(
        new HttpResponse(
            200,
            List.of(
                Map.entry("Content-Type", contentType(name)),
                Map.entry("Cache-Control", "no-cache"),
                Map.entry("X-Content-Type-Options", "nosniff"),
                Map.entry("Content-Security-Policy", CONTENT_SECURITY_POLICY)),
            body));
  }

  /** The media type of a console file by its extension. */
  static String contentType(String name) {
    String lower = name.toLowerCase(Locale.ROOT);
    String charset = "; charset=" + StandardCharsets.UTF_8.name().toLowerCase(Locale.ROOT);
    if (lower.endsWith(".html")) {
      return "text/html" + charset;
    }
    if (lower.endsWith(".css")) {
      return "text/css" + charset;
    }
    if (lower.endsWith(".js")) {
      return "text/javascript" + charset;
    }
    return "application/octet-stream";
  }
}
