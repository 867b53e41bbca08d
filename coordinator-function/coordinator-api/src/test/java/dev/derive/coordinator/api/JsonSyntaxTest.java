package dev.derive.coordinator.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

/**
 * Bodies that are not JSON, as the API's parser reads them (the mapper {@link StrictJson} sets up),
 * each answered in Derive's words with the line and column: none of Jackson's wording ("Unexpected
 * end-of-input within/between Object entries", "Document nesting depth (1001) exceeds …" reached
 * users: found by a newcomer's trial), no class or feature name.
 */
class JsonSyntaxTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  static {
    new StrictJson().customize(JSON);
  }

  @Test
  void aBodyEndingInsideAnObjectNamesWhereTheObjectOpened() {
    assertThat(sentence("{\"source\": {\"key\": \"a.jpg\",\n \"x\": 1"))
        .isEqualTo(
            "the body ends at line 2, column 8 before the object opened at line 1,"
                + " column 12 is complete");
  }

  @Test
  void aBodyEndingInsideAnArrayNamesWhereTheArrayOpened() {
    assertThat(sentence("{\"steps\": [")).contains("before the array opened at line 1, column 11");
  }

  @Test
  void nestingBeyondTheParsersLimitIsSaidWithTheLimit() {
    assertThat(sentence("[".repeat(1001) + "]".repeat(1001)))
        .isEqualTo(
            "the body nests objects and arrays more than 1000 levels deep; a request is a few"
                + " levels deep");
  }

  @Test
  void anUnexpectedCharacterIsQuotedWithItsPlace() {
    assertThat(sentence("{\"source\": {\"key\": \"a.jpg\";}}"))
        .isEqualTo("unexpected character ';' at line 1, column 27");
  }

  @Test
  void anUnquotedWordIsQuotedWithAHint() {
    assertThat(sentence("{\"wait\": True}"))
        .startsWith("unexpected word 'True' at line 1, column ")
        .endsWith("true, false and null are written in lower case)");
  }

  @Test
  void anEmptyBodyIsSaidToBeEmpty() {
    assertThat(sentence("")).isEqualTo("the body is empty; it must be a JSON object");
  }

  @Test
  void noSentenceCarriesTheParsersWording() {
    for (String body :
        new String[] {
          "{\"a\": 1", "{\"a\" 1}", "[1,,2]", "{\"a\": \"b\n\"}", "[".repeat(1500), "\"abc", "01"
        }) {
      assertThat(sentence(body))
          .as(body)
          .doesNotContainIgnoringCase("end-of-input")
          .doesNotContain("Object entries", "Document", "exceeds", "`", "Source", "code ")
          .doesNotContain("jackson", "Jackson", "Exception", "StreamReadConstraints");
    }
  }

  private static String sentence(String body) {
    JsonProcessingException e =
        catchThrowableOfType(
            JsonProcessingException.class, () -> JSON.readValue(body, JsonNode.class));
    assertThat(e).as("parsing %s", body).isNotNull();
    return JsonSyntax.sentence(e);
  }
}
