package dev.derive.worker.pdf;

import java.io.IOException;
import org.apache.pdfbox.pdmodel.PDDocument;
import org.apache.pdfbox.rendering.PDFRenderer;
import org.apache.pdfbox.rendering.PageDrawer;
import org.apache.pdfbox.rendering.PageDrawerParameters;

/**
 * A {@link PDFRenderer} that draws a page whole or not at all: its pages are drawn by a {@link
 * CompletePageDrawer}, so rendering throws {@link UndrawablePartException} where PDFBox on its own
 * would log the part it could not decode and return a page with a hole.
 */
final class CompletePageRenderer extends PDFRenderer {
  CompletePageRenderer(PDDocument document) {
    super(document);
  }

  @Override
  protected PageDrawer createPageDrawer(PageDrawerParameters parameters) throws IOException {
    PageDrawer drawer = new CompletePageDrawer(parameters);
    drawer.setAnnotationFilter(getAnnotationsFilter());
    return drawer;
  }
}
