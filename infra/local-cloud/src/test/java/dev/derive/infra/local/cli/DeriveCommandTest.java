package dev.derive.infra.local.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.time.Duration;
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
  void aTimeoutIsWholeSecondsAndAnythingElseIsRefusedNamingTheOption() {
    assertThat(DeriveCommand.timeout("45")).isEqualTo(Duration.ofSeconds(45));
    for (String bad : new String[] {"abc", "", "-5", "0", "1.5", "99999999999"}) {
      assertThatThrownBy(() -> DeriveCommand.timeout(bad))
          .as(bad)
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessage(
              "--timeout takes a whole number of seconds above 0, e.g. --timeout 300, not " + bad);
    }
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

  /**
   * A misspelt option is refused before the file is uploaded, naming the option meant (found by a
   * newcomer's trial: {@code --widht 10} uploaded the file, then the API answered 400). The API
   * here stands in for Derive's: it serves a target schema as {@code GET /v1/schema} does and
   * counts the other requests.
   */
  @Test
  void aMisspeltOptionIsRefusedBeforeAnythingIsUploaded(@org.junit.jupiter.api.io.TempDir Path dir)
      throws Exception {
    java.util.List<String> requests = new java.util.concurrent.CopyOnWriteArrayList<>();
    com.sun.net.httpserver.HttpServer api =
        com.sun.net.httpserver.HttpServer.create(
            new java.net.InetSocketAddress(java.net.InetAddress.getLoopbackAddress(), 0), 0);
    api.createContext(
        "/",
        exchange -> {
          requests.add(exchange.getRequestMethod() + " " + exchange.getRequestURI().getPath());
          byte[] body =
              exchange.getRequestURI().getPath().equals("/v1/schema")
                  ? SCHEMA.getBytes(java.nio.charset.StandardCharsets.UTF_8)
                  : "{}".getBytes(java.nio.charset.StandardCharsets.UTF_8);
          exchange.sendResponseHeaders(
              exchange.getRequestURI().getPath().equals("/v1/schema") ? 200 : 500, body.length);
          exchange.getResponseBody().write(body);
          exchange.close();
        });
    api.start();
    try {
      Path photo = java.nio.file.Files.write(dir.resolve("photo.jpg"), new byte[] {1, 2, 3});
      DeriveCommand command =
          new DeriveCommand(
              java.net.URI.create("http://127.0.0.1:" + api.getAddress().getPort()),
              line -> {},
              java.time.Duration.ofMillis(10));

      assertThatThrownBy(
              () ->
                  command.derive(
                      photo.toString(),
                      DeriveCommand.target("image/jpeg", Map.of("widht", "10")),
                      dir.resolve("out.jpg"),
                      java.time.Duration.ofSeconds(5)))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageStartingWith("--widht: no such target option; did you mean --width?");
      assertThat(requests).containsExactly("GET /v1/schema");
    } finally {
      api.stop(0);
    }
  }

  /** The values a flag gives arrive as text; the schema's types make them numbers or booleans. */
  @Test
  void flagValuesTakeTheTypesTheSchemaGivesThem() throws Exception {
    Map<String, String> options = new LinkedHashMap<>();
    options.put("width", "256");
    options.put("withoutEnlargement", "false");
    options.put("fit", "cover");

    assertThat(
            TargetOptions.typed(
                    new com.fasterxml.jackson.databind.ObjectMapper()
                        .readTree(SCHEMA)
                        .path("properties")
                        .path("target"),
                    DeriveCommand.target("image/png", options))
                .toString())
        .isEqualTo(
            "{\"mediaType\":\"image/png\",\"width\":256,\"withoutEnlargement\":false,"
                + "\"fit\":\"cover\"}");
  }

  /** The part of {@code GET /v1/schema} the CLI reads: the target's options. */
  private static final String SCHEMA =
      """
      {"properties":{"target":{"type":"object","properties":{
        "mediaType":{"type":"string","enum":["image/jpeg","image/png"]},
        "width":{"type":"integer","minimum":1,"maximum":16384},
        "height":{"type":"integer","minimum":1,"maximum":16384},
        "fit":{"type":"string","enum":["inside","outside","cover","contain","fill"]},
        "withoutEnlargement":{"type":"boolean"}},
        "required":["mediaType"],"additionalProperties":false}}}
      """;
}
