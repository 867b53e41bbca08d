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

  /** Wang and Yu's MD5 collision (2004): two 128-byte messages, one MD5, different SHA-256s. */
  private static final byte[] COLLIDING_A =
      java.util.HexFormat.of()
          .parseHex(
              "d131dd02c5e6eec4693d9a0698aff95c2fcab58712467eab4004583eb8fb7f89"
                  + "55ad340609f4b30283e488832571415a085125e8f7cdc99fd91dbdf280373c5b"
                  + "d8823e3156348f5bae6dacd436c919c6dd53e2b487da03fd02396306d248cda0"
                  + "e99f33420f577ee8ce54b67080a80d1ec69821bcb6a8839396f9652b6ff72a70");

  private static final byte[] COLLIDING_B =
      java.util.HexFormat.of()
          .parseHex(
              "d131dd02c5e6eec4693d9a0698aff95c2fcab50712467eab4004583eb8fb7f89"
                  + "55ad340609f4b30283e4888325f1415a085125e8f7cdc99fd91dbd7280373c5b"
                  + "d8823e3156348f5bae6dacd436c919c6dd53e23487da03fd02396306d248cda0"
                  + "e99f33420f577ee8ce54b67080280d1ec69821bcb6a8839396f965ab6ff72a70");

  private static String hash(String algorithm, byte[] bytes, boolean hex) throws Exception {
    byte[] digest = java.security.MessageDigest.getInstance(algorithm).digest(bytes);
    return hex
        ? "\"" + java.util.HexFormat.of().formatHex(digest) + "\""
        : java.util.Base64.getEncoder().encodeToString(digest);
  }

  /**
   * Issue 26 item 6: two uploads with one MD5 (one ETag) but other bytes do not share a
   * fingerprint: S3's SHA-256 of each, or else each one's version, names the source.
   */
  @Test
  void twoUploadsWithOneMd5DoNotShareAFingerprint() throws Exception {
    String etag = hash("MD5", COLLIDING_A, true);
    assertThat(hash("MD5", COLLIDING_B, true)).isEqualTo(etag);
    String target = "{\"mediaType\":\"image/jpeg\",\"width\":256,\"height\":256}";

    SourceIdentity checkedA =
        new SourceIdentity(
            "src", "k", "v1", etag, 128, "image/jpeg", hash("SHA-256", COLLIDING_A, false));
    SourceIdentity checkedB =
        new SourceIdentity(
            "src", "k", "v2", etag, 128, "image/jpeg", hash("SHA-256", COLLIDING_B, false));
    assertThat(fingerprint(checkedA, target)).isNotEqualTo(fingerprint(checkedB, target));

    SourceIdentity versionA = new SourceIdentity("src", "k", "v1", etag, 128, "image/jpeg");
    SourceIdentity versionB = new SourceIdentity("src", "k", "v2", etag, 128, "image/jpeg");
    assertThat(fingerprint(versionA, target)).isNotEqualTo(fingerprint(versionB, target));
  }

  /** The same bytes checked by S3 are one derivative, whichever upload or version holds them. */
  @Test
  void theSameCheckedBytesInAnotherVersionAreTheSameDerivative() throws Exception {
    String sha256 = hash("SHA-256", COLLIDING_A, false);
    String target = "{\"mediaType\":\"image/jpeg\",\"width\":256,\"height\":256}";

    assertThat(
            fingerprint(
                new SourceIdentity("src", "k", "v1", "\"e\"", 128, "image/jpeg", sha256), target))
        .isEqualTo(
            fingerprint(
                new SourceIdentity("src", "k", "v2", "\"e\"", 128, "image/jpeg", sha256), target));
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
