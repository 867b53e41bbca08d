package dev.derive.protocol.capability;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Reading declarations: their shape, and each rule a declaration or a set of them must keep. */
class CapabilityDeclarationsTest {
  /** A small valid declaration; {@code %s} is replaced by extra members or parameters. */
  private static String declaration(String name, String parameter, String extra) {
    return """
        {"name": "%s", "description": "d",
         "timeBudget": {"timeoutSeconds": 60, "leaseSeconds": 1200},
         "limits": {"maxSide": 100},
         "conversions": [{"sources": ["a/x"], "targets": ["a/y", "a/z"], "cost": 1,
                          "operations": ["first", "last"]}],
         "operations": [
           {"name": "first", "description": "d", "optional": true, "consumes": ["side"],
            "parameters": [%s]},
           {"name": "last", "description": "d"}
         ]%s}
        """
        .formatted(name, parameter, extra);
  }

  private static final String SIDE =
      "{\"name\": \"side\", \"type\": \"integer\", \"minimum\": 1, \"maximum\": \"maxSide\"}";

  private static CapabilityDescriptor parse(String json) {
    return CapabilityDeclarations.parse(json, "test.json");
  }

  @Test
  void readsEveryPairOfAConversionAndResolvesNamedLimits() {
    CapabilityDescriptor read = parse(declaration("cap", SIDE, ""));

    assertThat(read.queueUrlVariable()).isEqualTo("CAP_QUEUE_URL");
    assertThat(read.writes()).containsExactly("a/y", "a/z");
    assertThat(read.operation("first").orElseThrow().parameter("side").orElseThrow().maximum())
        .isEqualTo(100);
    assertThat(read.timeBudget().leaseSeconds()).isEqualTo(1200);
  }

  @Test
  void anUnknownMemberIsRefusedByItsPointer() {
    assertThatThrownBy(() -> parse(declaration("cap", SIDE, ", \"colour\": 1")))
        .isInstanceOf(InvalidDeclarationException.class)
        .hasMessageContaining("test.json")
        .hasMessageContaining("/colour: unknown member");
    String misspelt = SIDE.replace("\"minimum\"", "\"minimun\"");
    assertThatThrownBy(() -> parse(declaration("cap", misspelt, "")))
        .hasMessageContaining("/operations/0/parameters/0/minimun: unknown member");
  }

  @Test
  void aDefaultOutsideItsOwnRangeIsRefused() {
    String parameter = SIDE.replace("}", ", \"defaultValue\": 101}");

    assertThatThrownBy(() -> parse(declaration("cap", parameter, "")))
        .hasMessageContaining("/defaultValue: must be between 1 and 100, got 101");
  }

  @Test
  void anOutputDefaultStandsInForTheDefaultOfAStepWritingThatType() {
    String parameter =
        SIDE.replace("}", ", \"defaultValue\": 50, \"outputDefaults\": {\"a/z\": 30}}");

    ParameterDescriptor side =
        parse(declaration("cap", parameter, ""))
            .operation("first")
            .orElseThrow()
            .parameter("side")
            .orElseThrow();

    assertThat(side.defaultFor("a/z")).isEqualTo(30);
    assertThat(side.defaultFor("a/y")).isEqualTo(50);
    assertThat(side.defaultFor(null)).isEqualTo(50);
    assertThatThrownBy(
            () ->
                parse(
                    declaration(
                        "cap", SIDE.replace("}", ", \"outputDefaults\": {\"a/z\": 30}}"), "")))
        .hasMessageContaining("outputDefaults need a defaultValue");
    assertThatThrownBy(() -> parse(declaration("cap", parameter.replace("30}", "300}"), "")))
        .hasMessageContaining("/outputDefaults/a/z: must be between 1 and 100, got 300");
  }

  @Test
  void aBoundNamingNoLimitIsRefused() {
    assertThatThrownBy(() -> parse(declaration("cap", SIDE.replace("maxSide", "maxSize"), "")))
        .hasMessageContaining("names no limit of the declaration: maxSize");
  }

  @Test
  void aConversionListsItsOperationsInTheDeclaredOrder() {
    String json =
        declaration("cap", SIDE, "").replace("[\"first\", \"last\"]", "[\"last\", \"first\"]");

    assertThatThrownBy(() -> parse(json)).hasMessageContaining("out of their declared order");
  }

  @Test
  void aFolderIsReadSortedByNameAndTwoDeclarationsOfOneNameAreRefused(@TempDir Path folder)
      throws Exception {
    Files.createDirectories(folder.resolve("b"));
    Files.writeString(folder.resolve("b/capability.json"), declaration("zed", SIDE, ""));
    Files.writeString(folder.resolve("a.json"), declaration("alpha", SIDE, ""));

    assertThat(CapabilityDeclarations.load(folder.toString()))
        .extracting(CapabilityDescriptor::name)
        .containsExactly("alpha", "zed");
    assertThat(CapabilityDeclarations.load(folder + "/*/capability.json"))
        .extracting(CapabilityDescriptor::name)
        .containsExactly("zed");

    Files.writeString(folder.resolve("c.json"), declaration("zed", SIDE, ""));
    assertThatThrownBy(() -> CapabilityDeclarations.load(folder.toString()))
        .hasMessageContaining("two declarations of the capability zed");
  }

  @Test
  void nothingToReadIsAnErrorSayingWhereDeclarationsComeFrom(@TempDir Path folder) {
    assertThatThrownBy(() -> CapabilityDeclarations.load(folder.resolve("none").toString()))
        .isInstanceOf(InvalidDeclarationException.class)
        .hasMessageContaining("no capability declarations found");
  }

  @Test
  void twoCapabilitiesConsumingOneTargetOptionMustAcceptTheSameValues() {
    CapabilityDescriptor one = parse(declaration("one", SIDE, ""));
    CapabilityDescriptor same = parse(declaration("same", SIDE, ""));
    CapabilityDescriptor other =
        parse(declaration("other", SIDE.replace("\"minimum\": 1", "\"minimum\": 2"), ""));

    assertThat(new CapabilityCatalogue(List.of(one, same)).targetOptions())
        .extracting(ParameterDescriptor::name)
        .containsExactly("side");
    assertThatThrownBy(() -> new CapabilityCatalogue(List.of(one, other)))
        .isInstanceOf(InvalidDeclarationException.class)
        .hasMessageContaining("a target option means one thing");
  }

  @Test
  void aLimitHasOneValueAcrossCapabilities() {
    CapabilityDescriptor one = parse(declaration("one", SIDE, ""));
    CapabilityDescriptor other =
        parse(
            declaration("other", SIDE.replace("\"maxSide\"", "100"), "")
                .replace("\"maxSide\": 100", "\"maxSide\": 99"));

    assertThatThrownBy(() -> new CapabilityCatalogue(List.of(one, other)))
        .hasMessageContaining("declares the limit maxSide = 99");
  }

  @Test
  void anImageUrlOptionNameMeansOneThingAndNeverAGrammarName() {
    String spelled = SIDE.replace("}", ", \"url\": {\"names\": [\"sd\", \"side\"]}}");
    CapabilityDescriptor one = parse(declaration("one", spelled, ""));

    assertThat(new CapabilityCatalogue(List.of(one)).urlOptions().get("sd").name())
        .isEqualTo("side");
    String grammar = SIDE.replace("}", ", \"url\": {\"names\": [\"f\"]}}");
    assertThatThrownBy(
            () -> new CapabilityCatalogue(List.of(parse(declaration("one", grammar, "")))))
        .hasMessageContaining("the URL grammar's own");
  }
}
