package dev.derive.coordinator.url;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.URL;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class DerivativeCdnTest {
  private static final String ID = "ab".repeat(32);

  private static URL presigned(String key) throws Exception {
    return URI.create("https://bucket.s3.amazonaws.com/" + key + "?X-Amz-Signature=x").toURL();
  }

  @Test
  void aDerivativeIsServedUnderItsKeyOnTheCdn() throws Exception {
    DerivativeCdn cdn =
        DerivativeCdn.of(Optional.of("https://d111111abcdef8.cloudfront.net/")).orElseThrow();

    assertThat(cdn.location(ID, presigned("derivatives/" + ID)))
        .isEqualTo(URI.create("https://d111111abcdef8.cloudfront.net/derivatives/" + ID));
  }

  @Test
  void anIntermediateHitIsServedUnderItsOwnPrefix() throws Exception {
    DerivativeCdn cdn = DerivativeCdn.of(Optional.of("https://cdn.example.com")).orElseThrow();

    assertThat(cdn.location(ID, presigned("intermediates/" + ID)))
        .isEqualTo(URI.create("https://cdn.example.com/intermediates/" + ID));
  }

  @Test
  void noOrABlankSettingMeansNoCdn() {
    assertThat(DerivativeCdn.of(Optional.empty())).isEmpty();
    assertThat(DerivativeCdn.of(Optional.of("  "))).isEmpty();
    assertThat(DerivativeCdn.of(Optional.of("https://"))).as("the local cloud's").isEmpty();
  }
}
