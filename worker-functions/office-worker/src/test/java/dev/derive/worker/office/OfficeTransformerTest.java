package dev.derive.worker.office;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.derive.protocol.MediaTypes;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The probe, and what a machine without LibreOffice is told. (Which steps the capability takes is
 * its declaration's, checked by {@link DeclarationContractTest}.)
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
}
