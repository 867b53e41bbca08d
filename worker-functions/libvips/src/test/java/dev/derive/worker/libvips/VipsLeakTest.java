package dev.derive.worker.libvips;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * libvips memory is off-heap and freed only by {@code g_object_unref} and {@code g_free}: this test
 * makes thumbnails the way the image worker does (open with shrink-on-load, copy the pixels out,
 * close) and checks that the process's resident memory stays flat. The JVM's heap is fixed in size
 * for this module's tests ({@code -Xms} = {@code -Xmx}, pre-touched), so growth is native.
 */
class VipsLeakTest {
  /** Thumbnails made before the first measurement: libvips' and malloc's pools settle. */
  static final int WARM_UP = 50;

  /** Thumbnails made between the two measurements. */
  static final int MEASURED = 500;

  /**
   * Allowed growth, kB. Each iteration holds a 1 MP decode pipeline (several MB) and a 147 kB
   * output buffer: leaking either, 500 times, is 73 MB or more; allocator noise stays within a few
   * MB.
   */
  static final long SLACK_KB = 32 * 1024;

  @TempDir Path dir;

  @Test
  void residentMemoryStaysFlatOver500Thumbnails() throws IOException {
    Vips vips = VipsTest.loaded();
    Path jpeg = TestPictures.write(dir, TestPictures.halves(1000, 750, false), "jpeg");
    Path png = TestPictures.write(dir, TestPictures.halves(300, 200, true), "png");
    for (int i = 0; i < WARM_UP; i++) {
      thumbnailOnce(vips, jpeg, png);
    }
    long before = residentKilobytes();
    for (int i = 0; i < MEASURED; i++) {
      thumbnailOnce(vips, jpeg, png);
    }
    long grown = residentKilobytes() - before;
    System.out.println(
        "VipsLeakTest: RSS "
            + before
            + " kB after "
            + WARM_UP
            + " thumbnails, grew by "
            + grown
            + " kB over "
            + MEASURED
            + " more");

    assertThat(grown).as("RSS growth over " + MEASURED + " thumbnails, kB").isLessThan(SLACK_KB);
  }

  /** One shrink-on-load thumbnail copied out, and one region cut out of an opened image. */
  private static void thumbnailOnce(Vips vips, Path jpeg, Path png) {
    try (VipsImage thumbnail = vips.thumbnail(jpeg, 256, 256, "")) {
      assertThat(thumbnail.bytes()).hasSize(256 * 192 * 3);
    }
    try (VipsImage image = vips.openSequential(png);
        VipsImage region = vips.extractArea(image, 10, 10, 100, 100);
        VipsImage copy = vips.copyMemory(region);
        VipsImage small = vips.thumbnail(copy, 50, 50, false)) {
      assertThat(small.bytes()).hasSize(50 * 50 * 4);
    }
  }

  private static long residentKilobytes() throws IOException {
    for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
      if (line.startsWith("VmRSS:")) {
        return Long.parseLong(line.replaceAll("[^0-9]", ""));
      }
    }
    throw new AssertionError("no VmRSS in /proc/self/status");
  }
}
