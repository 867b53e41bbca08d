package dev.derive.coordinator.url;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.derive.protocol.capability.CapabilityDescriptor;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Which picture an image URL answers with, by setting and by what has been made. */
class ImageUrlFallbacksTest {
  private static final CapabilityDescriptor.Placeholder DECLARED =
      new CapabilityDescriptor.Placeholder("application/json", "/summary/thumbHash");
  private final List<ObjectNode> asked = new ArrayList<>();

  private Optional<byte[]> made(ObjectNode body) {
    asked.add(body);
    return Optional.of(
        "{\"summary\":{\"thumbHash\":\"FfYC9Kh4j02Ch4h3iJePePiIiA==\"}}"
            .getBytes(StandardCharsets.UTF_8));
  }

  @Test
  void aPlaceholderIsDrawnFromTheDeclaredDerivativeOfTheSource() {
    ImageUrlFallbacks fallbacks =
        new ImageUrlFallbacks(
            ImageUrlFallbacks.Placeholders.THUMBHASH,
            Optional.empty(),
            Optional.of(DECLARED),
            this::made);

    Picture picture = fallbacks.placeholder("photos/cat.jpg").orElseThrow();

    assertThat(picture.kind()).isEqualTo(Picture.THUMBHASH);
    assertThat(picture.bytes()).startsWith(0x89, 'P', 'N', 'G');
    assertThat(asked)
        .singleElement()
        .hasToString(
            "{\"source\":{\"key\":\"photos/cat.jpg\"},\"target\":{\"mediaType\":\"application/json\"}}");
  }

  @Test
  void withoutThatDerivativeOrWithPlaceholdersOffThereIsNone() {
    ImageUrlFallbacks unmade =
        new ImageUrlFallbacks(
            ImageUrlFallbacks.Placeholders.THUMBHASH,
            Optional.empty(),
            Optional.of(DECLARED),
            body -> Optional.empty());
    ImageUrlFallbacks off =
        new ImageUrlFallbacks(
            ImageUrlFallbacks.Placeholders.NONE,
            Optional.empty(),
            Optional.of(DECLARED),
            this::made);
    ImageUrlFallbacks broken =
        new ImageUrlFallbacks(
            ImageUrlFallbacks.Placeholders.THUMBHASH,
            Optional.empty(),
            Optional.of(DECLARED),
            body -> Optional.of("{\"summary\":{\"thumbHash\":\"AAA\"}}".getBytes()));

    assertThat(unmade.placeholder("photos/cat.jpg")).isEmpty();
    assertThat(off.placeholder("photos/cat.jpg")).isEmpty();
    assertThat(asked).isEmpty();
    assertThat(broken.placeholder("photos/cat.jpg")).isEmpty();
    assertThat(ImageUrlFallbacks.none().failed()).isEmpty();
  }

  @Test
  void onlyAClientNamingJsonAsksForIt() {
    assertThat(ImageUrlFallbacks.asksForJson("application/problem+json")).isTrue();
    assertThat(ImageUrlFallbacks.asksForJson("image/webp, application/json;q=0.5")).isTrue();
    assertThat(ImageUrlFallbacks.asksForJson("application/json;q=0, image/*")).isFalse();
    assertThat(ImageUrlFallbacks.asksForJson("*/*")).isFalse();
    assertThat(ImageUrlFallbacks.asksForJson(null)).isFalse();
    assertThat(
            ImageUrlFallbacks.asksForJson(
                "image/avif,image/webp,image/apng,image/svg+xml,image/*,*/*;q=0.8"))
        .isFalse();
  }

  @Test
  void theSettingIsOneOfThreeWords() {
    assertThat(ImageUrlFallbacks.Placeholders.of(" Fallback "))
        .isEqualTo(ImageUrlFallbacks.Placeholders.FALLBACK);
    org.assertj.core.api.Assertions.assertThatThrownBy(
            () -> ImageUrlFallbacks.Placeholders.of("blur"))
        .hasMessageContaining("thumbhash, fallback or none");
  }
}
