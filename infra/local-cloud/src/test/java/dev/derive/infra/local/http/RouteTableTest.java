package dev.derive.infra.local.http;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class RouteTableTest {
  private final RouteTable table =
      new RouteTable(
          List.of(
              new Route("ANY", "/{proxy+}", "Greedy"),
              new Route("GET", "/v1/derivatives/{id}", "ById"),
              new Route("GET", "/v1/capabilities", "Exact"),
              new Route("ANY", "/v1/capabilities", "ExactAny")));

  @Test
  void anExactPathBeatsAGreedyOne() {
    assertThat(table.find("GET", "/v1/capabilities").orElseThrow().route().target())
        .isEqualTo("Exact");
  }

  @Test
  void aNamedMethodBeatsAny() {
    assertThat(table.find("POST", "/v1/capabilities").orElseThrow().route().target())
        .isEqualTo("ExactAny");
  }

  @Test
  void pathParametersAreTheSegmentsOfTheDecodedPath() {
    RouteTable.Match match = table.find("GET", "/v1/derivatives/a b").orElseThrow();

    assertThat(match.route().target()).isEqualTo("ById");
    assertThat(match.pathParameters()).isEqualTo(Map.of("id", "a b"));
  }

  @Test
  void aGreedySegmentTakesTheRestOfThePath() {
    RouteTable.Match match = table.find("DELETE", "/v1/derivatives/x/content").orElseThrow();

    assertThat(match.route().routeKey()).isEqualTo("ANY /{proxy+}");
    assertThat(match.pathParameters()).isEqualTo(Map.of("proxy", "v1/derivatives/x/content"));
  }

  @Test
  void noRouteMatchesTheRootWithoutADefault() {
    assertThat(table.find("GET", "/")).isEmpty();
    assertThat(new RouteTable(List.of(new Route("GET", "/a", "A"))).find("GET", "/a/b")).isEmpty();
  }

  @Test
  void theDefaultRouteCatchesTheRest() {
    RouteTable withDefault =
        new RouteTable(List.of(new Route(null, null, "Default"), new Route("GET", "/a", "A")));

    assertThat(withDefault.find("GET", "/a").orElseThrow().route().target()).isEqualTo("A");
    assertThat(withDefault.find("PUT", "/b").orElseThrow().route().routeKey())
        .isEqualTo("$default");
  }

  /** template.yaml's three routes: the image URL route must not take the job API's paths. */
  private final RouteTable derive =
      new RouteTable(
          List.of(
              new Route(null, null, "Default"),
              new Route("GET", "/v1/{signature}/{proxy+}", "ImageUrl"),
              new Route("ANY", "/v1/derivatives/{proxy+}", "Derivatives")));

  @Test
  void aLiteralSegmentBeatsAVariableBetweenGreedyRoutesWhateverTheMethod() {
    assertThat(derive.find("GET", "/v1/derivatives/abc").orElseThrow().route().target())
        .isEqualTo("Derivatives");
    assertThat(derive.find("GET", "/v1/derivatives/abc/content").orElseThrow().route().target())
        .isEqualTo("Derivatives");
    RouteTable.Match image =
        derive.find("GET", "/v1/c2ln/rs:fit:256:256/f:webp/uploads/a b.jpg").orElseThrow();
    assertThat(image.route().target()).isEqualTo("ImageUrl");
    assertThat(image.pathParameters())
        .isEqualTo(Map.of("signature", "c2ln", "proxy", "rs:fit:256:256/f:webp/uploads/a b.jpg"));
  }

  @Test
  void whatNeitherGreedyRouteTakesFallsToTheDefault() {
    assertThat(derive.find("POST", "/v1/derivatives").orElseThrow().route().isDefault()).isTrue();
    assertThat(derive.find("GET", "/v1/derivatives").orElseThrow().route().isDefault()).isTrue();
    assertThat(derive.find("GET", "/v1/capabilities").orElseThrow().route().isDefault()).isTrue();
    assertThat(derive.find("POST", "/v1/c2ln/rs:fit:1:1/a.jpg").orElseThrow().route().isDefault())
        .isTrue();
  }
}
