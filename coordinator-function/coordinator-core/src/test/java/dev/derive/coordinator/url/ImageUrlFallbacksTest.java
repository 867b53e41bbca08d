package dev.derive.coordinator.url;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.derive.coordinator.lifecycle.MutableClock;
import dev.derive.protocol.capability.CapabilityDescriptor;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Which picture an image URL answers with, by setting and by what has been made. */
class ImageUrlFallbacksTest {
  private static final CapabilityDescriptor.Placeholder DECLARED =
      new CapabilityDescriptor.Placeholder("application/json", "/summary/thumbHash");
  private final List<ObjectNode> asked = new ArrayList<>();
  private final MutableClock clock = new MutableClock(Instant.parse("2030-01-01T00:00:00Z"));

  private Optional<byte[]> made(ObjectNode body) {
    asked.add(body);
    return Optional.of(
        "{\"summary\":{\"thumbHash\":\"FfYC9Kh4j02Ch4h3iJePePiIiA==\"}}"
            .getBytes(StandardCharsets.UTF_8));
  }

  /** Fallbacks without a fallback image, drawing from {@link #DECLARED} as {@code made} has it. */
  private ImageUrlFallbacks fallbacks(
      ImageUrlFallbacks.Placeholders placeholders,
      java.util.function.Function<ObjectNode, Optional<byte[]>> made) {
    return new ImageUrlFallbacks(
        placeholders, Optional.empty(), Optional.of(DECLARED), made, clock);
  }

  @Test
  void aPlaceholderIsDrawnFromTheDeclaredDerivativeOfTheSource() {
    ImageUrlFallbacks fallbacks = fallbacks(ImageUrlFallbacks.Placeholders.THUMBHASH, this::made);

    Picture picture = fallbacks.placeholder("photos/cat.jpg").orElseThrow();

    assertThat(picture.kind()).isEqualTo(Picture.THUMBHASH);
    assertThat(picture.bytes()).startsWith(0x89, 'P', 'N', 'G');
    assertThat(asked)
        .singleElement()
        .hasToString(
            "{\"source\":{\"key\":\"photos/cat.jpg\"},\"target\":{\"mediaType\":\"application/json\"}}");
  }

  /**
   * A browser asks again every 2 s while the derivative is made: the placeholder drawn for a source
   * is answered again for {@link ImageUrlFallbacks#DRAWN_MEMORY} without reading the source's
   * document anew, then read again.
   */
  @Test
  void aDrawnPlaceholderIsRememberedBriefly() {
    ImageUrlFallbacks fallbacks = fallbacks(ImageUrlFallbacks.Placeholders.THUMBHASH, this::made);

    Picture first = fallbacks.placeholder("photos/cat.jpg").orElseThrow();
    clock.advance(ImageUrlFallbacks.DRAWN_MEMORY.minusSeconds(1));
    assertThat(fallbacks.placeholder("photos/cat.jpg")).containsSame(first);
    assertThat(asked).hasSize(1);

    fallbacks.placeholder("photos/dog.jpg");
    assertThat(asked).as("another source is its own").hasSize(2);

    clock.advance(Duration.ofSeconds(1));
    assertThat(fallbacks.placeholder("photos/cat.jpg").orElseThrow().bytes())
        .isEqualTo(first.bytes());
    assertThat(asked).as("read again after the memory").hasSize(3);
  }

  /** A source without its placeholder document yet is asked again: it may be made any moment. */
  @Test
  void aSourceWithoutAPlaceholderIsNotRemembered() {
    List<Optional<byte[]>> answers =
        new ArrayList<>(
            List.of(
                Optional.empty(),
                Optional.of(
                    "{\"summary\":{\"thumbHash\":\"FfYC9Kh4j02Ch4h3iJePePiIiA==\"}}"
                        .getBytes(StandardCharsets.UTF_8))));
    ImageUrlFallbacks fallbacks =
        fallbacks(ImageUrlFallbacks.Placeholders.THUMBHASH, body -> answers.remove(0));

    assertThat(fallbacks.placeholder("photos/cat.jpg")).isEmpty();
    assertThat(fallbacks.placeholder("photos/cat.jpg")).isPresent();
  }

  @Test
  void withoutThatDerivativeOrWithPlaceholdersOffThereIsNone() {
    ImageUrlFallbacks unmade =
        fallbacks(ImageUrlFallbacks.Placeholders.THUMBHASH, body -> Optional.empty());
    ImageUrlFallbacks off = fallbacks(ImageUrlFallbacks.Placeholders.NONE, this::made);
    ImageUrlFallbacks broken =
        fallbacks(
            ImageUrlFallbacks.Placeholders.THUMBHASH,
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
