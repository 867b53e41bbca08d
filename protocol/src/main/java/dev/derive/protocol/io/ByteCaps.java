package dev.derive.protocol.io;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import org.apache.commons.io.IOUtils;
import org.apache.commons.io.input.BoundedInputStream;
import org.apache.commons.io.output.CountingOutputStream;
import org.apache.commons.io.output.ProxyOutputStream;

/**
 * The one place where Derive caps a stream of bytes, on Commons IO's streams: a source read from
 * the object store ({@link #copyAtMost}) and an output as it is written ({@link #capped}). A cap of
 * {@code n} bytes lets exactly {@code n} through; one byte more is over it. Callers turn an overrun
 * into their own stable error ({@code input-too-large}, {@code output-too-large}).
 */
public final class ByteCaps {
  private ByteCaps() {}

  /**
   * Copies {@code in} to {@code out} until {@code in} ends or one byte more than {@code maxBytes}
   * has been copied, so a caller can tell "exactly at the cap" from "over it" without reading the
   * whole of an oversized stream. Closes neither stream.
   *
   * @param maxBytes the cap, in bytes (not negative)
   * @return the bytes copied: more than {@code maxBytes} (then exactly {@code maxBytes + 1}) means
   *     {@code in} is over the cap
   * @throws IOException what reading or writing threw
   */
  public static long copyAtMost(InputStream in, OutputStream out, long maxBytes)
      throws IOException {
    requireCap(maxBytes);
    BoundedInputStream bounded =
        BoundedInputStream.builder()
            .setInputStream(in)
            .setMaxCount(maxBytes == Long.MAX_VALUE ? IOUtils.EOF : maxBytes + 1)
            .setPropagateClose(false)
            .get();
    return IOUtils.copyLarge(bounded, out);
  }

  /**
   * {@code out} behind a cap: every write that would bring the total past {@code maxBytes} throws
   * {@link ByteCapExceededException} and passes none of its bytes on (the ones before it are
   * written), so what reaches {@code out} never exceeds the cap. Closing it closes {@code out}.
   *
   * @param maxBytes the cap, in bytes (not negative)
   */
  public static OutputStream capped(OutputStream out, long maxBytes) {
    requireCap(maxBytes);
    CountingOutputStream counted = new CountingOutputStream(out);
    return new ProxyOutputStream(counted) {
      @Override
      protected void beforeWrite(int n) throws IOException {
        if (counted.getByteCount() + n > maxBytes) {
          throw new ByteCapExceededException(maxBytes);
        }
      }
    };
  }

  private static void requireCap(long maxBytes) {
    if (maxBytes < 0) {
      throw new IllegalArgumentException("a byte cap is not negative: " + maxBytes);
    }
  }

  /** A write went past a {@link #capped} stream's cap. */
  public static final class ByteCapExceededException extends IOException {
    private final long maxBytes;

    public ByteCapExceededException(long maxBytes) {
      super("more than " + maxBytes + " bytes");
      this.maxBytes = maxBytes;
    }

    /** The cap, in bytes. */
    public long maxBytes() {
      return maxBytes;
    }

    /** Whether {@code failure} or one of its causes is an overrun of a cap. */
    public static boolean in(Throwable failure) {
      for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
        if (cause instanceof ByteCapExceededException) {
          return true;
        }
      }
      return false;
    }
  }
}
