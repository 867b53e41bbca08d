package dev.derive.coordinator.url;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.derive.coordinator.Declarations;
import dev.derive.coordinator.identity.SourceIdentity;
import dev.derive.coordinator.plan.Planner;
import dev.derive.coordinator.plan.SourceObjects;
import dev.derive.coordinator.preset.Preset;
import dev.derive.coordinator.preset.Presets;
import dev.derive.coordinator.validate.DerivativeRequest;
import dev.derive.coordinator.validate.InvalidRequestException;
import dev.derive.coordinator.validate.RequestValidator;
import dev.derive.coordinator.validate.Violation;
import dev.derive.protocol.message.ObjectRef;
import dev.derive.protocol.message.PinnedObject;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** The image URL grammar and its canonical form: the JSON request it stands for. */
class ImageUrlTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private final RequestValidator validator = new RequestValidator(Declarations.ALL);
  private final Planner planner = new Planner(Declarations.ALL, "derivatives");
  private final Presets presets = Presets.builtIn(validator);
  private final UrlOptions options = UrlOptions.of(Declarations.CATALOGUE);

  private String fingerprint(JsonNode body) {
    DerivativeRequest request = validator.validate(body);
    SourceIdentity source =
        new SourceIdentity("sources", request.source().key(), null, "\"e1\"", 1000, "image/jpeg");
    return request.target() != null
        ? planner.plan(source, request.target(), MARKS).fingerprint()
        : planner.plan(source, request.steps(), MARKS).fingerprint();
  }

  /** Every other object of the source bucket (a watermark) exists, at version v7. */
  private static final SourceObjects.Lookup MARKS =
      key -> Optional.of(new PinnedObject(new ObjectRef("sources", key, "v7"), "\"m7\""));

  private String urlFingerprint(String path) {
    return fingerprint(ImageUrl.parse(path, options).requestBody(presets, "image/webp"));
  }

  private String jsonFingerprint(String target) throws Exception {
    return fingerprint(
        JSON.readTree("{\"source\":{\"key\":\"photos/cat.jpg\"},\"target\":" + target + "}"));
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      value = {
        "/sig/rs:inside:256:256/photos/cat.jpg | {\"mediaType\":\"image/jpeg\",\"width\":256,\"height\":256}",
        "/sig/rs:fit:256:256/photos/cat.jpg | {\"mediaType\":\"image/jpeg\",\"width\":256,\"height\":256,\"fit\":\"inside\"}",
        "/sig/s:300:0/f:webp/q:80/photos/cat.jpg | {\"mediaType\":\"image/webp\",\"width\":300,\"quality\":80}",
        "/sig/w:64/h:32/rt:cover/f:png/photos/cat.jpg | {\"mediaType\":\"image/png\",\"width\":64,\"height\":32,\"fit\":\"cover\"}",
        "/sig/rs:contain:100:100/bg:ff0000/f:jpg/photos/cat.jpg | {\"mediaType\":\"image/jpeg\",\"width\":100,\"height\":100,\"fit\":\"contain\",\"background\":\"#ff0000\"}",
        "/sig/rs:force:50:60:1/photos/cat.jpg | {\"mediaType\":\"image/jpeg\",\"width\":50,\"height\":60,\"fit\":\"fill\",\"withoutEnlargement\":false}",
        "/sig/pr:thumb/photos/cat.jpg | {\"mediaType\":\"image/jpeg\",\"width\":256,\"height\":256}",
        "/sig/pr:thumb/f:avif/photos/cat.jpg | {\"mediaType\":\"image/avif\",\"width\":256,\"height\":256,\"fit\":\"inside\"}",
        "/sig/w:64/f:gif/photos/cat.jpg | {\"mediaType\":\"image/gif\",\"width\":64}",
        "/sig/rs:fill:200:200/g:sm/photos/cat.jpg | {\"mediaType\":\"image/jpeg\",\"width\":200,\"height\":200,\"fit\":\"fill\",\"gravity\":\"smart\"}",
        "/sig/rt:cover/w:200/h:100/g:fp:30:70/photos/cat.jpg | {\"mediaType\":\"image/jpeg\",\"width\":200,\"height\":100,\"fit\":\"cover\",\"gravity\":\"focus\",\"focusX\":30,\"focusY\":70}",
        "/sig/rt:cover/w:200/h:100/gravity:noea/photos/cat.jpg | {\"mediaType\":\"image/jpeg\",\"width\":200,\"height\":100,\"fit\":\"cover\",\"gravity\":\"northeast\"}",
        "/sig/w:64/pd:10:20:30:40/f:png/photos/cat.jpg | {\"mediaType\":\"image/png\",\"width\":64,\"padTop\":10,\"padRight\":20,\"padBottom\":30,\"padLeft\":40}",
        "/sig/t:10/w:64/photos/cat.jpg | {\"mediaType\":\"image/jpeg\",\"width\":64,\"trim\":10}",
        "/sig/t:25:ffffff/photos/cat.jpg | {\"mediaType\":\"image/jpeg\",\"trim\":25,\"trimColour\":\"#ffffff\"}",
        "/sig/dpr:2/w:100/h:50/photos/cat.jpg | {\"mediaType\":\"image/jpeg\",\"width\":200,\"height\":100}",
        "/sig/rs:fit:100:0/dpr:1.5/pd:2:2:2:3/q:80/f:png/photos/cat.jpg | {\"mediaType\":\"image/png\",\"width\":150,\"fit\":\"inside\",\"padTop\":3,\"padRight\":3,\"padBottom\":3,\"padLeft\":5,\"quality\":80}",
        "/sig/dpr:2/pr:thumb/photos/cat.jpg | {\"mediaType\":\"image/jpeg\",\"width\":512,\"height\":512}",
        "/sig/w:64/dpr:1/photos/cat.jpg | {\"mediaType\":\"image/jpeg\",\"width\":64}",
        "/sig/w:64/f:webp/anim:1/photos/cat.jpg | {\"mediaType\":\"image/webp\",\"width\":64,\"animated\":true}",
        "/sig/pr:preview/w:0/photos/cat.jpg | {\"mediaType\":\"image/jpeg\",\"height\":1024}",
        "/sig/f:auto/w:10/photos/cat.jpg | {\"mediaType\":\"image/webp\",\"width\":10}",
        "/sig/exp:4102444800/w:10/photos/cat.jpg | {\"mediaType\":\"image/jpeg\",\"width\":10}",
        "/sig/w:10/plain/photos/cat.jpg | {\"mediaType\":\"image/jpeg\",\"width\":10}",
        "/sig/w:64/wmu:bWFya3MvbG9nby5wbmc/wm:50:soea:10:20/photos/cat.jpg | {\"mediaType\":\"image/jpeg\",\"width\":64,\"watermark\":\"marks/logo.png\",\"watermarkOpacity\":50,\"watermarkGravity\":\"southeast\",\"watermarkMargin\":10,\"watermarkScale\":20}",
        "/sig/watermark_url:bWFya3MvbG9nby5wbmc=/watermark:::4/photos/cat.jpg | {\"mediaType\":\"image/jpeg\",\"watermark\":\"marks/logo.png\",\"watermarkMargin\":4}",
        "/sig/wmu:bWFya3MvbG9nby5wbmc/dpr:2/wm:100:nowe:5/photos/cat.jpg | {\"mediaType\":\"image/jpeg\",\"watermark\":\"marks/logo.png\",\"watermarkGravity\":\"northwest\",\"watermarkMargin\":10}",
      })
  void aUrlSharesTheFingerprintOfTheJsonRequestItStandsFor(String path, String target)
      throws Exception {
    assertThat(urlFingerprint(path)).isEqualTo(jsonFingerprint(target));
  }

  /**
   * {@code wmu:} (imgproxy Pro's {@code watermark_url:}) names the mark by its key, base64url
   * encoded since a key holds {@code /}; the key is the JSON target's {@code watermark}.
   */
  @Test
  void aWatermarkKeyIsBase64UrlInTheUrlAndItselfInTheBody() {
    String key = "marks/été logo?.png";
    String encoded =
        java.util.Base64.getUrlEncoder()
            .withoutPadding()
            .encodeToString(key.getBytes(java.nio.charset.StandardCharsets.UTF_8));

    JsonNode body =
        ImageUrl.parse("/sig/wmu:" + encoded + "/photos/cat.jpg", options)
            .requestBody(presets, "image/webp");

    assertThat(body.path("target").path("watermark").asText()).isEqualTo(key);
    assertThat(urlFingerprint("/sig/wmu:" + encoded + "/photos/cat.jpg"))
        .isNotEqualTo(urlFingerprint("/sig/wmu:bWFya3MvbG9nby5wbmc/photos/cat.jpg"));
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "wmu:bWFya3MvbG9nby5wbmc*", // not of the alphabet
        "wmu:bWFya3M+bG9nby5wbmc", // standard base64's + (base64url spells it -)
        "wmu:b", // not a whole byte
        "wmu:_w", // 0xff: not UTF-8
        "watermark_url:bWFya3MvbG9nby5wbmc:x" // two arguments
      })
  void aWatermarkKeyThatIsNotBase64UrlIsA400NamingTheOption(String option) {
    InvalidRequestException refused =
        catchThrowableOfType(
            InvalidRequestException.class,
            () ->
                ImageUrl.parse("/sig/" + option + "/photos/cat.jpg", options)
                    .requestBody(presets, "image/webp"));

    assertThat(refused.violations()).hasSize(1);
    assertThat(refused.violations().get(0).pointer()).isEqualTo("/url/watermark_url");
  }

  @Test
  void aUrlNamingAPresetSharesTheFingerprintOfThePresetRequest() throws Exception {
    String viaPreset =
        fingerprint(
            presets.expand(
                JSON.readTree("{\"source\":{\"key\":\"photos/cat.jpg\"},\"preset\":\"thumb\"}")));

    assertThat(urlFingerprint("/sig/pr:thumb/photos/cat.jpg")).isEqualTo(viaPreset);
    assertThat(urlFingerprint("/sig/preset:thumb/photos/cat.jpg")).isEqualTo(viaPreset);
  }

  @Test
  void optionOrderAndAliasesDoNotChangeTheFingerprint() {
    assertThat(urlFingerprint("/sig/q:70/f:webp/w:99/photos/cat.jpg"))
        .isEqualTo(urlFingerprint("/sig/width:99/format:webp/quality:70/photos/cat.jpg"));
  }

  @Test
  void differentOptionsMakeDifferentDerivatives() {
    assertThat(urlFingerprint("/sig/w:99/photos/cat.jpg"))
        .isNotEqualTo(urlFingerprint("/sig/w:100/photos/cat.jpg"));
  }

  /**
   * The path arrives percent-decoded (API Gateway decodes {@code rawPath}), so nothing is decoded
   * again: a key holding {@code %} stays itself.
   */
  @Test
  void theKeyIsTheRestOfThePathAsReceived() {
    ImageUrl url = ImageUrl.parse("/abc/w:10/a b/été+1 100%25.jpg", options);

    assertThat(url.signature()).isEqualTo("abc");
    assertThat(url.signedPath()).isEqualTo("/w:10/a b/été+1 100%25.jpg");
    assertThat(url.key()).isEqualTo("a b/été+1 100%25.jpg");
  }

  /**
   * Issue 26 item 2: what is signed is the path exactly as received; a spelling that a router would
   * read as the same path ({@code //}, {@code /./}, {@code x/../}, a {@code ;} parameter) is
   * another path, and the signature does not verify.
   */
  @ParameterizedTest
  @org.junit.jupiter.params.provider.ValueSource(
      strings = {
        "/w:10//photos/cat.jpg",
        "/w:10/./photos/cat.jpg",
        "/w:10/x/../photos/cat.jpg",
        "/w:10/photos/cat.jpg;x",
        "/w:10;x/photos/cat.jpg",
        "/./w:10/photos/cat.jpg",
        "/w:10/photos//cat.jpg",
        "/w:10/photos/cat.jpg/"
      })
  void noOtherSpellingOfASignedPathVerifies(String variant) {
    UrlSigningKeys keys = UrlSigningKeys.parse("ab".repeat(32));
    String signature = keys.sign("/w:10/photos/cat.jpg");

    assertThat(ImageUrl.parse("/" + signature + variant, options).signedPath()).isEqualTo(variant);
    assertThat(
            catchThrowableOfType(
                    ForbiddenUrlException.class,
                    () -> ImageUrl.verified("/" + signature + variant, options, keys, 0))
                .kind())
        .isEqualTo(ForbiddenUrlException.INVALID_SIGNATURE);
  }

  private static Presets thumb(int size) {
    return Presets.parse(
        "{\"thumb\":{\"description\":\"a thumbnail\",\"target\":{\"mediaType\":\"image/jpeg\","
            + "\"width\":"
            + size
            + ",\"height\":"
            + size
            + "}}}",
        "test",
        new RequestValidator(Declarations.ALL));
  }

  /**
   * Issue 26 item 6: {@code pr:} signs the preset's content through its digest, so a URL signed
   * when {@code thumb} was 64 pixels is not served once {@code thumb} is 4096 pixels.
   */
  @Test
  void aPresetUrlIsServedOnlyForTheDefinitionItWasSignedFor() {
    Presets before = thumb(64);
    Presets after = thumb(4096);
    String digest = before.require("thumb", "/preset").digest();
    ImageUrl url = ImageUrl.parse("/sig/pr:thumb:" + digest + "/photos/cat.jpg", options);

    url.requirePresetInForce(before);
    assertThat(
            catchThrowableOfType(ForbiddenUrlException.class, () -> url.requirePresetInForce(after))
                .kind())
        .isEqualTo(ForbiddenUrlException.PRESET_CHANGED);
    assertThat(after.require("thumb", "/preset").digest())
        .hasSize(Preset.DIGEST_LENGTH)
        .isNotEqualTo(digest);
  }

  @Test
  void aPresetsDigestIsOfItsDefinitionNotItsDescription() {
    Presets described =
        Presets.parse(
            "{\"thumb\":{\"description\":\"another\",\"target\":{\"mediaType\":\"image/jpeg\","
                + "\"width\":64,\"height\":64}}}",
            "test",
            new RequestValidator(Declarations.ALL));

    assertThat(described.require("thumb", "/preset").digest())
        .isEqualTo(thumb(64).require("thumb", "/preset").digest());
  }

  @Test
  void aPresetUrlWithoutTheDigestIsA400() {
    assertThat(
            pointers(
                () ->
                    ImageUrl.parse("/sig/pr:thumb/photos/cat.jpg", options)
                        .requirePresetInForce(presets)))
        .containsExactly("/url/preset");
  }

  @Test
  void plainStartsAKeyWhoseFirstSegmentLooksLikeAnOption() {
    assertThat(ImageUrl.parse("/sig/w:10/plain/w:odd/x.jpg", options).key())
        .isEqualTo("w:odd/x.jpg");
  }

  @Test
  void aSegmentWithAnUnknownOptionNameStartsTheKey() {
    assertThat(ImageUrl.parse("/sig/w:10/2024:05/x.jpg", options).key()).isEqualTo("2024:05/x.jpg");
  }

  /**
   * An option no capability declares is refused naming it, not read as the start of the key (which
   * made {@code zz:1/f:webp/x.jpg} a 404 for a source of that name); a key whose first segment is
   * shaped like an option follows {@code plain/}, and colons later in a key are the key's.
   */
  @Test
  void anUnknownOptionIsA400NamingItAndNotPartOfTheKey() {
    assertThat(pointers(() -> ImageUrl.parse("/sig/zz:1/f:webp/x.jpg", options)))
        .containsExactly("/url/zz");
    assertThat(pointers(() -> ImageUrl.parse("/sig/w:10/sh:5/x.jpg", options)))
        .containsExactly("/url/sh");
    InvalidRequestException refused =
        catchThrowableOfType(
            InvalidRequestException.class, () -> ImageUrl.parse("/sig/zz:1/f:webp/x.jpg", options));
    assertThat(refused.violations().getFirst().detail()).contains("unknown option zz");
    assertThat(ImageUrl.parse("/sig/w:10/plain/zz:1/x.jpg", options).key()).isEqualTo("zz:1/x.jpg");
    assertThat(ImageUrl.parse("/sig/w:10/Photos:1/a:b.jpg", options).key())
        .isEqualTo("Photos:1/a:b.jpg");
  }

  /**
   * A DPR client hint stands for a {@code dpr:} the URL does not name, rounded up to a multiple of
   * 0.5 and at most 4 (a hint is not signed: one URL makes at most seven derivatives); a URL's own
   * {@code dpr:} wins; a malformed or unit hint is ignored.
   */
  @ParameterizedTest
  @CsvSource({
    "2,2",
    "2.0,2",
    "1.25,1.5",
    "2.625,3",
    "3.5,3.5",
    "5,4",
    "1,",
    "0.75,",
    "abc,",
    "-2,"
  })
  void aDprClientHintIsRoundedUpToAHalfAndAtMostFour(String hint, String ratio) {
    assertThat(UrlOptions.clientHintDpr(hint)).isEqualTo(java.util.Optional.ofNullable(ratio));
  }

  @Test
  void aHintedDprScalesLikeTheOptionAndTheUrlsOwnWins() throws Exception {
    ImageUrl hinted = ImageUrl.parse("/sig/w:100/h:50/photos/cat.jpg", options);
    ImageUrl own = ImageUrl.parse("/sig/dpr:1.5/w:100/h:50/photos/cat.jpg", options);

    assertThat(fingerprint(hinted.requestBody(presets, null, java.util.Optional.of("2"))))
        .isEqualTo(urlFingerprint("/sig/dpr:2/w:100/h:50/photos/cat.jpg"));
    assertThat(own.namesDpr()).isTrue();
    assertThat(hinted.namesDpr()).isFalse();
  }

  private static List<String> pointers(Runnable action) {
    return catchThrowableOfType(InvalidRequestException.class, action::run).violations().stream()
        .map(Violation::pointer)
        .toList();
  }

  @ParameterizedTest
  @ValueSource(strings = {"dpr:5", "dpr:0.5", "dpr:2x", "dpr:1.125", "dpr:4.01", "dpr:1:2"})
  void aDprOutsideOneToFourIsA400(String dpr) {
    assertThat(
            pointers(
                () ->
                    ImageUrl.parse("/sig/w:10/" + dpr + "/x.jpg", options)
                        .requestBody(presets, null)))
        .containsExactly("/url/dpr");
  }

  @Test
  void malformedUrlsAre400sNamingTheOption() {
    assertThat(pointers(() -> ImageUrl.parse("/sig/w:10", options))).containsExactly("/source/key");
    assertThat(pointers(() -> ImageUrl.parse("/sig/w:1/w:2/x.jpg", options)))
        .containsExactly("/url/width");
    assertThat(
            pointers(() -> ImageUrl.parse("/sig/w:ten/x.jpg", options).requestBody(presets, null)))
        .containsExactly("/url/width");
    assertThat(
            pointers(() -> ImageUrl.parse("/sig/f:bmp/x.jpg", options).requestBody(presets, null)))
        .containsExactly("/url/format");
    assertThat(
            pointers(
                () -> ImageUrl.parse("/sig/rs:crop:1:1/x.jpg", options).requestBody(presets, null)))
        .containsExactly("/url/resizing_type");
    assertThat(
            pointers(
                () -> ImageUrl.parse("/sig/pr:nope/x.jpg", options).requestBody(presets, null)))
        .containsExactly("/url/preset");
  }

  @Test
  void aValueOutOfBoundsIsRefusedByTheRequestValidatorAsForJson() {
    JsonNode body = ImageUrl.parse("/sig/w:100000/x.jpg", options).requestBody(presets, null);

    assertThat(pointers(() -> validator.validate(body))).containsExactly("/target/width");
  }

  @Test
  void aStepsPresetTakesNoOtherOptions() {
    Presets steps =
        Presets.parse(
            "{\"grey\":{\"steps\":[{\"capability\":\"image\",\"operation\":\"greyscale\"},"
                + "{\"capability\":\"image\",\"operation\":\"encode\",\"params\":"
                + "{\"mediaType\":\"image/png\"}}]}}",
            "test",
            validator);

    assertThat(ImageUrl.parse("/sig/pr:grey/x.jpg", options).requestBody(steps, null).has("steps"))
        .isTrue();
    assertThat(
            pointers(
                () -> ImageUrl.parse("/sig/pr:grey/w:5/x.jpg", options).requestBody(steps, null)))
        .containsExactly("/url/preset");
  }
}
