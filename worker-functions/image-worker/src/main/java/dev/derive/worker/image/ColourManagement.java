package dev.derive.worker.image;

import com.twelvemonkeys.imageio.color.ColorSpaces;
import java.awt.color.CMMException;
import java.awt.color.ColorSpace;
import java.awt.color.ICC_ColorSpace;
import java.awt.color.ProfileDataException;
import java.awt.image.BufferedImage;
import java.awt.image.ColorConvertOp;
import java.awt.image.ColorModel;

/**
 * Brings decoded pixels into sRGB, the colour space of every output (which carries no ICC profile).
 * An image decoded in another colour space (an embedded ICC profile such as Adobe RGB or linear
 * RGB; TwelveMonkeys already converts CMYK and YCCK JPEGs to RGB) is converted with the JDK's
 * colour management module ({@link ColorConvertOp}); an embedded sRGB profile (TwelveMonkeys'
 * {@link ColorSpaces#isCS_sRGB}) and grey images stay as they are.
 */
final class ColourManagement {
  private static final System.Logger LOG = System.getLogger(ColourManagement.class.getName());

  private ColourManagement() {}

  /**
   * Returns {@code image} in sRGB: itself if it already is (or is grey), else a {@code
   * TYPE_INT_RGB}/{@code TYPE_INT_ARGB} copy converted from its colour space. A profile the colour
   * management module rejects (a broken embedded profile) leaves the pixels as they are, read as
   * sRGB: the image still decodes, as browsers show it.
   */
  static BufferedImage toSrgb(BufferedImage image) {
    ColorModel model = image.getColorModel();
    ColorSpace space = model.getColorSpace();
    if (space.isCS_sRGB()
        || space.getType() == ColorSpace.TYPE_GRAY
        || (space instanceof ICC_ColorSpace icc && ColorSpaces.isCS_sRGB(icc.getProfile()))) {
      return image;
    }
    BufferedImage out =
        new BufferedImage(
            image.getWidth(),
            image.getHeight(),
            model.hasAlpha() ? BufferedImage.TYPE_INT_ARGB : BufferedImage.TYPE_INT_RGB);
    try {
      return new ColorConvertOp(null).filter(image, out);
    } catch (CMMException | ProfileDataException | IllegalArgumentException e) {
      LOG.log(
          System.Logger.Level.WARNING,
          "cannot convert " + space + " to sRGB, keeping the pixel values: " + e);
      return image;
    }
  }
}
