package dev.derive.protocol.identity;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * {@link CanonicalJson} against the test vectors RFC 8785 publishes: the examples of sections 3.2.2
 * (values) and 3.2.3 (sorting), which the reference implementation's testdata
 * (cyberphone/json-canonicalization, {@code testdata/input/values.json} and {@code weird.json})
 * holds as well, and the IEEE 754 table of Appendix B.
 */
class CanonicalJsonTest {
  private final ObjectMapper mapper = new ObjectMapper();

  /** RFC 8785 section 3.2.2, "Serialization of Primitive Data Types". */
  @Test
  void serialisesTheValuesOfSection3_2_2() throws Exception {
    String input =
        """
        {
          "numbers": [333333333.33333329, 1E30, 4.50, 2e-3, 0.000000000000000000000000001],
          "string": "\\u20ac$\\u000F\\u000aA'\\u0042\\u0022\\u005c\\\\\\"\\/",
          "literals": [null, true, false]
        }""";

    assertThat(CanonicalJson.encode(mapper.readTree(input)))
        .isEqualTo(
            "{\"literals\":[null,true,false],"
                + "\"numbers\":[333333333.3333333,1e+30,4.5,0.002,1e-27],"
                + "\"string\":\"€$\\u000f\\nA'B\\\"\\\\\\\\\\\"/\"}");
  }

  /** RFC 8785 section 3.2.3, "Sorting of Object Properties": by UTF-16 code units. */
  @Test
  void sortsTheMembersOfSection3_2_3ByUtf16CodeUnits() throws Exception {
    String input =
        """
        {
          "\\u20ac": "Euro Sign",
          "\\r": "Carriage Return",
          "\\ufb33": "Hebrew Letter Dalet With Dagesh",
          "1": "One",
          "\\ud83d\\ude00": "Emoji: Grinning Face",
          "\\u0080": "Control",
          "\\u00f6": "Latin Small Letter O With Diaeresis"
        }""";

    assertThat(CanonicalJson.encode(mapper.readTree(input)))
        .isEqualTo(
            "{\"\\r\":\"Carriage Return\",\"1\":\"One\",\"\u0080\":\"Control\","
                + "\"ö\":\"Latin Small Letter O With Diaeresis\",\"€\":\"Euro Sign\","
                + "\"😀\":\"Emoji: Grinning Face\",\"\ufb33\":\"Hebrew Letter Dalet With Dagesh\"}");
  }

  /** RFC 8785 Appendix B, "Number Serialization Samples": IEEE 754 bits and the expected text. */
  @ParameterizedTest(name = "{0} -> {1}")
  @CsvSource({
    "0000000000000000, 0",
    "8000000000000000, 0",
    "0000000000000001, 5e-324",
    "8000000000000001, -5e-324",
    "7fefffffffffffff, 1.7976931348623157e+308",
    "ffefffffffffffff, -1.7976931348623157e+308",
    "4340000000000000, 9007199254740992",
    "c340000000000000, -9007199254740992",
    "4430000000000000, 295147905179352830000",
    "44b52d02c7e14af5, 9.999999999999997e+22",
    "44b52d02c7e14af6, 1e+23",
    "44b52d02c7e14af7, 1.0000000000000001e+23",
    "444b1ae4d6e2ef4e, 999999999999999700000",
    "444b1ae4d6e2ef4f, 999999999999999900000",
    "444b1ae4d6e2ef50, 1e+21",
    "3eb0c6f7a0b5ed8c, 9.999999999999997e-7",
    "3eb0c6f7a0b5ed8d, 0.000001",
    "41b3de4355555553, 333333333.3333332",
    "41b3de4355555554, 333333333.33333325",
    "41b3de4355555555, 333333333.3333333",
    "41b3de4355555556, 333333333.3333334",
    "41b3de4355555557, 333333333.33333343",
    "becbf647612f3696, -0.0000033333333333333333",
    "43143ff3c1cb0959, 1424953923781206.2",
    // the reference implementation's testdata README adds these
    "4340000000000001, 9007199254740994",
    "4340000000000002, 9007199254740996"
  })
  void writesTheNumbersOfAppendixB(String ieee754, String expected) {
    double value = Double.longBitsToDouble(Long.parseUnsignedLong(ieee754, 16));

    assertThat(CanonicalJson.number(value)).isEqualTo(expected);
  }

  /** RFC 8785 Appendix B: NaN and Infinity have no JSON form. */
  @Test
  void refusesNaNAndTheInfinities() {
    for (double value : List.of(Double.NaN, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY)) {
      assertThatThrownBy(() -> CanonicalJson.number(value))
          .isInstanceOf(IllegalArgumentException.class);
    }
  }

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
  void escapesStringsMinimallyWithLowerCaseHex() {
    assertThat(CanonicalJson.encode(Map.of("k", "a\"b\\c\nd\u0001\u001fé/")))
        .isEqualTo("{\"k\":\"a\\\"b\\\\c\\nd\\u0001\\u001fé/\"}");
  }

  @Test
  void keepsNullMembersAsJcsDoes() throws Exception {
    assertThat(CanonicalJson.encode(mapper.readTree("{\"b\":null,\"a\":1}")))
        .isEqualTo("{\"a\":1,\"b\":null}");
  }
}
