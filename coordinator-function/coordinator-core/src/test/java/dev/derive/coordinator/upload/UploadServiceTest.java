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
import org.junit.jupiter.params.provider.ValueSource;

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
    assertThat(request).isEqualTo(new UploadRequest("cat.jpg", "image/jpeg", 1234, null));
  }

  @Test
  void takesTheSha256OfTheBytesToUpload() throws Exception {
    String sha256 = "LPJNul+wow4m6DsqxbninhsWHlwfp0JecwQzYpOLmCQ=";
    UploadRequest request =
        UploadService.validate(
            json.readTree(
                "{\"fileName\":\"a.txt\",\"contentType\":\"text/plain\",\"size\":5,"
                    + "\"sha256\":\""
                    + sha256
                    + "\"}"));

    assertThat(request.sha256()).isEqualTo(sha256);
  }

  @org.junit.jupiter.params.ParameterizedTest
  @org.junit.jupiter.params.provider.ValueSource(
      strings = {
        "\"abc\"",
        "\"2cf24dba5fb0a30e26e83b2ac5b9e29e1b161e5c1fa7425e73043362938b9824\"",
        "42"
      })
  void refusesASha256ThatIsNotBase64OfThirtyTwoBytes(String sha256) {
    assertThatThrownBy(
            () ->
                UploadService.validate(
                    json.readTree(
                        "{\"fileName\":\"a.txt\",\"contentType\":\"text/plain\",\"size\":5,"
                            + "\"sha256\":"
                            + sha256
                            + "}")))
        .isInstanceOfSatisfying(
            InvalidRequestException.class,
            e ->
                assertThat(e.violations())
                    .extracting(Violation::pointer)
                    .containsExactly("/sha256"));
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

  @Test
  void refusesASizeBeyondALongInsteadOfWrappingIt() throws Exception {
    assertThatThrownBy(
            () ->
                UploadService.validate(
                    json.readTree(
                        "{\"fileName\":\"a.jpg\",\"contentType\":\"image/jpeg\","
                            + "\"size\":99999999999999999999}")))
        .isInstanceOfSatisfying(
            InvalidRequestException.class,
            e ->
                assertThat(e.violations())
                    .containsExactly(
                        new Violation(
                            "/size",
                            "must be a whole number of bytes from 1 to 9223372036854775807")));
  }

  /** Issue 14 item 11: the content type goes into the presigned upload's signed headers. */
  @ParameterizedTest
  @ValueSource(
      strings = {
        "image/jpeg\r\nx-amz-acl: public-read",
        "image/jpeg\nX: 1",
        "image/jpeg\u0000",
      })
  void refusesAContentTypeWithControlCharacters(String contentType) {
    assertThat(violations(declaration("cat.jpg", contentType)))
        .containsExactly(new Violation("/contentType", "must not contain control characters"));
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "image jpeg",
        "image/jp eg",
        "image/",
        "/jpeg",
        "image/jpeg/x",
        "image/jpeg; charset",
        "image/jpeg; a=\"unterminated",
        "image/jpeg; a=b c",
        "image/(jpeg)",
        "image/jpég",
      })
  void refusesAContentTypeThatIsNoMediaType(String contentType) {
    assertThat(violations(declaration("cat.jpg", contentType)))
        .extracting(Violation::pointer)
        .containsExactly("/contentType");
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "image/jpeg|image/jpeg",
        "text/plain; charset=utf-8|text/plain",
        "text/plain ;charset=\"utf-8\" ; format=flowed|text/plain",
        "application/vnd.openxmlformats-officedocument.wordprocessingml.document|"
            + "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
        "image/svg+xml;|image/svg+xml",
      })
  void acceptsMediaTypesWithParametersAndSignsTheirEssence(String contentType, String essence)
      throws Exception {
    assertThat(UploadService.validate(declaration("f.bin", contentType)).contentType())
        .isEqualTo(essence);
  }

  @Test
  void refusesAFileNameWithControlCharacters() {
    assertThat(violations(declaration("cat\r\n.jpg", "image/jpeg")))
        .extracting(Violation::pointer)
        .containsExactly("/fileName");
  }

  private com.fasterxml.jackson.databind.JsonNode declaration(String fileName, String contentType) {
    return json.createObjectNode()
        .put("fileName", fileName)
        .put("contentType", contentType)
        .put("size", 10);
  }

  private static java.util.List<Violation> violations(
      com.fasterxml.jackson.databind.JsonNode body) {
    return org.assertj.core.api.Assertions.catchThrowableOfType(
            InvalidRequestException.class, () -> UploadService.validate(body))
        .violations();
  }
}
