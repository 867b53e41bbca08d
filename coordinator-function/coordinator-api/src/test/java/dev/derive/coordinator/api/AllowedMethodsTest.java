package dev.derive.coordinator.api;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class AllowedMethodsTest {
  @Test
  void readsTheMethodsOfEachRouteFromTheResources() {
    assertThat(AllowedMethods.on("/v1/derivatives")).containsExactly("POST");
    assertThat(AllowedMethods.on("/v1/derivatives/abc")).containsExactly("GET", "HEAD");
    assertThat(AllowedMethods.on("/v1/derivatives/abc/content/")).containsExactly("GET", "HEAD");
    assertThat(AllowedMethods.on("/v1/capabilities")).containsExactly("GET", "HEAD");
    assertThat(AllowedMethods.on("/v1/uploads")).containsExactly("POST");
    assertThat(AllowedMethods.on("/v2/nothing")).isEmpty();
  }

  @Test
  void anImageUrlOffersGetAcrossItsSegments() {
    assertThat(AllowedMethods.on("/v1/c2lnbmF0dXJl/rs:fit:256:256/f:webp/uploads/u1/a.jpg"))
        .containsExactly("GET", "HEAD");
  }
}
