package dev.derive.infra.local.http;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketException;
import java.nio.charset.StandardCharsets;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.RejectedExecutionException;

/**
 * The local HTTP API's HTTP/1.1 server (RFC 9112): blocking, one task of {@code executor} per
 * connection, persistent connections, {@code Content-Length} and chunked request bodies, {@code
 * Expect: 100-continue}. It hands its handler the request-target as sent. It replaces {@code
 * com.sun.net.httpserver}, which refuses a target {@link java.net.URI} cannot parse (a path with
 * {@code {}} or {@code }}, a stray {@code %}) with its own {@code text/html} page before any
 * handler runs, where API Gateway passes the request on to its route.
 */
final class Http1Server implements AutoCloseable {
  /** Longest request line plus header section accepted, in bytes. */
  static final int MAX_HEAD_BYTES = 64 * 1024;

  /** A body over the limit is read and dropped up to this size so the 413 reaches the client. */
  static final long MAX_DRAINED_BYTES = 64L * 1024 * 1024;

  /** How long a connection may sit idle (or a client take to send its request), in ms. */
  static final int IDLE_TIMEOUT_MS = 300_000;

  private static final DateTimeFormatter HTTP_DATE = DateTimeFormatter.RFC_1123_DATE_TIME;

  /**
   * One request.
   *
   * @param method e.g. {@code GET}
   * @param target the request-target as sent (RFC 9112 section 3.2), each byte as one character
   * @param version e.g. {@code HTTP/1.1}
   * @param headers header fields in arrival order, names as sent
   * @param body the body, or {@code null} when it was over the limit (answer 413)
   * @param remoteAddress the client's IP address
   */
  record Request(
      String method,
      String target,
      String version,
      List<Map.Entry<String, String>> headers,
      byte[] body,
      String remoteAddress) {}

  /** Answers one request. */
  interface Handler {
    /** The response to {@code request}; a runtime exception closes the connection. */
    HttpResponse handle(Request request);
  }

  private final ServerSocket socket;
  private final ExecutorService executor;
  private final Handler handler;
  private final int maxBodyBytes;
  private final Set<Socket> connections = ConcurrentHashMap.newKeySet();

  private Http1Server(
      ServerSocket socket, ExecutorService executor, Handler handler, int maxBodyBytes) {
    this.socket = socket;
    this.executor = executor;
    this.handler = handler;
    this.maxBodyBytes = maxBodyBytes;
  }

  /**
   * Serves {@code address} until closed.
   *
   * @param maxBodyBytes largest body handed to the handler; a larger one arrives as {@code null}
   * @throws IOException if the address cannot be bound
   */
  static Http1Server start(
      InetSocketAddress address, int maxBodyBytes, ExecutorService executor, Handler handler)
      throws IOException {
    ServerSocket socket = new ServerSocket();
    socket.setReuseAddress(true);
    socket.bind(address, 128);
    Http1Server server = new Http1Server(socket, executor, handler, maxBodyBytes);
    Thread.ofPlatform().daemon().name("local-http-api-accept").start(server::accept);
    return server;
  }

  /** The port served. */
  int port() {
    return socket.getLocalPort();
  }

  private void accept() {
    while (!socket.isClosed()) {
      Socket connection;
      try {
        connection = socket.accept();
      } catch (IOException e) {
        continue; // closed (the loop ends) or one failed accept
      }
      connections.add(connection);
      try {
        executor.execute(() -> serve(connection));
      } catch (RejectedExecutionException e) {
        closeQuietly(connection);
        return;
      }
    }
  }

  private void serve(Socket connection) {
    try (connection) {
      connection.setTcpNoDelay(true);
      connection.setSoTimeout(IDLE_TIMEOUT_MS);
      InputStream in = new BufferedInputStream(connection.getInputStream());
      OutputStream out = new BufferedOutputStream(connection.getOutputStream());
      String remote = connection.getInetAddress().getHostAddress();
      while (serveOne(in, out, remote)) {
        // the next request on the persistent connection
      }
    } catch (IOException | RuntimeException e) {
      // the client went away, timed out or sent something unreadable: drop the connection
    } finally {
      connections.remove(connection);
    }
  }

  /** Serves one request; whether the connection stays open for another. */
  private boolean serveOne(InputStream in, OutputStream out, String remote) throws IOException {
    Head head = new Head();
    String line = head.line(in);
    while (line != null && line.isEmpty() && !head.overflowed) {
      line = head.line(in); // RFC 9112 section 2.2: empty lines before a request are ignored
    }
    if (line == null) {
      return false;
    }
    String[] parts = line.split(" ", -1);
    if (parts.length != 3
        || parts[0].isEmpty()
        || !isToken(parts[0])
        || parts[1].isEmpty()
        || !parts[2].startsWith("HTTP/1.")) {
      write(out, HttpResponse.message(400, "Bad Request"), false, false);
      return false;
    }
    String method = parts[0];
    String version = parts[2];
    List<Map.Entry<String, String>> headers = new ArrayList<>();
    for (String field = head.line(in); field != null && !field.isEmpty(); field = head.line(in)) {
      int colon = field.indexOf(':');
      // RFC 9112 section 5: no whitespace before the colon, no obsolete line folding
      if (colon <= 0 || !isToken(field.substring(0, colon))) {
        write(out, HttpResponse.message(400, "Bad Request"), false, false);
        return false;
      }
      headers.add(Map.entry(field.substring(0, colon), field.substring(colon + 1).strip()));
    }
    if (head.overflowed) {
      write(out, HttpResponse.message(431, "Request Header Fields Too Large"), false, false);
      return false;
    }
    List<String> lengths = values(headers, "content-length");
    List<String> encodings = values(headers, "transfer-encoding");
    boolean chunked = !encodings.isEmpty();
    if ((chunked && (!lengths.isEmpty() || !encodings.equals(List.of("chunked"))))
        || lengths.size() > 1) {
      write(out, HttpResponse.message(400, "Bad Request"), false, false);
      return false;
    }
    long length = 0;
    if (!lengths.isEmpty()) {
      try {
        length = Long.parseLong(lengths.get(0));
      } catch (NumberFormatException e) {
        length = -1;
      }
      if (length < 0) {
        write(out, HttpResponse.message(400, "Bad Request"), false, false);
        return false;
      }
    }
    boolean keepAlive = keepAlive(version, values(headers, "connection"));
    if (values(headers, "expect").stream().anyMatch(v -> v.equalsIgnoreCase("100-continue"))) {
      if (length > maxBodyBytes) {
        write(out, HttpResponse.message(413, "Request Entity Too Large"), false, false);
        return false;
      }
      out.write("HTTP/1.1 100 Continue\r\n\r\n".getBytes(StandardCharsets.ISO_8859_1));
      out.flush();
    }
    byte[] body = chunked ? chunked(in) : fixed(in, length);
    if (body == null) {
      keepAlive = false; // the rest of an oversized body may still be on its way
    }
    HttpResponse response =
        handler.handle(new Request(method, parts[1], version, headers, body, remote));
    write(out, response, method.equals("HEAD"), keepAlive);
    return keepAlive;
  }

  private static boolean keepAlive(String version, List<String> connection) {
    boolean close = connection.stream().anyMatch(v -> hasOption(v, "close"));
    if (version.equals("HTTP/1.0")) {
      return !close && connection.stream().anyMatch(v -> hasOption(v, "keep-alive"));
    }
    return !close;
  }

  private static boolean hasOption(String value, String option) {
    for (String part : value.split(",")) {
      if (part.strip().equalsIgnoreCase(option)) {
        return true;
      }
    }
    return false;
  }

  /**
   * A body of {@code length} bytes, or {@code null} (read and dropped, if not huge) if too large.
   */
  private byte[] fixed(InputStream in, long length) throws IOException {
    if (length > maxBodyBytes) {
      if (length <= MAX_DRAINED_BYTES) {
        in.skipNBytes(length);
      }
      return null;
    }
    byte[] body = in.readNBytes((int) length);
    if (body.length < length) {
      throw new IOException("the body ended after " + body.length + " of " + length + " bytes");
    }
    return body;
  }

  /** A chunked body (RFC 9112 section 7.1), or {@code null} if it grew past the limit. */
  private byte[] chunked(InputStream in) throws IOException {
    ByteArrayOutputStream body = new ByteArrayOutputStream();
    long total = 0;
    while (true) {
      String sizeLine = new Head().line(in);
      if (sizeLine == null) {
        throw new IOException("the chunked body ended early");
      }
      int extension = sizeLine.indexOf(';');
      long size;
      try {
        size =
            Long.parseLong(
                (extension < 0 ? sizeLine : sizeLine.substring(0, extension)).strip(), 16);
      } catch (NumberFormatException e) {
        throw new IOException("bad chunk size: " + sizeLine);
      }
      if (size == 0) {
        Head trailers = new Head();
        for (String trailer = trailers.line(in);
            trailer != null && !trailer.isEmpty() && !trailers.overflowed;
            trailer = trailers.line(in)) {
          // trailer fields are dropped, as API Gateway does not pass them on
        }
        return total > maxBodyBytes ? null : body.toByteArray();
      }
      total += size;
      if (total > MAX_DRAINED_BYTES) {
        throw new IOException("a chunked body over " + MAX_DRAINED_BYTES + " bytes");
      }
      if (total > maxBodyBytes) {
        in.skipNBytes(size);
      } else {
        byte[] chunk = in.readNBytes((int) size);
        if (chunk.length < size) {
          throw new IOException("a chunk ended early");
        }
        body.write(chunk);
      }
      if (!"".equals(new Head().line(in))) {
        throw new IOException("a chunk without its CRLF");
      }
    }
  }

  private static void write(
      OutputStream out, HttpResponse response, boolean head, boolean keepAlive) throws IOException {
    int status = response.status();
    boolean noBody = status == 204 || status == 304 || (status >= 100 && status < 200);
    StringBuilder text = new StringBuilder(256);
    text.append("HTTP/1.1 ").append(status).append(' ').append(reason(status)).append("\r\n");
    for (Map.Entry<String, String> header : response.headers()) {
      String name = header.getKey();
      String value = header.getValue();
      String lower = name.toLowerCase(Locale.ROOT);
      // framing is this server's; a field that could split the response is dropped
      if (lower.equals("content-length")
          || lower.equals("transfer-encoding")
          || lower.equals("connection")
          || !isToken(name)
          || value == null
          || value.chars().anyMatch(c -> c == '\r' || c == '\n' || c == 0)) {
        continue;
      }
      text.append(name).append(": ").append(value).append("\r\n");
    }
    text.append("Date: ")
        .append(HTTP_DATE.format(ZonedDateTime.now(ZoneOffset.UTC)))
        .append("\r\n");
    if (!noBody) {
      text.append("Content-Length: ").append(response.body().length).append("\r\n");
    }
    if (!keepAlive) {
      text.append("Connection: close\r\n");
    }
    text.append("\r\n");
    out.write(text.toString().getBytes(StandardCharsets.ISO_8859_1));
    if (!noBody && !head) {
      out.write(response.body());
    }
    out.flush();
  }

  private static List<String> values(List<Map.Entry<String, String>> headers, String name) {
    List<String> values = new ArrayList<>();
    for (Map.Entry<String, String> header : headers) {
      if (header.getKey().equalsIgnoreCase(name)) {
        values.add(header.getValue());
      }
    }
    return values;
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

  private static String reason(int status) {
    return switch (status) {
      case 200 -> "OK";
      case 201 -> "Created";
      case 202 -> "Accepted";
      case 204 -> "No Content";
      case 301 -> "Moved Permanently";
      case 302 -> "Found";
      case 303 -> "See Other";
      case 304 -> "Not Modified";
      case 307 -> "Temporary Redirect";
      case 400 -> "Bad Request";
      case 403 -> "Forbidden";
      case 404 -> "Not Found";
      case 405 -> "Method Not Allowed";
      case 409 -> "Conflict";
      case 410 -> "Gone";
      case 413 -> "Content Too Large";
      case 415 -> "Unsupported Media Type";
      case 422 -> "Unprocessable Content";
      case 429 -> "Too Many Requests";
      case 431 -> "Request Header Fields Too Large";
      case 500 -> "Internal Server Error";
      case 502 -> "Bad Gateway";
      case 503 -> "Service Unavailable";
      case 504 -> "Gateway Timeout";
      default -> "Status " + status;
    };
  }

  private static void closeQuietly(Socket socket) {
    try {
      socket.close();
    } catch (IOException e) {
      // nothing left to do
    }
  }

  /** Stops accepting and closes every open connection. */
  @Override
  public void close() {
    try {
      socket.close();
    } catch (IOException e) {
      // already closed
    }
    connections.forEach(Http1Server::closeQuietly);
  }

  /** Reads CRLF- (or LF-) terminated lines of one request head, counting them against the cap. */
  private static final class Head {
    private int read;
    private boolean overflowed;

    /** The next line without its terminator (bytes as ISO-8859-1), or {@code null} at the end. */
    String line(InputStream in) throws IOException {
      StringBuilder line = new StringBuilder();
      while (true) {
        int b;
        try {
          b = in.read();
        } catch (SocketException e) {
          return null;
        }
        if (b < 0) {
          return line.isEmpty() ? null : line.toString();
        }
        if (++read > MAX_HEAD_BYTES) {
          overflowed = true;
          return "";
        }
        if (b == '\n') {
          int end = line.length();
          if (end > 0 && line.charAt(end - 1) == '\r') {
            line.setLength(end - 1);
          }
          return line.toString();
        }
        line.append((char) b);
      }
    }
  }
}
