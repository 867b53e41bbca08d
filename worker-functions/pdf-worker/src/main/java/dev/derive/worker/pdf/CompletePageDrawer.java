package dev.derive.worker.pdf;

import dev.derive.protocol.message.StepErrorTypes;
import java.io.IOException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import org.apache.pdfbox.contentstream.operator.MissingOperandException;
import org.apache.pdfbox.contentstream.operator.Operator;
import org.apache.pdfbox.contentstream.operator.OperatorName;
import org.apache.pdfbox.cos.COSArray;
import org.apache.pdfbox.cos.COSBase;
import org.apache.pdfbox.cos.COSDictionary;
import org.apache.pdfbox.cos.COSName;
import org.apache.pdfbox.cos.COSStream;
import org.apache.pdfbox.filter.FilterFactory;
import org.apache.pdfbox.filter.MissingImageReaderException;
import org.apache.pdfbox.pdmodel.MissingResourceException;
import org.apache.pdfbox.pdmodel.PDResources;
import org.apache.pdfbox.pdmodel.font.PDType3CharProc;
import org.apache.pdfbox.pdmodel.font.PDType3Font;
import org.apache.pdfbox.rendering.PageDrawer;
import org.apache.pdfbox.rendering.PageDrawerParameters;
import org.apache.pdfbox.util.Matrix;
import org.apache.pdfbox.util.Vector;

/**
 * A {@link PageDrawer} that refuses to leave holes. PDFBox reports every failure of a
 * content-stream operator to {@link #operatorException}, whose default logs and carries on for a
 * missing image codec ("Cannot read JBIG2 image: jbig2-imageio is not installed"), for any failure
 * to draw an XObject ({@code Do}) and for a missing resource, and rethrows the rest. Here:
 *
 * <ul>
 *   <li>an image that cannot be decoded (no decoder for its format, an unknown filter, data the
 *       decoder rejects), inline or an XObject, and a form XObject that cannot be drawn are {@code
 *       unsupported-input};
 *   <li>a font that cannot be loaded at all ({@code Tf}) is {@code unsupported-input} (a damaged
 *       embedded font is not: PDFBox draws it with a substitute font, as viewers do);
 *   <li>an XObject the page draws but the file does not contain is {@code corrupt-input};
 *   <li>everything else keeps PDFBox's behaviour (a missing operand or an unbalanced graphics state
 *       stack is logged and skipped; other failures are rethrown and fail the render).
 * </ul>
 *
 * <p>Forms, patterns, soft masks and annotation appearances are drawn by this same drawer, so a
 * hole nested in any of them fails the page too.
 *
 * <p>A Type 3 glyph whose procedure shows a glyph already being drawn (itself, or one that shows
 * it) is drawn once, the cycle cut where it closes, as poppler does; PDFBox recursed until the
 * stack overflowed. Type 3 glyphs nest at most {@value #MAX_TYPE3_NESTING} deep.
 */
final class CompletePageDrawer extends PageDrawer {
  /** What each PDF filter makes of an image, with its article, for a sentence. */
  private static final Map<String, String> KINDS =
      Map.ofEntries(
          Map.entry("JPXDecode", "a JPEG 2000"),
          Map.entry("JBIG2Decode", "a JBIG2"),
          Map.entry("DCTDecode", "a JPEG"),
          Map.entry("DCT", "a JPEG"),
          Map.entry("CCITTFaxDecode", "a CCITT fax"),
          Map.entry("CCF", "a CCITT fax"),
          Map.entry("FlateDecode", "a Flate-compressed"),
          Map.entry("Fl", "a Flate-compressed"),
          Map.entry("LZWDecode", "an LZW-compressed"),
          Map.entry("LZW", "an LZW-compressed"),
          Map.entry("RunLengthDecode", "a run-length-encoded"),
          Map.entry("RL", "a run-length-encoded"),
          Map.entry("ASCIIHexDecode", "a hex-encoded"),
          Map.entry("AHx", "a hex-encoded"),
          Map.entry("ASCII85Decode", "an ASCII85-encoded"),
          Map.entry("A85", "an ASCII85-encoded"));

  /** Deepest nesting of Type 3 glyphs drawn inside one another (poppler allows 50 nested). */
  static final int MAX_TYPE3_NESTING = 16;

  /** The Type 3 glyph procedures being drawn, outermost first, by identity. */
  private final Deque<COSStream> type3Glyphs = new ArrayDeque<>();

  CompletePageDrawer(PageDrawerParameters parameters) throws IOException {
    super(parameters);
  }

  @Override
  protected void showType3Glyph(
      Matrix textRenderingMatrix, PDType3Font font, int code, Vector displacement)
      throws IOException {
    PDType3CharProc glyph = font.getCharProc(code);
    if (glyph == null) {
      return; // no procedure for the code: nothing to draw, as PDFBox does
    }
    COSStream procedure = glyph.getCOSObject();
    if (type3Glyphs.size() >= MAX_TYPE3_NESTING
        || type3Glyphs.stream().anyMatch(drawing -> drawing == procedure)) {
      return; // the glyph is already being drawn: the cycle is cut here
    }
    type3Glyphs.push(procedure);
    try {
      super.showType3Glyph(textRenderingMatrix, font, code, displacement);
    } finally {
      type3Glyphs.pop();
    }
  }

  @Override
  protected void operatorException(Operator operator, List<COSBase> operands, IOException exception)
      throws IOException {
    if (exception instanceof UndrawablePartException) {
      throw exception; // from inside a form or pattern: already described
    }
    if (exception instanceof MissingOperandException) {
      super.operatorException(operator, operands, exception); // nothing named: nothing to draw
      return;
    }
    switch (operator.getName()) {
      case OperatorName.DRAW_OBJECT -> throw drawObjectFailure(operands, exception);
      case OperatorName.BEGIN_INLINE_IMAGE ->
          throw imageFailure("inline image", "", filters(inlineFilter(operator)), exception);
      case OperatorName.SET_FONT_AND_SIZE ->
          throw new UndrawablePartException(
              StepErrorTypes.UNSUPPORTED_INPUT,
              "uses a font" + named(operands) + " that cannot be loaded",
              exception);
      default -> {
        if (exception instanceof MissingImageReaderException) {
          throw new UndrawablePartException(
              StepErrorTypes.UNSUPPORTED_INPUT,
              "has an image in a format this service does not decode",
              exception);
        }
        super.operatorException(operator, operands, exception);
      }
    }
  }

  private UndrawablePartException drawObjectFailure(List<COSBase> operands, IOException exception) {
    String name = named(operands);
    if (exception instanceof MissingResourceException) {
      return new UndrawablePartException(
          StepErrorTypes.CORRUPT_INPUT,
          "draws an object" + name + " that is missing from the PDF",
          exception);
    }
    COSBase object = xObject(operands);
    if (object instanceof COSStream stream
        && COSName.IMAGE.equals(stream.getCOSName(COSName.SUBTYPE))) {
      return imageFailure(
          "image", name, filters(stream.getDictionaryObject(COSName.FILTER)), exception);
    }
    if (exception instanceof MissingImageReaderException) {
      return new UndrawablePartException(
          StepErrorTypes.UNSUPPORTED_INPUT,
          "has an image in a format this service does not decode",
          exception);
    }
    return new UndrawablePartException(
        StepErrorTypes.UNSUPPORTED_INPUT,
        "has a drawing" + name + " that cannot be read",
        exception);
  }

  /**
   * The failure of an image: {@code noun} is "image" or "inline image", {@code name} " (/Im1)" or
   * "".
   */
  private static UndrawablePartException imageFailure(
      String noun, String name, List<String> filters, IOException exception) {
    for (String filter : filters) {
      if (!known(filter)) {
        return new UndrawablePartException(
            StepErrorTypes.UNSUPPORTED_INPUT,
            "has an " + noun + name + " compressed with /" + filter + ", which is not a PDF filter",
            exception);
      }
    }
    String kind =
        filters.isEmpty()
            ? "an uncompressed"
            : KINDS.getOrDefault(filters.get(filters.size() - 1), "an");
    if (exception instanceof MissingImageReaderException) {
      return new UndrawablePartException(
          StepErrorTypes.UNSUPPORTED_INPUT,
          "has " + kind + " " + noun + name + ", a format this service does not decode",
          exception);
    }
    return new UndrawablePartException(
        StepErrorTypes.UNSUPPORTED_INPUT,
        "has " + kind + " " + noun + name + " whose data cannot be decoded",
        exception);
  }

  private static boolean known(String filter) {
    try {
      FilterFactory.INSTANCE.getFilter(filter);
      return true;
    } catch (IOException e) {
      return false;
    }
  }

  /** The XObject named by a {@code Do}'s operand in the current resources, without decoding it. */
  private COSBase xObject(List<COSBase> operands) {
    PDResources resources = getResources();
    if (resources == null || operands.isEmpty() || !(operands.get(0) instanceof COSName name)) {
      return null;
    }
    COSDictionary xObjects = resources.getCOSObject().getCOSDictionary(COSName.XOBJECT);
    return xObjects == null ? null : xObjects.getDictionaryObject(name);
  }

  /** The {@code /F} (or {@code /Filter}) entry of an inline image. */
  private static COSBase inlineFilter(Operator operator) {
    COSDictionary parameters = operator.getImageParameters();
    return parameters == null ? null : parameters.getDictionaryObject(COSName.F, COSName.FILTER);
  }

  /** The filter names of a {@code /Filter} entry: a name or an array of names. */
  private static List<String> filters(COSBase filter) {
    List<String> names = new ArrayList<>();
    if (filter instanceof COSName name) {
      names.add(name.getName());
    } else if (filter instanceof COSArray array) {
      for (COSBase element : array) {
        if (element instanceof COSName name) {
          names.add(name.getName());
        }
      }
    }
    return names;
  }

  /** " (/Name)" for the resource an operator names, or "" when it names none. */
  private static String named(List<COSBase> operands) {
    return !operands.isEmpty() && operands.get(0) instanceof COSName name
        ? " (/" + name.getName() + ")"
        : "";
  }
}
