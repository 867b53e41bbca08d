package dev.derive.worker.pdf;

import dev.derive.protocol.message.StepErrorTypes;
import dev.derive.worker.runtime.PermanentStepFailure;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import javax.imageio.ImageIO;
import org.apache.pdfbox.pdmodel.PDDocument;
import org.apache.pdfbox.pdmodel.PDPage;
import org.apache.pdfbox.pdmodel.common.PDRectangle;
import org.apache.pdfbox.rendering.ImageType;

/**
 * Draws one page to an opaque RGB PNG. The rendered size is computed from the page's crop box (in
 * points, 1/72 inch, turned by the page's {@code /Rotate}) before drawing, and a page over the
 * pixel limit is refused without allocating it, as is a page holding an image over it ({@link
 * PageImageBudget}). The page is drawn directly at that size (a 256-pixel thumbnail of an A0 page
 * never exists at 150 DPI first; the planner tells the page the box of a target's resize for this),
 * and whole or not at all: a part PDFBox cannot decode fails the step ({@link CompletePageDrawer})
 * instead of leaving a hole.
 */
final class PageRenderer {
  private static final float POINTS_PER_INCH = 72f;

  static {
    ImageIO.setUseCache(false); // encode in memory: Lambda's /tmp is small and must stay clean
  }

  private final long maxPixels;

  PageRenderer(long maxPixels) {
    this.maxPixels = maxPixels;
  }

  void render(PDDocument document, RenderRequest request, Path output) throws IOException {
    int pages = document.getNumberOfPages();
    if (request.page() > pages) {
      throw new PermanentStepFailure(
          StepErrorTypes.INVALID_STEP,
          "page " + request.page() + " is out of range: the PDF has " + pages + " page(s)");
    }
    int index = request.page() - 1;
    PDPage page = document.getPage(index);
    PDRectangle box = page.getCropBox();
    boolean turned = page.getRotation() % 180 != 0;
    float widthPoints = turned ? box.getHeight() : box.getWidth();
    float heightPoints = turned ? box.getWidth() : box.getHeight();
    if (!(widthPoints > 0 && heightPoints > 0)) {
      throw new PermanentStepFailure(
          StepErrorTypes.CORRUPT_INPUT, "page " + request.page() + " has an empty crop box");
    }
    float scale = scale(request, widthPoints, heightPoints);
    long width = Math.max(1, (long) Math.floor(widthPoints * scale));
    long height = Math.max(1, (long) Math.floor(heightPoints * scale));
    if (width * height > maxPixels) {
      throw new PermanentStepFailure(
          StepErrorTypes.OUTPUT_TOO_LARGE,
          "page "
              + request.page()
              + " would render at "
              + width
              + "x"
              + height
              + " pixels, over the limit of "
              + maxPixels
              + " pixels");
    }
    new PageImageBudget(maxPixels).check(page, request.page());
    BufferedImage image;
    try {
      image = new CompletePageRenderer(document).renderImage(index, scale, ImageType.RGB);
    } catch (UndrawablePartException e) {
      throw new PermanentStepFailure(e.type(), "page " + request.page() + " " + e.getMessage(), e);
    } catch (IOException | RuntimeException e) {
      throw new PermanentStepFailure(
          StepErrorTypes.CORRUPT_INPUT,
          "page " + request.page() + " cannot be drawn: its content is damaged",
          e);
    }
    try (OutputStream out = Files.newOutputStream(output)) {
      if (!ImageIO.write(image, "png", out)) {
        throw new IllegalStateException("no PNG writer registered");
      }
    }
  }

  /**
   * Pixels per point: the DPI's; or with a box, the largest that fits the page inside it (the
   * smallest that covers it when {@link RenderRequest#covers()}), but not above the DPI's when
   * {@link RenderRequest#withoutEnlargement()}.
   */
  private static float scale(RenderRequest request, float widthPoints, float heightPoints) {
    float atDpi = request.dpi() / POINTS_PER_INCH;
    if (!request.fitsBox()) {
      return atDpi;
    }
    Integer width = request.width();
    Integer height = request.height();
    float byWidth = width == null ? Float.NaN : width / widthPoints;
    float byHeight = height == null ? Float.NaN : height / heightPoints;
    boolean covers = request.covers() && width != null && height != null;
    float scale =
        width == null
            ? byHeight
            : height == null
                ? byWidth
                : covers ? Math.max(byWidth, byHeight) : Math.min(byWidth, byHeight);
    if (request.withoutEnlargement() && scale >= atDpi) {
      return atDpi;
    }
    // In float, 842 pt x (256 / 842) is 255.99998, which PDFBox rounds down to 255 pixels: step the
    // scale up a few ulps until the side that binds fills its box (for a cover, until both sides
    // do), never past either box side when fitting inside.
    for (int step = 0; step < 16; step++) {
      float next = Math.nextUp(scale);
      if (covers
          ? reaches(scale, widthPoints, width) && reaches(scale, heightPoints, height)
          : reaches(scale, widthPoints, width)
              || reaches(scale, heightPoints, height)
              || exceeds(next, widthPoints, width)
              || exceeds(next, heightPoints, height)) {
        break;
      }
      scale = next;
    }
    return scale;
  }

  /** Whether {@code points} at {@code scale} render to at least {@code box} pixels (as PDFBox). */
  private static boolean reaches(float scale, float points, Integer box) {
    return box != null && Math.floor(points * scale) >= box;
  }

  /** Whether {@code points} at {@code scale} render to more than {@code box} pixels (as PDFBox). */
  private static boolean exceeds(float scale, float points, Integer box) {
    return box != null && Math.floor(points * scale) > box;
  }
}
