package dev.derive.protocol.identity;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.math.BigDecimal;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class CanonicalJsonTest {
  private final ObjectMapper mapper = new ObjectMapper();

  @Test
  void sortsObjectMembersAndDropsWhiteSpace() throws Exception {
    assertThat(CanonicalJson.encode(mapper.readTree("{ \"b\" : 1, \"a\" : [ true, \"x\" ] }")))
        .isEqualTo("{\"a\":[true,\"x\"],\"b\":1}");
  }

  @Test
  void writesIntegralNumbersAsIntegersWhateverTheirSpelling() throws Exception {
    for (String spelling : List.of("256", "256.0", "256.000", "2.56e2", "2560e-1")) {
      assertThat(CanonicalJson.encode(mapper.readTree("{\"w\":" + spelling + "}")))
          .as(spelling)
          .isEqualTo("{\"w\":256}");
    }
  }

  @Test
  void keepsFractionsExactWithoutExponent() {
    assertThat(CanonicalJson.canonicalNumber(new BigDecimal("0.50"))).isEqualTo("0.5");
    assertThat(CanonicalJson.canonicalNumber(new BigDecimal("-1E-7"))).isEqualTo("-0.0000001");
    assertThat(CanonicalJson.canonicalNumber(new BigDecimal("0.000"))).isEqualTo("0");
  }

  @Test
  void escapesStringsMinimally() {
    assertThat(CanonicalJson.encode(Map.of("k", "a\"b\\c\nd\u0001é")))
        .isEqualTo("{\"k\":\"a\\\"b\\\\c\\nd\\u0001é\"}");
  }

  @Test
  void omitsNullMembersSoAnAbsentOptionalEqualsAnExplicitNull() {
    Map<String, Object> withNull = new LinkedHashMap<>();
    withNull.put("a", 1);
    withNull.put("versionId", null);
    assertThat(CanonicalJson.encode(withNull)).isEqualTo(CanonicalJson.encode(Map.of("a", 1)));
  }
}
