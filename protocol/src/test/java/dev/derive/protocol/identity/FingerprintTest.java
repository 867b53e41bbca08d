package dev.derive.protocol.identity;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.Map;
import org.junit.jupiter.api.Test;

class FingerprintTest {
  private final ObjectMapper mapper = new ObjectMapper();

  @Test
  void isSixtyFourLowerCaseHexCharacters() {
    String fingerprint = Fingerprint.of(Map.of("a", 1));
    assertThat(fingerprint).hasSize(64).matches("[0-9a-f]{64}");
    assertThat(Fingerprint.isWellFormed(fingerprint)).isTrue();
    assertThat(Fingerprint.isWellFormed(fingerprint.toUpperCase())).isFalse();
    assertThat(Fingerprint.isWellFormed("../etc")).isFalse();
  }

  @Test
  void isTheSha256OfTheCanonicalEncoding() {
    // SHA-256("{}"), from any sha256sum.
    assertThat(Fingerprint.of(Map.of()))
        .isEqualTo("44136fa355b3678a1146ad16f7e8649e94fb4fc21fe77e8310c060f61caaff8a");
  }

  @Test
  void ignoresMemberOrderAndNumberSpelling() throws Exception {
    assertThat(Fingerprint.of(mapper.readTree("{\"w\":256,\"h\":128.0}")))
        .isEqualTo(Fingerprint.of(mapper.readTree("{\"h\":128,\"w\":2.56E2}")));
  }

  @Test
  void changesWithAnyValue() {
    assertThat(Fingerprint.of(Map.of("w", 256))).isNotEqualTo(Fingerprint.of(Map.of("w", 257)));
    assertThat(Fingerprint.of(Map.of("etag", "a")))
        .isNotEqualTo(Fingerprint.of(Map.of("etag", "b")));
  }

  @Test
  void omitsNullMembersSoAnAbsentOptionalEqualsAnExplicitNull() {
    Map<String, Object> withNull = new java.util.LinkedHashMap<>();
    withNull.put("a", 1);
    withNull.put("versionId", null);
    assertThat(Fingerprint.of(withNull)).isEqualTo(Fingerprint.of(Map.of("a", 1)));
  }

  /**
   * A derivative's identity as DerivativeFingerprint writes it: strings, integers and booleans.
   * Pinned, so a change of the canonical form that changed realistic fingerprints (and so every
   * cache key and job id) is seen; computed with the canonical form before RFC 8785 was followed
   * exactly.
   */
  @Test
  void aRealisticIdentityKeepsItsFingerprint() throws Exception {
    String identity =
        """
        {"pipelineVersion":"2",
         "source":{"bucket":"derive-source","key":"photos/cat é.jpg","etag":"\\"9b2cf535f27731c974343645a3985328\\""},
         "steps":[{"capability":"image","outputMediaType":"image/jpeg",
                   "operations":[{"operation":"resize","params":{"fit":"inside","height":256,"width":256.0,"withoutEnlargement":true}},
                                 {"operation":"encode","params":{"mediaType":"image/jpeg","quality":85}}]}]}
        """;

    assertThat(Fingerprint.of(mapper.readTree(identity)))
        .isEqualTo("81e3b990162ceac85d72bc234eb14dca2d3a175466ab866790806d2fb2421f7c");
  }
}
