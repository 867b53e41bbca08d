package dev.derive.worker.office;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.derive.protocol.MediaTypes;
import dev.derive.protocol.message.ObjectRef;
import dev.derive.protocol.message.Operation;
import dev.derive.protocol.message.StepMessage;
import dev.derive.worker.runtime.PermanentStepFailure;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The office capability's own rules, and its probe. Steps it refuses never reach LibreOffice: they
 * run against an office process whose installation does not exist, which would fail otherwise.
 */
class OfficeTransformerTest {
  @TempDir Path dir;

  private final OfficeTransformer withoutOffice =
      new OfficeTransformer(
          new OfficeProcess(
              new OfficeSettings(Path.of("/nonexistent/libreoffice"), 1_000, 500, 1L << 20),
              TestOffice.workingDirectory("absent")),
          new OfficeSettings(Path.of("/nonexistent/libreoffice"), 1_000, 500, 1L << 20));

  @Test
  void theProbeConvertsItsDocumentToAOnePagePdf() throws IOException {
    TestOffice.transformer().probe(dir);

    try (var files = Files.list(dir)) {
      assertThat(files).as("files the probe left").isEmpty();
    }
  }

  @Test
  void aMissingLibreOfficeSaysWhatToInstall() throws IOException {
    Path input = Files.writeString(dir.resolve("in.rtf"), "{\\rtf1 hello\\par}");

    assertThatThrownBy(
            () ->
                withoutOffice.transform(
                    TestOffice.step(MediaTypes.APPLICATION_RTF, Map.of()),
                    input,
                    Files.createFile(dir.resolve("out.pdf"))))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("LibreOffice is not installed at /nonexistent/libreoffice")
        .hasMessageContaining(
            "apt-get install -y --no-install-recommends libreoffice-writer libreoffice-calc");
  }

  @Test
  void aStepOfTwoOperationsIsInvalid() {
    StepMessage step =
        withOperations(
            List.of(
                new Operation(OfficeTransformer.CONVERT, Map.of()),
                new Operation(OfficeTransformer.CONVERT, Map.of())),
            MediaTypes.APPLICATION_PDF);

    assertInvalid(step, "exactly one operation, convert");
  }

  @Test
  void anOperationOtherThanConvertIsInvalid() {
    assertInvalid(
        withOperations(List.of(new Operation("render", Map.of())), MediaTypes.APPLICATION_PDF),
        "exactly one operation, convert");
  }

  @Test
  void anOutputOtherThanPdfIsInvalid() {
    assertInvalid(
        withOperations(
            List.of(new Operation(OfficeTransformer.CONVERT, Map.of())), MediaTypes.IMAGE_PNG),
        "writes application/pdf, not image/png");
  }

  @Test
  void aPageBelowOneIsInvalid() {
    assertInvalid(
        TestOffice.step(MediaTypes.APPLICATION_DOCX, Map.of("page", 0)),
        "page must be a whole number of at least 1, got 0");
  }

  @Test
  void aPageThatIsNotAWholeNumberIsInvalid() {
    assertInvalid(
        TestOffice.step(MediaTypes.APPLICATION_DOCX, Map.of("page", 1.5)),
        "page must be a whole number of at least 1, got 1.5");
  }

  private void assertInvalid(StepMessage step, String detail) {
    assertThatThrownBy(
            () ->
                withoutOffice.transform(
                    step,
                    Files.writeString(dir.resolve("in.docx"), "not read"),
                    Files.createFile(dir.resolve("out.pdf"))))
        .isInstanceOfSatisfying(
            PermanentStepFailure.class,
            failure -> {
              assertThat(failure.type()).isEqualTo("invalid-step");
              assertThat(failure.detail()).contains(detail);
            });
  }

  private static StepMessage withOperations(List<Operation> operations, String output) {
    return new StepMessage(
        "e".repeat(64),
        0,
        1,
        OfficeTransformer.CAPABILITY,
        operations,
        ObjectRef.of("source", "in"),
        MediaTypes.APPLICATION_DOCX,
        ObjectRef.of("derivatives", "out"),
        output,
        "test");
  }
}
