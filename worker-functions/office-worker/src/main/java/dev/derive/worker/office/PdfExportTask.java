package dev.derive.worker.office;

import com.sun.star.beans.PropertyValue;
import com.sun.star.drawing.XDrawPagesSupplier;
import com.sun.star.frame.XModel;
import com.sun.star.frame.XStorable;
import com.sun.star.lang.XComponent;
import com.sun.star.uno.UnoRuntime;
import com.sun.star.view.XRenderable;
import dev.derive.protocol.message.StepErrorTypes;
import dev.derive.worker.runtime.PermanentStepFailure;
import java.io.File;
import java.util.Map;
import java.util.OptionalInt;
import org.jodconverter.core.document.DocumentFamily;
import org.jodconverter.core.job.SourceDocumentSpecsFromFile;
import org.jodconverter.core.office.OfficeContext;
import org.jodconverter.core.office.OfficeException;
import org.jodconverter.local.office.LocalOfficeContext;
import org.jodconverter.local.office.LocalOfficeUtils;
import org.jodconverter.local.office.PasswordProtectedException;
import org.jodconverter.local.office.utils.Props;
import org.jodconverter.local.office.utils.WrappedUnoException;
import org.jodconverter.local.task.AbstractLocalOfficeTask;

/**
 * One conversion, run by the office process: load the document (JODConverter's load, which turns a
 * password prompt into its {@link PasswordProtectedException}), count its pages as the PDF export
 * will ({@link XRenderable#getRendererCount}: Writer pages, printed Calc pages, slides), refuse it
 * when the pages to write exceed the limit, and store pages 1 to {@code lastPage} with the PDF
 * export filter of the document's family.
 */
final class PdfExportTask extends AbstractLocalOfficeTask {
  private final File target;
  private final OptionalInt lastPage;
  private final int maxPages;

  /**
   * @param source the document
   * @param target the PDF to write
   * @param loadProperties how the document is loaded ({@link OfficeProcess#LOAD_PROPERTIES})
   * @param lastPage the last page to write (pages 1 to it; fewer if the document is shorter), or
   *     empty for the whole document
   * @param maxPages the most pages one conversion writes
   */
  PdfExportTask(
      File source,
      File target,
      Map<String, Object> loadProperties,
      OptionalInt lastPage,
      int maxPages) {
    super(new SourceDocumentSpecsFromFile(source), false, loadProperties);
    this.target = target;
    this.lastPage = lastPage;
    this.maxPages = maxPages;
  }

  /**
   * Loads, counts, checks and stores the document, then closes it.
   *
   * @throws PasswordProtectedException when LibreOffice asked for the document's password
   * @throws PermanentStepFailure {@code corrupt-input} when LibreOffice cannot open the document,
   *     {@code unsupported-input} when it has no page or cannot be written as PDF, {@code
   *     input-too-large} when the pages to write exceed the limit (JODConverter hands it to the
   *     caller as the cause of an {@code OfficeException})
   */
  @Override
  public void execute(OfficeContext context) throws OfficeException {
    XComponent document = load((LocalOfficeContext) context);
    try {
      DocumentFamily family = LocalOfficeUtils.getDocumentFamilySilently(document);
      if (family == null) {
        throw new PermanentStepFailure(
            StepErrorTypes.UNSUPPORTED_INPUT,
            "LibreOffice opened the document as neither text, spreadsheet, presentation nor"
                + " drawing");
      }
      int pageCount = countPages(document, family);
      if (pageCount < 1) {
        throw new PermanentStepFailure(
            StepErrorTypes.UNSUPPORTED_INPUT,
            "the document has no page to print (nothing LibreOffice lays out on paper)");
      }
      int pages = Math.min(lastPage.orElse(pageCount), pageCount);
      if (pages > maxPages) {
        throw new PermanentStepFailure(
            StepErrorTypes.INPUT_TOO_LARGE,
            lastPage.isPresent()
                ? "page "
                    + lastPage.getAsInt()
                    + " needs the document's first "
                    + pages
                    + " pages converted, more than the "
                    + maxPages
                    + " one office conversion writes"
                : "the document has "
                    + pageCount
                    + " pages, more than the "
                    + maxPages
                    + " one office conversion writes; a page preview converts only the pages up to"
                    + " its own");
      }
      store(document, family, pages);
    } finally {
      closeDocument(document);
    }
  }

  /**
   * Loads the document; a document LibreOffice refuses (its type detection gives up, the filter
   * fails, no document comes back) is {@code corrupt-input}. A password prompt stays JODConverter's
   * {@link PasswordProtectedException}, and a lost connection (the office process died) stays the
   * runtime exception the UNO bridge threw, for {@link OfficeProcess} to tell them apart.
   */
  private XComponent load(LocalOfficeContext context) throws OfficeException {
    try {
      return loadDocument(context, source.getFile());
    } catch (PasswordProtectedException e) {
      throw e;
    } catch (OfficeException | NullPointerException e) {
      throw new PermanentStepFailure(
          StepErrorTypes.CORRUPT_INPUT,
          "LibreOffice cannot open the document: it is damaged, cut short or not of the type it"
              + " claims",
          e);
    }
  }

  /**
   * The pages the PDF export writes: laid-out pages of a text document (its view's {@code
   * PageCount}), slides or drawing pages (hidden slides included: they are exported too), printed
   * pages of a spreadsheet ({@link XRenderable}, as the export counts them). Asking Writer through
   * {@code XRenderable} without the export's render device crashed LibreOffice 7.4 on a document
   * with embedded objects, hence the view.
   */
  private static int countPages(XComponent document, DocumentFamily family) {
    try {
      return switch (family) {
        case TEXT, WEB ->
            (Integer)
                Props.getProperty(
                    UnoRuntime.queryInterface(XModel.class, document).getCurrentController(),
                    "PageCount");
        case PRESENTATION, DRAWING ->
            UnoRuntime.queryInterface(XDrawPagesSupplier.class, document).getDrawPages().getCount();
        case SPREADSHEET ->
            UnoRuntime.queryInterface(XRenderable.class, document)
                .getRendererCount(document, new PropertyValue[0]);
      };
    } catch (com.sun.star.lang.IllegalArgumentException | WrappedUnoException e) {
      return 0;
    }
  }

  private void store(XComponent document, DocumentFamily family, int pages) {
    String filter =
        switch (family) {
          case TEXT -> "writer_pdf_Export";
          case WEB -> "writer_web_pdf_Export";
          case SPREADSHEET -> "calc_pdf_Export";
          case PRESENTATION -> "impress_pdf_Export";
          case DRAWING -> "draw_pdf_Export";
        };
    PropertyValue[] filterData = {
      Props.makeProperty("PageRange", "1-" + pages),
      // a preview shows every slide, as the slide sorter does; the page count includes them
      Props.makeProperty("ExportHiddenSlides", true)
    };
    try {
      UnoRuntime.queryInterface(XStorable.class, document)
          .storeToURL(
              LocalOfficeUtils.toUrl(target),
              new PropertyValue[] {
                Props.makeProperty("FilterName", filter),
                Props.makeProperty("FilterData", filterData)
              });
    } catch (com.sun.star.io.IOException e) {
      // ErrorCodeIOException included: the PDF export filter gave up on this document
      throw new PermanentStepFailure(
          StepErrorTypes.UNSUPPORTED_INPUT,
          "LibreOffice opened the document but could not write it as PDF",
          e);
    }
  }
}
