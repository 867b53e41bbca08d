package dev.derive.worker.image;

import com.twelvemonkeys.imageio.metadata.Directory;
import com.twelvemonkeys.imageio.metadata.Entry;
import com.twelvemonkeys.imageio.metadata.jpeg.JPEG;
import com.twelvemonkeys.imageio.metadata.jpeg.JPEGSegment;
import com.twelvemonkeys.imageio.metadata.jpeg.JPEGSegmentUtil;
import com.twelvemonkeys.imageio.metadata.tiff.TIFF;
import com.twelvemonkeys.imageio.metadata.tiff.TIFFReader;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;
import java.util.List;
import javax.imageio.ImageIO;
import javax.imageio.stream.ImageInputStream;
import javax.imageio.stream.MemoryCacheImageInputStream;

/**
 * An input's EXIF orientation tag, read with TwelveMonkeys' metadata readers, for the decoders that
 * report the orientation rather than apply it: {@link SourceImage} (ImageIO) and the JPEG and TIFF
 * files {@link VipsSource} opens, so the size they report is the upright one.
 */
final class ExifOrientation {
  private static final System.Logger LOG = System.getLogger(ExifOrientation.class.getName());

  private ExifOrientation() {}

  /**
   * Reads the orientation tag: from the EXIF APP1 segment of a JPEG, from IFD0 of a TIFF. Broken or
   * missing metadata means upright: it never fails the step.
   */
  static Orientation read(Path file, String format) {
    if (!format.equals("jpeg") && !format.equals("tiff")) {
      return Orientation.TOP_LEFT;
    }
    try (ImageInputStream in = ImageIO.createImageInputStream(file.toFile())) {
      Directory ifd0;
      if (format.equals("tiff")) {
        ifd0 = new TIFFReader().read(in);
      } else {
        List<JPEGSegment> exif = JPEGSegmentUtil.readSegments(in, JPEG.APP1, "Exif");
        if (exif.isEmpty()) {
          return Orientation.TOP_LEFT;
        }
        ifd0 = new TIFFReader().read(tiffStream(exif.get(0)));
      }
      Entry entry = ifd0.getEntryById(TIFF.TAG_ORIENTATION);
      return entry != null && entry.getValue() instanceof Number n
          ? Orientation.ofTag(n.intValue())
          : Orientation.TOP_LEFT;
    } catch (IOException | RuntimeException e) {
      LOG.log(System.Logger.Level.DEBUG, "unreadable orientation, assuming upright", e);
      return Orientation.TOP_LEFT;
    }
  }

  /** The TIFF structure inside an Exif segment, after the identifier's padding byte. */
  private static ImageInputStream tiffStream(JPEGSegment segment) throws IOException {
    byte[] data;
    try (InputStream in = segment.data()) {
      data = in.readAllBytes();
    }
    int start = 0;
    // "Exif\0\0": the identifier is null-terminated, one pad byte usually remains.
    while (start < data.length && data[start] == 0) {
      start++;
    }
    return new MemoryCacheImageInputStream(
        new ByteArrayInputStream(data, start, data.length - start));
  }
}
