package dev.derive.worker.text;

import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.OutputStream;

/** Passes bytes on until more than a limit would be written, then throws. */
final class LimitedOutputStream extends FilterOutputStream {
  private final long maxBytes;
  private long written;

  LimitedOutputStream(OutputStream out, long maxBytes) {
    super(out);
    this.maxBytes = maxBytes;
  }

  @Override
  public void write(int b) throws IOException {
    reserve(1);
    out.write(b);
  }

  @Override
  public void write(byte[] b, int off, int len) throws IOException {
    reserve(len);
    out.write(b, off, len);
  }

  private void reserve(int bytes) throws TextLimitExceededException {
    if (written + bytes > maxBytes) {
      throw new TextLimitExceededException(maxBytes);
    }
    written += bytes;
  }
}
