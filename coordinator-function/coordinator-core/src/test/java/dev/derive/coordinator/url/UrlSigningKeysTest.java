package dev.derive.coordinator.url;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.derive.coordinator.Declarations;
import dev.derive.coordinator.lifecycle.MutableClock;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/** Signatures of image URLs: good, bad, expired, rotated. */
class UrlSigningKeysTest {
  private static final String KEY_A = "a1".repeat(32);
  private static final String KEY_B = "b2".repeat(32);
  private static final String PATH = "/rs:inside:256:256/photos/cat.jpg";
  private static final long NOW = 1_800_000_000L;

  private static ForbiddenUrlException refusal(UrlSigningKeys keys, String url) {
    try {
      ImageUrl.verified(url, UrlOptions.of(Declarations.CATALOGUE), keys, NOW);
      return null;
    } catch (ForbiddenUrlException e) {
      return e;
    }
  }

  @Test
  void theSignatureIsHmacSha256OfThePathInUnpaddedBase64Url() {
    // RFC 4231 test case 2: HMAC-SHA256("Jefe", "what do ya want for nothing?")
    String signature = UrlSigningKeys.signature("Jefe".getBytes(), "what do ya want for nothing?");

    assertThat(signature).isEqualTo("W9zBRr9gdU5qBCQmCJV1x1oAPwidJzmDnexYuWTsOEM");
  }

  /** The output of the README's openssl recipe ({@code ./derive sign}) for this key and path. */
  @Test
  void theSignatureIsTheOneTheShellRecipeMakes() {
    assertThat(UrlSigningKeys.parse(KEY_A).sign(PATH))
        .isEqualTo("Y7fhEZnY-0vLUwKBiPhUgpldxNAbam7VugyJXr676OE");
  }

  @Test
  void aUrlSignedWithTheKeyIsServed() {
    UrlSigningKeys keys = UrlSigningKeys.parse(KEY_A);

    assertThat(refusal(keys, "/" + keys.sign(PATH) + PATH)).isNull();
  }

  @Test
  void aWrongSignatureAMissingOneOrAnAlteredPathIsRefused() {
    UrlSigningKeys keys = UrlSigningKeys.parse(KEY_A);
    String signature = keys.sign(PATH);

    assertThat(refusal(keys, "/" + signature + "/rs:inside:2560:2560/photos/cat.jpg").kind())
        .isEqualTo(ForbiddenUrlException.INVALID_SIGNATURE);
    assertThat(refusal(keys, "/unsigned" + PATH).kind())
        .isEqualTo(ForbiddenUrlException.INVALID_SIGNATURE);
    assertThat(refusal(keys, "/" + UrlSigningKeys.parse(KEY_B).sign(PATH) + PATH).kind())
        .isEqualTo(ForbiddenUrlException.INVALID_SIGNATURE);
  }

  @Test
  void withoutAnyKeyNothingIsServed() {
    assertThat(refusal(UrlSigningKeys.none(), "/whatever" + PATH).getMessage())
        .contains("no URL signing key");
  }

  @Test
  void anExpiredUrlIsRefusedAndAnUnexpiredOneServed() {
    UrlSigningKeys keys = UrlSigningKeys.parse(KEY_A);
    String past = "/exp:" + (NOW - 1) + PATH;
    String future = "/exp:" + (NOW + 60) + PATH;

    assertThat(refusal(keys, "/" + keys.sign(past) + past).kind())
        .isEqualTo(ForbiddenUrlException.EXPIRED);
    assertThat(refusal(keys, "/" + keys.sign(future) + future)).isNull();
  }

  @Test
  void anExpiryCannotBeMovedWithoutBreakingTheSignature() {
    UrlSigningKeys keys = UrlSigningKeys.parse(KEY_A);
    String past = "/exp:" + (NOW - 1) + PATH;
    String moved = "/exp:" + (NOW + 3600) + PATH;

    assertThat(refusal(keys, "/" + keys.sign(past) + moved).kind())
        .isEqualTo(ForbiddenUrlException.INVALID_SIGNATURE);
  }

  @Test
  void duringARotationUrlsOfTheNewAndTheOldKeyAreBothServedAndTheNewOneSigns() {
    UrlSigningKeys old = UrlSigningKeys.parse(KEY_A);
    UrlSigningKeys rotating = UrlSigningKeys.parse(KEY_B + "," + KEY_A);

    assertThat(refusal(rotating, "/" + old.sign(PATH) + PATH)).isNull();
    assertThat(rotating.sign(PATH)).isEqualTo(UrlSigningKeys.parse(KEY_B).sign(PATH));
    assertThat(refusal(UrlSigningKeys.parse(KEY_B), "/" + old.sign(PATH) + PATH)).isNotNull();
  }

  @Test
  void aRotationWrittenToTheSecretIsInForceAfterTheTtl() {
    MutableClock clock = new MutableClock(Instant.parse("2026-01-01T00:00:00Z"));
    AtomicReference<String> secret = new AtomicReference<>(KEY_A);
    SigningKeySource source = new SigningKeySource(secret::get, Duration.ofMinutes(5), clock);
    String signedWithB = UrlSigningKeys.parse(KEY_B).sign(PATH);
    secret.set(KEY_B + " " + KEY_A);

    assertThat(source.current().verifies(signedWithB, PATH)).isFalse();
    clock.advance(Duration.ofMinutes(5));
    assertThat(source.current().verifies(signedWithB, PATH)).isTrue();
  }

  @Test
  void shortOrNonHexKeysAreRefusedWithoutEchoingThem() {
    assertThatThrownBy(() -> UrlSigningKeys.parse("abcd"))
        .hasMessageContaining("at least 32")
        .hasMessageNotContaining("abcd");
    assertThatThrownBy(() -> UrlSigningKeys.parse("zz".repeat(32)))
        .hasMessageContaining("not hex")
        .hasMessageNotContaining("zzzz");
  }
}
