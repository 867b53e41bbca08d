package dev.derive.protocol.io;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.derive.protocol.io.ByteCaps.ByteCapExceededException;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

class ByteCapsTest {

  @Test
  void aSourceExactlyAtTheCapIsCopiedWhole() throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();

    long copied = ByteCaps.copyAtMost(new ByteArrayInputStream(new byte[100]), out, 100);

    assertThat(copied).isEqualTo(100);
    assertThat(out.size()).isEqualTo(100);
  }

  @Test
  void aSourceOverTheCapStopsOneByteBeyondIt() throws IOException {
    CountingSource source = new CountingSource(1_000_000);
    ByteArrayOutputStream out = new ByteArrayOutputStream();

    long copied = ByteCaps.copyAtMost(source, out, 100);

    assertThat(copied).isEqualTo(101);
    assertThat(out.size()).isEqualTo(101);
    assertThat(source.read).as("the rest of an oversized source is never read").isEqualTo(101);
    assertThat(source.closed).as("the caller closes the source").isFalse();
  }

  @Test
  void aZeroCapTellsAnEmptySourceFromAnyByte() throws IOException {
    assertThat(
            ByteCaps.copyAtMost(InputStream.nullInputStream(), OutputStream.nullOutputStream(), 0))
        .isZero();
    assertThat(
            ByteCaps.copyAtMost(
                new ByteArrayInputStream(new byte[5]), OutputStream.nullOutputStream(), 0))
        .isEqualTo(1);
  }

  @Test
  void aCappedStreamTakesExactlyTheCap() throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try (OutputStream capped = ByteCaps.capped(out, 10)) {
      capped.write(new byte[9]);
      capped.write(7);
    }
    assertThat(out.size()).isEqualTo(10);
  }

  @Test
  void aWritePastTheCapThrowsAndPassesNothingOnEvenWhenRetried() throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    OutputStream capped = ByteCaps.capped(out, 10);
    capped.write(new byte[8]);

    assertThatThrownBy(() -> capped.write(new byte[3]))
        .isInstanceOfSatisfying(
            ByteCapExceededException.class, e -> assertThat(e.maxBytes()).isEqualTo(10));
    assertThatThrownBy(() -> capped.write(new byte[3]))
        .as("a writer that swallowed the first overrun still cannot pass the cap")
        .isInstanceOf(ByteCapExceededException.class);
    capped.write(new byte[2]);
    assertThatThrownBy(() -> capped.write(1)).isInstanceOf(ByteCapExceededException.class);
    assertThat(out.size()).isEqualTo(10);
  }

  @Test
  void closingACappedStreamClosesItsTarget() throws IOException {
    AtomicBoolean closed = new AtomicBoolean();
    OutputStream target =
        new ByteArrayOutputStream() {
          @Override
          public void close() {
            closed.set(true);
          }
        };
    ByteCaps.capped(target, 1).close();
    assertThat(closed).isTrue();
  }

  @Test
  void anOverrunIsFoundBehindTheWrappersOfALibrary() {
    IOException overrun = new ByteCapExceededException(5);
    assertThat(ByteCapExceededException.in(new RuntimeException(new UncheckedIOException(overrun))))
        .isTrue();
    assertThat(ByteCapExceededException.in(new IOException("disk full"))).isFalse();
  }

  @Test
  void aNegativeCapIsRefused() {
    assertThatThrownBy(() -> ByteCaps.capped(OutputStream.nullOutputStream(), -1))
        .isInstanceOf(IllegalArgumentException.class);
  }

  /** An endless source of zeros that counts what was read from it. */
  private static final class CountingSource extends InputStream {
    private final long size;
    long read;
    boolean closed;

    CountingSource(long size) {
      this.size = size;
    }

    @Override
    public int read() {
      if (read >= size) {
        return -1;
      }
      read++;
      return 0;
    }

    @Override
    public int read(byte[] b, int off, int len) {
      if (read >= size) {
        return -1;
      }
      int n = (int) Math.min(len, size - read);
      read += n;
      return n;
    }

    @Override
    public void close() {
      closed = true;
    }
  }
}
