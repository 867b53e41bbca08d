package dev.derive.coordinator.url;

import static org.assertj.core.api.Assertions.assertThat;

import dev.derive.coordinator.Declarations;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * What {@code f:auto} picks with the declared formats (the image capability's AVIF, WebP, JPEG).
 */
class FormatNegotiationTest {
  @ParameterizedTest(name = "{0} -> {1}")
  @CsvSource(
      delimiter = '|',
      value = {
        "image/avif,image/webp,image/apng,image/*,*/*;q=0.8 | image/avif",
        "image/webp,*/*                                     | image/webp",
        "image/avif;q=0,image/webp                          | image/webp",
        "image/*,*/*                                        | image/jpeg",
        "IMAGE/AVIF                                         | image/avif",
        "''                                                 | image/jpeg",
      })
  void picksTheBestFormatTheClientNames(String accept, String expected) {
    assertThat(UrlOptions.of(Declarations.CATALOGUE).pick(accept)).isEqualTo(expected);
  }
}
