package dev.derive.worker.ffmpeg;

import static dev.derive.worker.ffmpeg.TestBoxes.box;
import static dev.derive.worker.ffmpeg.TestBoxes.concat;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Boxes whose sizes lie: past their parent, past the file, past {@code int}, or too many. */
class IsoBoxesTest {
  @TempDir Path dir;

  @Test
  void childrenAreListedWithTheirBodies() throws Exception {
    byte[] bytes =
        concat(box("ftyp", new byte[4]), box("free", new byte[0]), box("mdat", new byte[9]));
    ByteBuffer buffer = ByteBuffer.wrap(bytes);

    assertThat(IsoBoxes.children(buffer, 0, bytes.length))
        .containsExactly(
            new IsoBoxes.Box("ftyp", 8, 12),
            new IsoBoxes.Box("free", 20, 20),
            new IsoBoxes.Box("mdat", 28, 37));
  }

  @Test
  void aBoxLargerThanItsParentIsMalformed() {
    ByteBuffer buffer = ByteBuffer.allocate(24);
    buffer.putInt(0, 0xFFFFFFF0).put(4, "trak".getBytes(StandardCharsets.US_ASCII));

    assertThatThrownBy(() -> IsoBoxes.children(buffer, 0, 24))
        .isInstanceOf(IsoBoxes.Malformed.class)
        .hasMessage("its trak box is damaged or cut short");
  }

  @Test
  void sixtyFourBitSizesPastTheParentOrNegativeAreMalformed() {
    for (long large : new long[] {Long.MAX_VALUE, Long.MIN_VALUE, -1, 1L << 32, 15}) {
      ByteBuffer buffer = ByteBuffer.allocate(32);
      buffer.putInt(0, 1).put(4, "mdat".getBytes(StandardCharsets.US_ASCII)).putLong(8, large);

      assertThatThrownBy(() -> IsoBoxes.children(buffer, 0, 32))
          .as("largesize %d", large)
          .isInstanceOf(IsoBoxes.Malformed.class);
    }
    ByteBuffer cut = ByteBuffer.allocate(12);
    cut.putInt(0, 1).put(4, "mdat".getBytes(StandardCharsets.US_ASCII));
    assertThatThrownBy(() -> IsoBoxes.children(cut, 0, 12))
        .isInstanceOf(IsoBoxes.Malformed.class)
        .hasMessage("its mdat box is cut short");
  }

  @Test
  void sizeZeroRunsToTheEndOfTheParent() throws Exception {
    ByteBuffer buffer = ByteBuffer.allocate(20);
    buffer.putInt(0, 0).put(4, "mdat".getBytes(StandardCharsets.US_ASCII));

    assertThat(IsoBoxes.children(buffer, 0, 20)).containsExactly(new IsoBoxes.Box("mdat", 8, 20));
  }

  @Test
  void findReadsTheTopLevelOnlyAndRefusesABoxPastTheEnd() throws Exception {
    Path file =
        write(
            concat(
                box("ftyp", new byte[8]),
                box("mdat", new byte[100]),
                box("moov", box("trak", new byte[0]))));
    try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
      assertThat(IsoBoxes.firstType(channel)).isEqualTo("ftyp");
      assertThat(IsoBoxes.find(channel, "moov"))
          .isEqualTo(new IsoBoxes.FileBox("moov", 8 + 8 + 8 + 100 + 8, 8));
      assertThat(IsoBoxes.find(channel, "trak")).as("not a top-level box").isNull();
    }

    byte[] cut = concat(box("ftyp", new byte[8]), box("mdat", new byte[100]));
    Path truncated = write(java.util.Arrays.copyOf(cut, cut.length - 10));
    try (FileChannel channel = FileChannel.open(truncated, StandardOpenOption.READ)) {
      assertThatThrownBy(() -> IsoBoxes.find(channel, "moov"))
          .isInstanceOf(IsoBoxes.Malformed.class)
          .hasMessage("the mdat box runs past the end of the file");
    }
  }

  /** A file of thousands of empty boxes costs a bounded number of reads, then is malformed. */
  @Test
  void tooManyTopLevelBoxesAreMalformed() throws Exception {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    for (int i = 0; i < 100_000; i++) {
      bytes.write(box("free", new byte[0]));
    }
    bytes.write(box("moov", new byte[0]));
    try (FileChannel channel =
        FileChannel.open(write(bytes.toByteArray()), StandardOpenOption.READ)) {
      assertThatThrownBy(() -> IsoBoxes.find(channel, "moov"))
          .isInstanceOf(IsoBoxes.Malformed.class)
          .hasMessage("it has over " + IsoBoxes.MAX_TOP_LEVEL_BOXES + " top-level boxes");
    }
  }

  @Test
  void aTypeOfControlBytesIsNotRepeatedInTheMessage() {
    ByteBuffer buffer = ByteBuffer.allocate(16);
    buffer.putInt(0, 99).put(4, new byte[] {'/', 0, '\n', 'x'});

    assertThatThrownBy(() -> IsoBoxes.children(buffer, 0, 16))
        .hasMessage("its ???x box is damaged or cut short");
  }

  private Path write(byte[] bytes) throws IOException {
    return Files.write(Files.createTempFile(dir, "boxes", ".mp4"), bytes);
  }
}
