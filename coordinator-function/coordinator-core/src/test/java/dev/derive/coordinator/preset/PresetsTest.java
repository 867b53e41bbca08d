package dev.derive.coordinator.preset;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.derive.coordinator.Declarations;
import dev.derive.coordinator.identity.SourceIdentity;
import dev.derive.coordinator.plan.Planner;
import dev.derive.coordinator.validate.DerivativeRequest;
import dev.derive.coordinator.validate.InvalidRequestException;
import dev.derive.coordinator.validate.RequestValidator;
import dev.derive.coordinator.validate.Violation;
import org.junit.jupiter.api.Test;

class PresetsTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private final RequestValidator validator = new RequestValidator(Declarations.ALL);
  private final Planner planner = new Planner(Declarations.ALL, "derivatives");

  private static JsonNode json(String text) throws Exception {
    return JSON.readTree(text);
  }

  private String fingerprint(JsonNode body, String mediaType) {
    DerivativeRequest request = validator.validate(body);
    SourceIdentity source =
        new SourceIdentity("sources", request.source().key(), null, "\"e1\"", 1000, mediaType);
    return request.target() != null
        ? planner.plan(source, request.target()).fingerprint()
        : planner.plan(source, request.steps()).fingerprint();
  }

  @Test
  void aPresetAndTheJsonRequestSpellingItOutShareOneFingerprint() throws Exception {
    Presets presets = Presets.builtIn(validator);
    String named =
        fingerprint(
            presets.expand(json("{\"source\":{\"key\":\"a.jpg\"},\"preset\":\"thumb\"}")),
            "image/jpeg");
    String spelled =
        fingerprint(
            json(
                "{\"source\":{\"key\":\"a.jpg\"},\"target\":{\"mediaType\":\"image/jpeg\","
                    + "\"width\":256,\"height\":256}}"),
            "image/jpeg");

    assertThat(named).isEqualTo(spelled).matches("[0-9a-f]{64}");
  }

  @Test
  void aStepsPresetSharesTheFingerprintOfTheSameSteps() throws Exception {
    String document =
        """
        {"gray": {"steps": [{"capability": "image", "operation": "greyscale"},
                            {"capability": "image", "operation": "encode",
                             "params": {"mediaType": "image/png"}}]}}
        """;
    Presets presets = Presets.parse(document, "test", validator);
    String named =
        fingerprint(
            presets.expand(json("{\"source\":{\"key\":\"a.jpg\"},\"preset\":\"gray\"}")),
            "image/jpeg");
    String spelled =
        fingerprint(
            json(
                "{\"source\":{\"key\":\"a.jpg\"},\"steps\":[{\"capability\":\"image\","
                    + "\"operation\":\"greyscale\"},{\"capability\":\"image\",\"operation\":"
                    + "\"encode\",\"params\":{\"mediaType\":\"image/png\"}}]}"),
            "image/jpeg");

    assertThat(named).isEqualTo(spelled);
  }

  @Test
  void differentPresetsHaveDifferentFingerprints() throws Exception {
    Presets presets = Presets.builtIn(validator);
    String thumb =
        fingerprint(
            presets.expand(json("{\"source\":{\"key\":\"a.jpg\"},\"preset\":\"thumb\"}")),
            "image/jpeg");
    String preview =
        fingerprint(
            presets.expand(json("{\"source\":{\"key\":\"a.jpg\"},\"preset\":\"preview\"}")),
            "image/jpeg");

    assertThat(thumb).isNotEqualTo(preview);
  }

  @Test
  void theBuiltInPresetsIncludeThumbPreviewPageOneAndTextInDeclarationOrder() {
    assertThat(Presets.builtIn(validator).all())
        .extracting(Preset::name)
        .containsSubsequence("thumb", "preview", "page-1", "text");
  }

  @Test
  void aBuiltInPresetNoDeployedCapabilityMakesIsLeftOut() {
    Presets imageOnly =
        Presets.builtIn(new RequestValidator(java.util.List.of(Declarations.named("image"))));

    assertThat(imageOnly.all()).extracting(Preset::name).doesNotContain("text").contains("thumb");
  }

  @Test
  void anInvalidPresetIsRefusedAtLoadNamingItsPointerInTheDocument() {
    String document =
        """
        {"ok": {"target": {"mediaType": "image/png"}},
         "tiny": {"target": {"mediaType": "image/jpeg", "width": 0}},
         "Bad Name": {"target": {"mediaType": "image/png"}},
         "both": {"target": {"mediaType": "image/png"}, "steps": []},
         "extra": {"target": {"mediaType": "image/png"}, "wait": 3}}
        """;

    InvalidPresetsException e =
        catchThrowableOfType(
            InvalidPresetsException.class,
            () -> Presets.parse(document, "file:/p.json", validator));

    assertThat(e.violations())
        .extracting(Violation::pointer)
        .containsExactly("/tiny/target/width", "/Bad Name", "/both", "/extra/wait");
    assertThat(e.getMessage()).startsWith("invalid presets document file:/p.json:");
  }

  @Test
  void aDocumentThatIsNotAnObjectOfPresetsIsRefused() {
    assertThat(
            catchThrowableOfType(
                    InvalidPresetsException.class, () -> Presets.parse("[1]", "x", validator))
                .violations())
        .extracting(Violation::pointer)
        .containsExactly("");
    assertThat(
            catchThrowableOfType(
                InvalidPresetsException.class, () -> Presets.parse("{", "x", validator)))
        .hasMessageContaining("not JSON");
  }

  @Test
  void anUnknownPresetIsA400AtPresetListingTheKnownOnes() {
    InvalidRequestException e =
        catchThrowableOfType(
            InvalidRequestException.class,
            () ->
                Presets.builtIn(validator)
                    .expand(json("{\"source\":{\"key\":\"a.jpg\"},\"preset\":\"huge\"}")));

    assertThat(e.violations()).extracting(Violation::pointer).containsExactly("/preset");
    assertThat(e.getMessage()).contains("unknown preset 'huge'").contains("thumb");
  }

  @Test
  void aPresetWithATargetTooIsA400() {
    InvalidRequestException e =
        catchThrowableOfType(
            InvalidRequestException.class,
            () ->
                Presets.builtIn(validator)
                    .expand(
                        json(
                            "{\"source\":{\"key\":\"a.jpg\"},\"preset\":\"thumb\","
                                + "\"target\":{\"mediaType\":\"image/png\"}}")));

    assertThat(e.getMessage()).isEqualTo("/preset: give one of preset, target or steps");
  }

  @Test
  void aPresetNameWithAControlCharacterIsNotEchoed() {
    InvalidRequestException e =
        catchThrowableOfType(
            InvalidRequestException.class,
            () ->
                Presets.builtIn(validator)
                    .expand(json("{\"source\":{\"key\":\"a.jpg\"},\"preset\":\"th\\u001bumb\"}")));

    assertThat(e.getMessage()).contains("no such preset").doesNotContain("\u001b");
  }

  @Test
  void aBodyWithoutPresetIsLeftAsItIs() throws Exception {
    JsonNode body =
        json("{\"source\":{\"key\":\"a.jpg\"},\"target\":{\"mediaType\":\"image/png\"}}");

    assertThat(Presets.builtIn(validator).expand(body)).isSameAs(body);
  }
}
