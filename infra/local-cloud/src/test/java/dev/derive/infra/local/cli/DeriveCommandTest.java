package dev.derive.infra.local.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** How {@code derive SOURCE TARGET …} turns its arguments into a request and a file name. */
class DeriveCommandTest {

  @Test
  void aMediaTypeWithFlagsBecomesATargetWithNumbersAsNumbers() {
    Map<String, String> options = new LinkedHashMap<>();
    options.put("width", "256");
    options.put("fit", "inside");

    assertThat(DeriveCommand.target("image/jpeg", options).toString())
        .isEqualTo("{\"mediaType\":\"image/jpeg\",\"width\":256,\"fit\":\"inside\"}");
  }

  @Test
  void aJsonTargetIsSentAsItIs() {
    assertThat(
            DeriveCommand.target("{\"mediaType\":\"image/png\",\"page\":2}", Map.of()).toString())
        .isEqualTo("{\"mediaType\":\"image/png\",\"page\":2}");
  }

  @Test
  void aJsonTargetThatIsNotAnObjectIsRefused() {
    assertThatThrownBy(() -> DeriveCommand.target("{nope", Map.of()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("not valid JSON");
  }

  @Test
  void theDefaultOutputIsNamedAfterTheSourceAndTheTargetType() {
    assertThat(DeriveCommand.defaultOutput("photos/cat.jpeg", "image/png"))
        .isEqualTo(Path.of("cat.derived.png"));
    assertThat(DeriveCommand.defaultOutput("uploads/x/report", "application/pdf"))
        .isEqualTo(Path.of("report.derived.pdf"));
  }

  /**
   * The extension comes from Tika's media type registry, so a type no table here lists gets its own
   * (issue 30 item 15: AVIF was written as .bin).
   */
  @org.junit.jupiter.params.ParameterizedTest
  @org.junit.jupiter.params.provider.CsvSource({
    "image/avif, avif",
    "image/jpeg, jpg",
    "image/webp, webp",
    "text/plain; charset=utf-8, txt",
    "application/json, json",
    "video/mp4, mp4",
    "application/vnd.openxmlformats-officedocument.wordprocessingml.document, docx",
    "application/x-derive-unknown, bin"
  })
  void theOutputIsNamedWithTheExtensionOfItsMediaType(String mediaType, String extension) {
    assertThat(DeriveCommand.defaultOutput("photos/cat.jpeg", mediaType))
        .isEqualTo(Path.of("cat.derived." + extension));
  }
}
