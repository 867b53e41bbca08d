package dev.derive.infra.local.http;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Which requests the console answers (issue 15); the rest must reach the route table. */
class ConsoleSiteTest {
  private final ConsoleSite console = ConsoleSite.packaged();

  @ParameterizedTest
  @ValueSource(strings = {"/", "/console", "/console/", "/console/index.html"})
  void thePageIsAnsweredAtTheRootAndUnderConsole(String path) {
    HttpResponse page = console.answer("GET", path).orElseThrow();

    assertThat(page.status()).isEqualTo(200);
    assertThat(header(page, "Content-Type")).isEqualTo("text/html; charset=utf-8");
    assertThat(header(page, "Content-Security-Policy")).contains("default-src 'self'");
    assertThat(new String(page.body(), StandardCharsets.UTF_8))
        .contains("<title>Derive console</title>");
  }

  @Test
  void everyFileIsServedWithItsTypeAndTheHeadMethodToo() {
    for (String name : ConsoleSite.FILES) {
      HttpResponse file = console.answer("HEAD", "/console/" + name).orElseThrow();
      assertThat(file.body()).as(name).isNotEmpty();
      assertThat(header(file, "Content-Type"))
          .as(name)
          .isEqualTo(ConsoleSite.contentType(name))
          .doesNotStartWith("application/octet-stream");
      assertThat(header(file, "X-Content-Type-Options")).isEqualTo("nosniff");
    }
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "/nowhere",
        "/console/nowhere.js",
        "/console/../pom.xml",
        "/console/%2e%2e/pom.xml",
        "/console/dev/derive/infra/local/console/index.html",
        "/consoles",
        "/v1/derivatives"
      })
  void anythingElseIsLeftToTheRoutes(String path) {
    assertThat(console.answer("GET", path)).as(path).isEmpty();
  }

  @Test
  void otherMethodsOnTheRootAreLeftToTheRoutes() {
    assertThat(console.answer("POST", "/")).isEmpty();
    assertThat(console.answer("DELETE", "/console")).isEmpty();
  }

  @Test
  void noConsoleAnswersNothing() {
    assertThat(ConsoleSite.none().answer("GET", "/")).isEmpty();
  }

  @Test
  void theFilesLoadNothingFromTheInternet() {
    for (String name : ConsoleSite.FILES) {
      String text =
          new String(
              console.answer("GET", "/console/" + name).orElseThrow().body(),
              StandardCharsets.UTF_8);
      assertThat(text)
          .as(name)
          .doesNotContainPattern(
              "(src|href)=\"https?://|url\\(\\s*['\"]?https?:|@import|import .* from 'https?:");
    }
  }

  private static String header(HttpResponse response, String name) {
    return response.headers().stream()
        .filter(h -> h.getKey().equalsIgnoreCase(name))
        .map(Map.Entry::getValue)
        .findFirst()
        .orElse(null);
  }
}
