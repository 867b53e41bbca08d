package dev.derive.worker.pdf;

import dev.derive.protocol.message.StepErrorTypes;
import dev.derive.worker.runtime.PermanentStepFailure;
import java.io.IOException;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.Set;
import org.apache.pdfbox.cos.COSBase;
import org.apache.pdfbox.cos.COSName;
import org.apache.pdfbox.pdmodel.PDPage;
import org.apache.pdfbox.pdmodel.PDResources;
import org.apache.pdfbox.pdmodel.graphics.PDXObject;
import org.apache.pdfbox.pdmodel.graphics.form.PDFormXObject;
import org.apache.pdfbox.pdmodel.graphics.image.PDImageXObject;

/**
 * Refuses a page before it is drawn when one of its images would not fit the budget decoded: every
 * image XObject of the page's resources and, recursively, of its forms' resources, is measured by
 * the {@code /Width} and {@code /Height} of its dictionary, without decoding it. A 20000 × 20000
 * image on a page drawn as a 256-pixel thumbnail is still decoded whole by PDFBox (1.6 GB as ARGB),
 * which ran the worker out of memory in seconds and, retried, for minutes (issue 26 item 15). A
 * form that includes itself is measured once. Inline images are small by the PDF specification's
 * advice (at most 4 KB) and not counted.
 */
final class PageImageBudget {
  private final long maxPixels;

  /**
   * @param maxPixels the most pixels one image may have decoded (the worker's {@code
   *     MAX_IMAGE_PIXELS}, the same limit as the rendered page's)
   */
  PageImageBudget(long maxPixels) {
    this.maxPixels = maxPixels;
  }

  /**
   * Checks page {@code number} (from 1).
   *
   * @throws PermanentStepFailure {@code input-too-large} naming the first image over the budget
   */
  void check(PDPage page, int number) throws IOException {
    check(page.getResources(), number, Collections.newSetFromMap(new IdentityHashMap<>()));
  }

  private void check(PDResources resources, int number, Set<COSBase> seen) throws IOException {
    if (resources == null || !seen.add(resources.getCOSObject())) {
      return;
    }
    for (COSName name : resources.getXObjectNames()) {
      PDXObject object = resources.getXObject(name);
      if (object instanceof PDImageXObject image) {
        long pixels = (long) image.getWidth() * image.getHeight();
        if (pixels > maxPixels) {
          throw new PermanentStepFailure(
              StepErrorTypes.INPUT_TOO_LARGE,
              "page "
                  + number
                  + " holds an image of "
                  + image.getWidth()
                  + "x"
                  + image.getHeight()
                  + " pixels, over the limit of "
                  + maxPixels
                  + " pixels for one image");
        }
      } else if (object instanceof PDFormXObject form) {
        check(form.getResources(), number, seen);
      }
    }
  }
}
