package dev.derive.worker.pdf;

import java.awt.image.BufferedImage;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import org.apache.pdfbox.cos.COSDictionary;
import org.apache.pdfbox.cos.COSName;
import org.apache.pdfbox.filter.FilterFactory;

/**
 * Writes a bilevel image as a JBIG2 stream in the embedded organisation a PDF's {@code
 * /JBIG2Decode} expects (ISO/IEC 14492 Annex D.3: segments without a file header): a page
 * information segment, one immediate lossless generic region coded with MMR, and an end of page.
 * MMR is CCITT T.6 (Group 4) coding, which PDFBox's CCITT fax filter can encode; nothing else here
 * writes JBIG2, and jbig2-imageio only decodes.
 */
final class Jbig2 {
  private static final int PAGE_INFORMATION = 48;
  private static final int IMMEDIATE_LOSSLESS_GENERIC_REGION = 39;
  private static final int END_OF_PAGE = 49;

  private Jbig2() {}

  /** The JBIG2 segments of {@code image}; black pixels (RGB 0) become JBIG2 1-bits. */
  static byte[] embedded(BufferedImage image) throws IOException {
    int width = image.getWidth();
    int height = image.getHeight();
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    DataOutputStream out = new DataOutputStream(bytes);

    ByteArrayOutputStream pageInformation = new ByteArrayOutputStream();
    DataOutputStream page = new DataOutputStream(pageInformation);
    page.writeInt(width);
    page.writeInt(height);
    page.writeInt(0); // x resolution unknown
    page.writeInt(0); // y resolution unknown
    page.writeByte(0x01); // eventually lossless, default pixel 0, combination OR
    page.writeShort(0); // not striped
    segment(out, 0, PAGE_INFORMATION, pageInformation.toByteArray());

    ByteArrayOutputStream regionBytes = new ByteArrayOutputStream();
    DataOutputStream region = new DataOutputStream(regionBytes);
    region.writeInt(width);
    region.writeInt(height);
    region.writeInt(0); // x
    region.writeInt(0); // y
    region.writeByte(0); // external combination operator OR
    region.writeByte(0x01); // generic region flags: MMR
    region.write(mmr(image));
    segment(out, 1, IMMEDIATE_LOSSLESS_GENERIC_REGION, regionBytes.toByteArray());

    segment(out, 2, END_OF_PAGE, new byte[0]);
    out.flush();
    return bytes.toByteArray();
  }

  /** A segment header (7.2) with a one-byte page association to page 1, then the data. */
  private static void segment(DataOutputStream out, int number, int type, byte[] data)
      throws IOException {
    out.writeInt(number);
    out.writeByte(type); // not deferred, one-byte page association
    out.writeByte(0); // no referred-to segments, no retention flags
    out.writeByte(1); // page 1
    out.writeInt(data.length);
    out.write(data);
  }

  /** Group 4 coding of the rows of {@code image}, packed one bit a pixel, 1 = black. */
  private static byte[] mmr(BufferedImage image) throws IOException {
    int width = image.getWidth();
    int rowBytes = (width + 7) / 8;
    byte[] packed = new byte[rowBytes * image.getHeight()];
    for (int y = 0; y < image.getHeight(); y++) {
      for (int x = 0; x < width; x++) {
        if ((image.getRGB(x, y) & 0xFFFFFF) == 0) {
          packed[y * rowBytes + x / 8] |= (byte) (0x80 >>> (x % 8));
        }
      }
    }
    COSDictionary parameters = new COSDictionary();
    parameters.setInt(COSName.COLUMNS, width);
    parameters.setInt(COSName.ROWS, image.getHeight());
    parameters.setInt(COSName.K, -1);
    ByteArrayOutputStream coded = new ByteArrayOutputStream();
    FilterFactory.INSTANCE
        .getFilter(COSName.CCITTFAX_DECODE)
        .encode(new ByteArrayInputStream(packed), coded, parameters, 0);
    return coded.toByteArray();
  }
}
