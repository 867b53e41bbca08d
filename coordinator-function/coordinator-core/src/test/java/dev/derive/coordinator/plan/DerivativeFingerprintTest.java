package dev.derive.coordinator.plan;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.derive.coordinator.Declarations;
import dev.derive.coordinator.identity.SourceIdentity;
import dev.derive.coordinator.validate.RequestValidator;
import dev.derive.coordinator.validate.TargetSpec;
import dev.derive.protocol.identity.Fingerprint;
import org.junit.jupiter.api.Test;

class DerivativeFingerprintTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final SourceIdentity SOURCE =
      new SourceIdentity("src", "photos/cat.jpg", null, "\"etag-1\"", 1000, "image/jpeg");

  private final RequestValidator validator = new RequestValidator(Declarations.ALL);
  private final Planner planner = new Planner(Declarations.ALL, "derivatives-bucket");

  private TargetSpec target(String json) throws Exception {
    return validator
        .validate(
            JSON.readTree("{\"source\":{\"key\":\"photos/cat.jpg\"},\"target\":" + json + "}"))
        .target();
  }

  private String fingerprint(SourceIdentity source, String targetJson) throws Exception {
    return planner.plan(source, target(targetJson)).fingerprint();
  }

  @Test
  void isTheSameWhateverTheFieldOrder() throws Exception {
    assertThat(fingerprint(SOURCE, "{\"mediaType\":\"image/jpeg\",\"width\":256,\"height\":128}"))
        .isEqualTo(
            fingerprint(SOURCE, "{\"height\":128,\"width\":256,\"mediaType\":\"image/jpeg\"}"));
  }

  @Test
  void isTheSameForIntegralDecimals() throws Exception {
    assertThat(fingerprint(SOURCE, "{\"mediaType\":\"image/jpeg\",\"width\":256,\"height\":256}"))
        .isEqualTo(
            fingerprint(
                SOURCE, "{\"mediaType\":\"image/jpeg\",\"width\":256.0,\"height\":2.56e2}"));
  }

  @Test
  void isTheSameWithDefaultsSpelledOut() throws Exception {
    assertThat(fingerprint(SOURCE, "{\"mediaType\":\"image/jpeg\",\"width\":256,\"height\":256}"))
        .isEqualTo(
            fingerprint(
                SOURCE,
                "{\"mediaType\":\"image/jpeg\",\"width\":256,\"height\":256,\"fit\":\"inside\","
                    + "\"withoutEnlargement\":true,\"quality\":85}"));
  }

  @Test
  void changesWithTheEtag() throws Exception {
    SourceIdentity edited =
        new SourceIdentity("src", "photos/cat.jpg", null, "\"etag-2\"", 1000, "image/jpeg");
    String target = "{\"mediaType\":\"image/jpeg\",\"width\":256,\"height\":256}";

    assertThat(fingerprint(edited, target)).isNotEqualTo(fingerprint(SOURCE, target));
  }

  @Test
  void changesWithTheVersionId() throws Exception {
    SourceIdentity versioned =
        new SourceIdentity("src", "photos/cat.jpg", "v2", "\"etag-1\"", 1000, "image/jpeg");
    String target = "{\"mediaType\":\"image/jpeg\",\"width\":256,\"height\":256}";

    assertThat(fingerprint(versioned, target)).isNotEqualTo(fingerprint(SOURCE, target));
  }

  @Test
  void changesWithTheWidth() throws Exception {
    assertThat(fingerprint(SOURCE, "{\"mediaType\":\"image/jpeg\",\"width\":256,\"height\":256}"))
        .isNotEqualTo(
            fingerprint(SOURCE, "{\"mediaType\":\"image/jpeg\",\"width\":257,\"height\":256}"));
  }

  @Test
  void changesWithTheQuality() throws Exception {
    assertThat(fingerprint(SOURCE, "{\"mediaType\":\"image/jpeg\",\"width\":256,\"height\":256}"))
        .isNotEqualTo(
            fingerprint(
                SOURCE,
                "{\"mediaType\":\"image/jpeg\",\"width\":256,\"height\":256,\"quality\":84}"));
  }

  @Test
  void changesWithTheTargetMediaType() throws Exception {
    assertThat(fingerprint(SOURCE, "{\"mediaType\":\"image/jpeg\",\"width\":256,\"height\":256}"))
        .isNotEqualTo(
            fingerprint(SOURCE, "{\"mediaType\":\"image/png\",\"width\":256,\"height\":256}"));
  }

  @Test
  void addressesTheDerivativeByItsFingerprint() throws Exception {
    Plan plan =
        planner.plan(SOURCE, target("{\"mediaType\":\"image/png\",\"width\":64,\"height\":32}"));

    assertThat(Fingerprint.isWellFormed(plan.fingerprint())).isTrue();
    assertThat(plan.steps()).hasSize(1);
    assertThat(plan.step(0).output().bucket()).isEqualTo("derivatives-bucket");
    assertThat(plan.step(0).output().key()).isEqualTo("derivatives/" + plan.fingerprint());
    assertThat(plan.step(0).operations())
        .extracting(o -> o.operation())
        .containsExactly("resize", "encode");
    assertThat(plan.step(0).operations().get(0).params())
        .containsEntry("width", 64)
        .containsEntry("height", 32)
        .containsEntry("fit", "inside")
        .containsEntry("withoutEnlargement", true);
    assertThat(plan.step(0).operations().get(1).params())
        .containsEntry("mediaType", "image/png")
        .containsEntry("quality", 85);
  }
}
