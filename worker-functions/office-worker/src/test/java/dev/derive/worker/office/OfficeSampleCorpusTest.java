package dev.derive.worker.office;

import static dev.derive.worker.runtime.SampleCorpus.mediaType;
import static dev.derive.worker.runtime.SampleCorpus.samples;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.derive.protocol.MediaTypes;
import dev.derive.worker.runtime.NoTempFilesLeft;
import dev.derive.worker.runtime.PermanentStepFailure;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.pdfbox.pdmodel.common.PDRectangle;
import org.apache.pdfbox.text.TextPosition;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Every office document of the shared sample corpus (system property {@code derive.samples})
 * through the office capability and the real LibreOffice, each with what its manifest's {@code
 * special} column says a correct result shows: the page count, a first page that is drawn, the text
 * visible where the PDF puts it, the landscape page, the scripts drawn with real glyphs, or the
 * specific error of a protected or broken file. The input media type is the manifest's, as the
 * coordinator would send it.
 */
class OfficeSampleCorpusTest {
  /** Least marked pixels of a drawn first page at 72 dpi (a blank page has none). */
  private static final int DRAWN_PAGE_PIXELS = 100;

  /** Least ink where a phrase is drawn (black text on white fills its box well above this). */
  private static final double DRAWN_TEXT_INK = 0.05;

  /**
   * The shared LibreOffice is started before the temp folder is listed: it lives as long as the
   * JVM.
   */
  @RegisterExtension
  static final NoTempFilesLeft NO_TEMP_FILES_LEFT = NoTempFilesLeft.after(TestOffice::process);

  @TempDir Path dir;

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "documents/quick.docx | 1 | The quick brown fox jumps over the lazy dog",
        "documents/quick.odt | 1 | The quick brown fox jumps over the lazy dog",
        "documents/quick.pptx | 1 | The quick brown fox jumps over the lazy dog",
        "documents/quick.xlsx | 2 | The quick brown fox jumps over the lazy dog",
        "documents/sample.rtf | 1 | The quick brown fox jumps over the lazy dog",
        "office/sample-docx.docx | 5 | Docx sample document",
        "office/page-layout.docx | 2 | page1",
        "office/arabic_align.docx | 1 | Interaction between",
        "office/FontEmbedded.docx | 1 | It uses Calibri",
        "office/testRTFJapanese.rtf | 2 | ゾルゲと尾崎",
        "office/testExternalRefs.docx | 1 | [Image placeholder]",
        "office/56812.pptx | 1 | Embedded",
        "office/testWORD_macros.docm | 1 | The quick brown fox.",
        "office/testODSMacro.ods | 1 | Sheet1",
        "office/stress024.xlsx | 5 | KSU-Buy/Sell",
        "office/testMSChart-govdocs-428996.xls | 2 | 2005",
        "office/testWORD_3imgs.doc | 1 | The quick brown fox jumps over the lazy dog",
        "office/testODFwithOOo3.odt | 2 | Apache Tika Test Document",
        "office/testODP_NPE.odp | 37 | Medicine and Health Care"
      })
  void convertsEveryPageWithTheFirstDrawnAndItsTextVisible(String sample, int pages, String phrase)
      throws IOException {
    try (ConvertedPdf pdf = convert(sample, Map.of())) {
      assertThat(pdf.pages()).as("pages of %s", sample).isEqualTo(pages);
      assertThat(ConvertedPdf.markedPixels(pdf.render(1, 72)))
          .as("marked pixels of page 1")
          .isGreaterThan(DRAWN_PAGE_PIXELS);
      assertThat(pdf.text(1)).as("text of page 1").contains(phrase);
      assertThat(inkWhereDrawn(pdf, phrase))
          .as("ink where '%s' is drawn", phrase)
          .isGreaterThan(DRAWN_TEXT_INK);
    }
  }

  /** The deck's 48 slides, hidden ones included, as its slide sorter lists them. */
  @Test
  void deckBecomesOnePagePerSlide() throws IOException {
    try (ConvertedPdf pdf = convert("office/2411-Performance_Up.pptx", Map.of())) {
      assertThat(pdf.pages()).isEqualTo(48);
      assertThat(pdf.text(1)).contains("Apache Performance Tuning Part 1: Scaling Up");
      assertThat(pdf.size(1).getWidth()).isGreaterThan(pdf.size(1).getHeight());
    }
  }

  @Test
  void aSectionInLandscapeStaysLandscape() throws IOException {
    try (ConvertedPdf pdf = convert("office/page-layout.docx", Map.of())) {
      PDRectangle portrait = pdf.size(1);
      PDRectangle landscape = pdf.size(2);

      // A4: 210 x 297 mm is 595 x 842 pt
      assertThat(portrait.getWidth()).isCloseTo(595, org.assertj.core.data.Offset.offset(2f));
      assertThat(portrait.getHeight()).isCloseTo(842, org.assertj.core.data.Offset.offset(2f));
      assertThat(landscape.getWidth()).isCloseTo(842, org.assertj.core.data.Offset.offset(2f));
      assertThat(landscape.getHeight()).isCloseTo(595, org.assertj.core.data.Offset.offset(2f));
      assertThat(pdf.text(2)).isEqualTo("page2");
    }
  }

  /**
   * Right-to-left text: Arabic glyphs, none a tofu box, and the right-aligned paragraph ({@code
   * w:jc="right"}, "وثيقة تجربة : 123456789") set against the right margin.
   */
  @Test
  void arabicIsDrawnWithRealGlyphsAndAlignedRight() throws IOException {
    try (ConvertedPdf pdf = convert("office/arabic_align.docx", Map.of())) {
      assertThat(pdf.text(1)).contains("المدينة", "البريد", "تجربة");
      assertThat(pdf.notdefCharacters(1)).as("characters drawn as tofu").isEmpty();
      List<TextPosition> positions = pdf.positions(1);
      TextPosition nine =
          positions.stream().filter(p -> p.getUnicode().equals("9")).findFirst().orElseThrow();
      List<TextPosition> line =
          positions.stream()
              .filter(p -> Math.abs(p.getYDirAdj() - nine.getYDirAdj()) < 2)
              .filter(p -> isArabic(p.getUnicode()))
              .toList();
      assertThat(line).as("Arabic characters on the line of 123456789").hasSizeGreaterThan(5);
      float width = pdf.size(1).getWidth();
      assertThat(line).allSatisfy(p -> assertThat(p.getXDirAdj()).isGreaterThan(width / 2));
    }
  }

  @Test
  void japaneseIsDrawnWithRealGlyphs() throws IOException {
    try (ConvertedPdf pdf = convert("office/testRTFJapanese.rtf", Map.of())) {
      assertThat(pdf.text(1)).contains("ゾルゲと尾崎、淡々と最期", "古書店で処刑記録見つかる");
      assertThat(pdf.notdefCharacters(1)).as("characters drawn as tofu").isEmpty();
      assertThat(pdf.notdefCharacters(2)).as("characters drawn as tofu").isEmpty();
    }
  }

  /**
   * The tofu check can fail: a character no installed font has (U+0378 is unassigned) is drawn with
   * the empty {@code .notdef} of Liberation Serif, and {@link ConvertedPdf#notdefCharacters} finds
   * it (the text layer still holds the character, so reading the text back alone would not).
   */
  @Test
  void aCharacterNoFontHasIsFoundAsTofu() throws IOException {
    Path rtf = Files.writeString(dir.resolve("tofu.rtf"), "{\\rtf1\\ansi A\\u888?B\\par}");
    Path output = Files.createFile(dir.resolve("tofu.pdf"));
    TestOffice.transformer()
        .transform(TestOffice.step(MediaTypes.APPLICATION_RTF, Map.of()), rtf, output);

    try (ConvertedPdf pdf = ConvertedPdf.read(output)) {
      assertThat(pdf.text(1)).isEqualTo("A\u0378B");
      assertThat(pdf.notdefCharacters(1)).isEqualTo("\u0378");
    }
  }

  /** Calibri is embedded; LibreOffice draws it or its metric twin Carlito, never a tofu box. */
  @Test
  void latinTextInAnEmbeddedFontIsDrawnWithRealGlyphs() throws IOException {
    try (ConvertedPdf pdf = convert("office/FontEmbedded.docx", Map.of())) {
      assertThat(pdf.notdefCharacters(1)).isEmpty();
      assertThat(
              pdf.positions(1).stream()
                  .filter(p -> p.getUnicode().equals("H"))
                  .map(p -> p.getFont().getName())
                  .findFirst())
          .hasValueSatisfying(font -> assertThat(font).containsAnyOf("Calibri", "Carlito"));
    }
  }

  @ParameterizedTest
  @CsvSource({
    "office/bug53475-password-is-pass.docx, password-required",
    "documents/testWORD_protected_passtika.docx, password-required",
    "office/truncated62886.docx, corrupt-input",
    "documents/quick_corrupted.pptx, corrupt-input"
  })
  void failsPermanently(String sample, String type) {
    assertThatThrownBy(() -> convert(sample, Map.of()).close())
        .as("converting %s", sample)
        .isInstanceOf(PermanentStepFailure.class)
        .extracting(e -> ((PermanentStepFailure) e).type())
        .isEqualTo(type);
  }

  /**
   * A PowerPoint 97 file written by an old Apache POI, whose persist identifier seed is 3 while its
   * persist directory lists 7 objects: LibreOffice refuses it ("source file could not be loaded",
   * soffice --convert-to too) until {@link PowerPointPersistRepair} mends that one field. Its five
   * slides each show one picture of the Pictures stream (JPEG, PNG, WMF, PICT, EMF) at its anchor
   * (in points, as Apache POI reads them) on an otherwise blank page.
   */
  @Test
  void aPowerPointFileWithAnUndercountedPersistDirectoryIsMendedAndEveryPictureDrawn()
      throws IOException {
    int[][] anchors = {
      {0, 0, 192, 176}, {0, 0, 130, 92}, {50, 50, 200, 200}, {50, 50, 200, 200}, {50, 50, 200, 200}
    };
    try (ConvertedPdf pdf = convert("office/pictures.ppt", Map.of())) {
      assertThat(pdf.pages()).isEqualTo(5);
      for (int page = 1; page <= 5; page++) {
        BufferedImage image = pdf.render(page, 72);
        int[] a = anchors[page - 1];
        BufferedImage picture = image.getSubimage(a[0], a[1], a[2], a[3]);
        int all = ConvertedPdf.markedPixels(image);
        int inside = ConvertedPdf.markedPixels(picture);
        assertThat(inside).as("marked pixels of the picture on page %d", page).isGreaterThan(500);
        assertThat(all - inside).as("marked pixels beside it on page %d", page).isLessThan(50);
      }
    }
  }

  @Test
  void everyOfficeFileOfTheManifestHasAnExpectation() throws IOException {
    Set<String> expected =
        Stream.concat(
                csvSamples("convertsEveryPageWithTheFirstDrawnAndItsTextVisible"),
                csvSamples("failsPermanently"))
            .collect(Collectors.toSet());
    expected.add("office/2411-Performance_Up.pptx");
    expected.add("office/pictures.ppt");

    List<String> office =
        Files.readAllLines(samples().resolve("MANIFEST.tsv")).stream()
            .skip(1)
            .map(line -> line.split("\t")[0])
            .filter(path -> path.startsWith("office/"))
            .toList();

    assertThat(office).hasSize(18);
    assertThat(expected).containsAll(office);
  }

  private ConvertedPdf convert(String sample, Map<String, Object> params) throws IOException {
    Path output = Files.createFile(dir.resolve(Path.of(sample).getFileName() + ".pdf"));
    TestOffice.transformer()
        .transform(TestOffice.step(mediaType(sample), params), samples().resolve(sample), output);
    return ConvertedPdf.read(output);
  }

  /** Ink in the box where the PDF draws the first occurrence of {@code phrase} on page 1. */
  private static double inkWhereDrawn(ConvertedPdf pdf, String phrase) throws IOException {
    List<TextPosition> positions = pdf.positions(1);
    String visible =
        positions.stream()
            .map(p -> p.getUnicode().replaceAll("\\s", ""))
            .collect(Collectors.joining());
    String wanted = phrase.replaceAll("\\s", "");
    int start = visible.indexOf(wanted);
    assertThat(start).as("'%s' among the drawn characters", phrase).isNotNegative();
    // positions and characters line up when every position holds one non-blank character
    List<TextPosition> drawn =
        positions.stream()
            .filter(p -> !p.getUnicode().isBlank())
            .toList()
            .subList(start, start + wanted.length());
    float left = Float.MAX_VALUE, top = Float.MAX_VALUE, right = 0, bottom = 0;
    for (TextPosition p : drawn) {
      left = Math.min(left, p.getXDirAdj());
      right = Math.max(right, p.getXDirAdj() + p.getWidthDirAdj());
      top = Math.min(top, p.getYDirAdj() - p.getHeightDir());
      bottom = Math.max(bottom, p.getYDirAdj());
    }
    BufferedImage page = pdf.render(1, 72);
    int x = Math.max(0, (int) left);
    int y = Math.max(0, (int) top);
    int width = Math.max(1, Math.min(page.getWidth() - x, (int) Math.ceil(right - left)));
    int height = Math.max(1, Math.min(page.getHeight() - y, (int) Math.ceil(bottom - top)));
    return ConvertedPdf.ink(page.getSubimage(x, y, width, height));
  }

  private static boolean isArabic(String text) {
    return text.codePoints()
        .anyMatch(c -> Character.UnicodeScript.of(c) == Character.UnicodeScript.ARABIC);
  }

  private static Stream<String> csvSamples(String method) {
    return Stream.of(OfficeSampleCorpusTest.class.getDeclaredMethods())
        .filter(m -> m.getName().equals(method))
        .flatMap(m -> Stream.of(m.getAnnotation(CsvSource.class).value()))
        .map(row -> row.split("[|,]")[0].trim());
  }
}
