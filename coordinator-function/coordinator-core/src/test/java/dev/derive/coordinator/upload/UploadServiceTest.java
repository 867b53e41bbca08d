package dev.derive.coordinator.upload;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.derive.coordinator.validate.InvalidRequestException;
import dev.derive.coordinator.validate.ObjectKeys;
import dev.derive.coordinator.validate.Violation;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class UploadServiceTest {
  private final ObjectMapper json = new ObjectMapper();

  @ParameterizedTest
  @CsvSource({
    "cat.jpg, cat.jpg",
    "Ferien Foto (1).JPG, Ferien-Foto-1-.JPG",
    "../../etc/passwd, passwd",
    "C:\\Users\\me\\été.png, ete.png",
    "..., file",
    ".hidden, hidden",
    "日本語.pdf, pdf"
  })
  void sanitisesFileNamesIntoSafeKeySegments(String fileName, String expected) {
    String segment = UploadService.sanitise(fileName);
    assertThat(segment).isEqualTo(expected);
    assertThat(ObjectKeys.problem("uploads/x/" + segment)).isEmpty();
  }

  @Test
  void keepsTheEndOfOverlongNamesSoTheExtensionSurvives() {
    assertThat(UploadService.sanitise("a".repeat(500) + ".jpg"))
        .hasSize(UploadService.MAX_FILE_NAME_CHARS)
        .endsWith(".jpg");
  }

  @Test
  void acceptsAWellFormedDeclaration() throws Exception {
    UploadRequest request =
        UploadService.validate(
            json.readTree(
                "{\"fileName\":\"cat.jpg\",\"contentType\":\"Image/JPEG\",\"size\":1234}"));
    assertThat(request).isEqualTo(new UploadRequest("cat.jpg", "image/jpeg", 1234));
  }

  @Test
  void namesEveryOffendingMember() throws Exception {
    assertThatThrownBy(
            () ->
                UploadService.validate(
                    json.readTree(
                        "{\"fileName\":\"\",\"contentType\":\"jpeg\",\"size\":0,\"x\":1}")))
        .isInstanceOfSatisfying(
            InvalidRequestException.class,
            e ->
                assertThat(e.violations())
                    .extracting(Violation::pointer)
                    .containsExactlyInAnyOrder("/x", "/fileName", "/contentType", "/size"));
  }
}
