package dev.derive.worker.libvips;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static java.lang.foreign.ValueLayout.JAVA_SHORT;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.ByteOrder;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * One {@code VipsImage} reference (a GObject owned by this object): its header, and its pixels
 * computed on demand. {@link #close()} drops the reference ({@code g_object_unref}); libvips frees
 * the image, off-heap, once no derived image holds it either. Not thread-safe.
 */
public final class VipsImage implements AutoCloseable {
  private final Vips vips;
  private MemorySegment pointer;

  VipsImage(Vips vips, MemorySegment pointer) {
    this.vips = vips;
    this.pointer = pointer;
  }

  MemorySegment pointer() {
    if (pointer == null) {
      throw new IllegalStateException("VipsImage already closed");
    }
    return pointer;
  }

  /** Width in pixels. */
  public int width() {
    return call(vips.width);
  }

  /** Height in pixels (of all pages together for a multi-page load). */
  public int height() {
    return call(vips.height);
  }

  /** Number of bands (1 grey, 2 grey + alpha, 3 RGB, 4 RGBA or CMYK, ...). */
  public int bands() {
    return call(vips.bands);
  }

  /** {@code VipsBandFormat}: {@link Vips#FORMAT_UCHAR}, {@link Vips#FORMAT_USHORT}, ... */
  public int format() {
    return call(vips.format);
  }

  /** {@code VipsInterpretation}: {@link Vips#INTERPRETATION_SRGB}, ... */
  public int interpretation() {
    return call(vips.interpretation);
  }

  /**
   * Bytes one pixel takes in memory: bands x the size of the band format ({@code VipsBandFormat}: 1
   * for 8-bit, 2 for 16-bit, 4 for int and float, 8 for double and complex, 16 for double complex).
   */
  public int bytesPerPixel() {
    int sample =
        switch (format()) {
          case 0, 1 -> 1; // uchar, char
          case 2, 3 -> 2; // ushort, short
          case 4, 5, 6 -> 4; // uint, int, float
          case 7, 8 -> 8; // complex, double
          default -> 16; // dpcomplex
        };
    return bands() * sample;
  }

  /** Whether the last band is alpha ({@code vips_image_hasalpha}). */
  public boolean hasAlpha() {
    return call(vips.hasAlpha) != 0;
  }

  /** Number of pages (frames, top-level images) the file holds; 1 when it has no such notion. */
  public int pages() {
    return call(vips.pages);
  }

  /**
   * The EXIF orientation tag (1 to 8, TIFF 6.0 tag 274) the loader found, whatever carried it (a
   * JPEG's APP1, a TIFF's IFD0, a WebP's or PNG's EXIF chunk); 1 (upright) when there is none or it
   * is out of range ({@code vips_image_get_orientation}). This is what {@code vips_thumbnail} and
   * {@code vips_autorot} turn the image by.
   */
  public int orientation() {
    return call(vips.orientation);
  }

  /** The header field of an embedded ICC profile. */
  public static final String ICC_PROFILE = "icc-profile-data";

  /** Whether the header has a field called {@code field} (e.g. {@link #ICC_PROFILE}). */
  public boolean has(String field) {
    return vips.has(pointer(), field);
  }

  /** A blob header field such as {@link #ICC_PROFILE}, copied into Java; empty without it. */
  public Optional<byte[]> blob(String field) {
    return vips.blob(pointer(), field);
  }

  /**
   * An int header field such as {@code page-height} or {@code loop}, or one of the built-in ones
   * ({@code xoffset}, {@code yoffset}: where an {@code extract_area} or {@code smartcrop} cut its
   * result, negated); empty without it.
   */
  public OptionalInt integer(String field) {
    return vips.integer(pointer(), field);
  }

  /**
   * An int-array header field such as {@code delay} (each frame's, in milliseconds), copied into
   * Java; empty without it.
   */
  public Optional<int[]> ints(String field) {
    return vips.ints(pointer(), field);
  }

  /**
   * Sets int header field {@code field} (e.g. {@code page-height}) of this image. libvips images
   * are shared once an operation has used them: call it only on a fresh {@code copy} of one.
   */
  public void set(String field, int value) {
    vips.setInteger(pointer(), field, value);
  }

  /** A string header field such as {@code heif-compression} or {@code vips-loader}. */
  public Optional<String> string(String field) {
    return vips.string(pointer(), field);
  }

  /**
   * Computes every pixel and returns them band-interleaved, row after row: {@code width x height x
   * bands} samples of one byte ({@link Vips#FORMAT_UCHAR}) or two in native order ({@link
   * Vips#FORMAT_USHORT}, returned through {@link #shorts()}).
   *
   * @throws VipsException if decoding fails (corrupt data, an unsupported codec)
   */
  public byte[] bytes() {
    try (Arena call = Arena.ofConfined()) {
      MemorySegment data = compute(call);
      try {
        return data.toArray(JAVA_BYTE);
      } finally {
        vips.free.invokeExact(data);
      }
    } catch (VipsException e) {
      throw e;
    } catch (Throwable e) {
      throw Vips.rethrow(e);
    }
  }

  /**
   * As {@link #bytes()} for a {@link Vips#FORMAT_USHORT} image: the 16-bit samples (read them with
   * {@code & 0xFFFF}).
   */
  public short[] shorts() {
    if (format() != Vips.FORMAT_USHORT) {
      throw new IllegalStateException("not a 16-bit image: format " + format());
    }
    try (Arena call = Arena.ofConfined()) {
      MemorySegment data = compute(call);
      try {
        return data.toArray(JAVA_SHORT.withOrder(ByteOrder.nativeOrder()));
      } finally {
        vips.free.invokeExact(data);
      }
    } catch (VipsException e) {
      throw e;
    } catch (Throwable e) {
      throw Vips.rethrow(e);
    }
  }

  private MemorySegment compute(Arena call) throws Throwable {
    vips.clearError();
    MemorySegment size = call.allocate(JAVA_LONG);
    MemorySegment data = (MemorySegment) vips.writeToMemory.invokeExact(pointer(), size);
    if (data.address() == 0) {
      throw new VipsException("decode: " + vips.takeError());
    }
    return data.reinterpret(size.get(JAVA_LONG, 0));
  }

  private int call(java.lang.invoke.MethodHandle getter) {
    try {
      return (int) getter.invokeExact(pointer());
    } catch (Throwable e) {
      throw Vips.rethrow(e);
    }
  }

  /** Drops this reference; later calls fail with {@link IllegalStateException}. */
  @Override
  public void close() {
    if (pointer != null) {
      MemorySegment p = pointer;
      pointer = null;
      vips.unref(p);
    }
  }
}
