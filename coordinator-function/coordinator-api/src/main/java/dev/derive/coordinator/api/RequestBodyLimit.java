package dev.derive.coordinator.api;

import dev.derive.coordinator.config.CoordinatorConfig;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.core.HttpHeaders;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import org.jboss.resteasy.reactive.server.ServerRequestFilter;

/**
 * Caps request bodies at {@code MAX_REQUEST_BYTES} (default 65536 in {@code
 * application.properties}): a declared {@code Content-Length} over the cap is refused before the
 * body is read, and a body without one is cut off once it passes the cap. Bodies here are small
 * JSON documents; sources are uploaded straight to S3.
 */
public class RequestBodyLimit {
  private final long maxBytes;

  RequestBodyLimit(CoordinatorConfig config) {
    this.maxBytes = config.limits().maxRequestBytes();
  }

  /**
   * Refuses or bounds the body of {@code request}.
   *
   * @throws RequestBodyTooLargeException if the declared length is over the cap
   */
  @ServerRequestFilter(preMatching = true)
  public void limit(ContainerRequestContext request) {
    String declared = request.getHeaderString(HttpHeaders.CONTENT_LENGTH);
    if (declared != null) {
      try {
        if (Long.parseLong(declared.trim()) > maxBytes) {
          throw new RequestBodyTooLargeException(maxBytes);
        }
      } catch (NumberFormatException e) {
        // a malformed length is the HTTP layer's to reject; the stream bound still applies
      }
    }
    if (request.hasEntity()) {
      request.setEntityStream(new Bounded(request.getEntityStream(), maxBytes));
    }
  }

  /** An input stream that fails once more than {@code limit} bytes have been read. */
  private static final class Bounded extends FilterInputStream {
    private final long limit;
    private long read;

    Bounded(InputStream in, long limit) {
      super(in);
      this.limit = limit;
    }

    @Override
    public int read() throws IOException {
      int b = super.read();
      if (b >= 0) {
        count(1);
      }
      return b;
    }

    @Override
    public int read(byte[] buffer, int offset, int length) throws IOException {
      int n = super.read(buffer, offset, length);
      if (n > 0) {
        count(n);
      }
      return n;
    }

    private void count(int n) {
      read += n;
      if (read > limit) {
        throw new RequestBodyTooLargeException(limit);
      }
    }
  }
}
