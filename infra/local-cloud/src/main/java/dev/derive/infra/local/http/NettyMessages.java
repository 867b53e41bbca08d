package dev.derive.infra.local.http;

import io.netty.buffer.Unpooled;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpVersion;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The local HTTP API's requests and responses to and from Netty's messages: what arrives is handed
 * on as sent, what leaves is framed by the server alone (RFC 9112).
 */
final class NettyMessages {
  private static final DateTimeFormatter HTTP_DATE = DateTimeFormatter.RFC_1123_DATE_TIME;

  private NettyMessages() {}

  /** The request Netty decoded, with {@code body} ({@code null} when over the limit). */
  static NettyHttpServer.Request request(
      io.netty.handler.codec.http.HttpRequest head, byte[] body, String remote) {
    List<Map.Entry<String, String>> headers = new ArrayList<>(head.headers().size());
    head.headers().forEach(h -> headers.add(Map.entry(h.getKey(), h.getValue())));
    return new NettyHttpServer.Request(
        head.method().name(),
        head.uri(),
        head.protocolVersion().text(),
        List.copyOf(headers),
        body,
        remote);
  }

  /**
   * {@code response} as Netty's: framing ({@code Content-Length}, {@code Connection}) is this
   * server's, a header field that could split the response is dropped, a {@code HEAD} answer keeps
   * its length but not its body.
   */
  static FullHttpResponse encode(HttpResponse response, HttpMethod method, boolean keepAlive) {
    int status = response.status();
    boolean noBody = status == 204 || status == 304 || (status >= 100 && status < 200);
    boolean sendBody = !noBody && !HttpMethod.HEAD.equals(method);
    FullHttpResponse out =
        new DefaultFullHttpResponse(
            HttpVersion.HTTP_1_1,
            HttpResponseStatus.valueOf(status),
            sendBody ? Unpooled.wrappedBuffer(response.body()) : Unpooled.EMPTY_BUFFER);
    for (Map.Entry<String, String> header : response.headers()) {
      String name = header.getKey();
      String value = header.getValue();
      String lower = name.toLowerCase(Locale.ROOT);
      if (lower.equals("content-length")
          || lower.equals("transfer-encoding")
          || lower.equals("connection")
          || !isToken(name)
          || value == null
          || value.chars().anyMatch(c -> c == '\r' || c == '\n' || c == 0)) {
        continue;
      }
      out.headers().add(name, value);
    }
    out.headers().set(HttpHeaderNames.DATE, HTTP_DATE.format(ZonedDateTime.now(ZoneOffset.UTC)));
    if (!noBody) {
      out.headers().set(HttpHeaderNames.CONTENT_LENGTH, response.body().length);
    }
    if (!keepAlive) {
      out.headers().set(HttpHeaderNames.CONNECTION, HttpHeaderValues.CLOSE);
    }
    return out;
  }

  /** tchar+, RFC 9110 section 5.6.2. */
  static boolean isToken(String text) {
    if (text.isEmpty()) {
      return false;
    }
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      boolean tchar =
          (c >= 'a' && c <= 'z')
              || (c >= 'A' && c <= 'Z')
              || (c >= '0' && c <= '9')
              || "!#$%&'*+-.^_`|~".indexOf(c) >= 0;
      if (!tchar) {
        return false;
      }
    }
    return true;
  }
}
