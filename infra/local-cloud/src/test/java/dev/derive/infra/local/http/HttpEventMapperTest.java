package dev.derive.infra.local.http;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class HttpEventMapperTest {
  private final HttpEventMapper mapper = new HttpEventMapper("api", "123456789012", "us-east-1");
  private final RouteTable.Match match =
      new RouteTable.Match(new Route("GET", "/items/{id}", "F"), Map.of("id", "1"));

  @Test
  void headersAreLowerCasedAndRepeatedValuesCommaJoined() {
    ObjectNode event =
        mapper.event(
            request(
                List.of(
                    Map.entry("X-Multi", "a"),
                    Map.entry("x-multi", "b"),
                    Map.entry("Cookie", "a=1; b=2")),
                "text/plain",
                new byte[0]),
            match,
            "rid");

    assertThat(event.path("headers").path("x-multi").asText()).isEqualTo("a,b");
    assertThat(event.path("headers").has("cookie")).isFalse();
    assertThat(event.path("cookies").toString()).isEqualTo("[\"a=1\",\"b=2\"]");
    assertThat(event.path("routeKey").asText()).isEqualTo("GET /items/{id}");
    assertThat(event.path("requestContext").path("requestId").asText()).isEqualTo("rid");
  }

  @Test
  void queryParametersAreDecodedAndRepeatedValuesCommaJoined() {
    assertThat(HttpEventMapper.queryParameters("a=1&a=2&b=x%20y&c=p+q&d"))
        .isEqualTo(Map.of("a", "1,2", "b", "x y", "c", "p q", "d", ""));
  }

  @Test
  void aBinaryBodyIsBase64Encoded() {
    byte[] body = {(byte) 0xff, 0, 1};
    ObjectNode event =
        mapper.event(
            request(List.of(Map.entry("Content-Type", "image/png")), null, body), match, "r");

    assertThat(event.path("isBase64Encoded").asBoolean()).isTrue();
    assertThat(Base64.getDecoder().decode(event.path("body").asText())).isEqualTo(body);
  }

  @Test
  void aJsonBodyIsPassedAsText() {
    byte[] body = "{\"a\":1}".getBytes(StandardCharsets.UTF_8);
    ObjectNode event =
        mapper.event(
            request(List.of(Map.entry("Content-Type", "application/json")), null, body),
            match,
            "r");

    assertThat(event.path("isBase64Encoded").asBoolean()).isFalse();
    assertThat(event.path("body").asText()).isEqualTo("{\"a\":1}");
  }

  private static HttpRequest request(
      List<Map.Entry<String, String>> headers, String unused, byte[] body) {
    return new HttpRequest("GET", "/items/1", "", headers, body, "127.0.0.1", "HTTP/1.1");
  }
}
