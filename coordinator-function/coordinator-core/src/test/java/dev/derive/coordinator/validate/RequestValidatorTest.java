package dev.derive.coordinator.validate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.derive.coordinator.Declarations;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class RequestValidatorTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private final RequestValidator validator = new RequestValidator(Declarations.ALL);

  static ObjectNode valid() {
    try {
      return (ObjectNode)
          JSON.readTree(
              """
              {"source":{"key":"photos/cat.jpg"},
               "target":{"mediaType":"image/jpeg","width":256,"height":256,"fit":"inside"}}
              """);
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }

  private static ObjectNode source(ObjectNode body) {
    return (ObjectNode) body.get("source");
  }

  private static ObjectNode target(ObjectNode body) {
    return (ObjectNode) body.get("target");
  }

  private static Arguments rejects(String pointer, Consumer<ObjectNode> change) {
    return Arguments.of(pointer, change);
  }

  static Stream<Arguments> invalidRequests() {
    String longKey = "k".repeat(1025);
    return Stream.of(
        rejects("/extra", b -> b.put("extra", 1)),
        rejects("/callback", b -> b.put("callback", 42)),
        rejects("/callback", b -> b.put("callback", "http://hooks.example.com/derive")),
        rejects("/callback", b -> b.put("callback", "https://user:secret@hooks.example.com/")),
        rejects("/callback", b -> b.put("callback", "https://hooks.example.com/a\nb")),
        rejects("/callback", b -> b.put("callback", "https://10.0.0.7/hook")),
        rejects("/callback", b -> b.put("callback", "https://127.0.0.1/hook")),
        rejects("/callback", b -> b.put("callback", "/relative/hook")),
        rejects("/source", b -> b.remove("source")),
        rejects("/source", b -> b.put("source", "photos/cat.jpg")),
        rejects("/source/extra", b -> source(b).put("extra", true)),
        rejects("/source/key", b -> source(b).remove("key")),
        rejects("/source/key", b -> source(b).put("key", 42)),
        rejects("/source/key", b -> source(b).put("key", "")),
        rejects("/source/key", b -> source(b).put("key", longKey)),
        rejects("/source/key", b -> source(b).put("key", "é".repeat(513))),
        rejects("/source/key", b -> source(b).put("key", "a\nb")),
        rejects("/source/key", b -> source(b).put("key", "a\u0000b")),
        rejects("/source/key", b -> source(b).put("key", "/photos/cat.jpg")),
        rejects("/source/key", b -> source(b).put("key", "photos/../secret")),
        rejects("/source/key", b -> source(b).put("key", "..")),
        rejects("/source/versionId", b -> source(b).put("versionId", 3)),
        rejects("/source/versionId", b -> source(b).put("versionId", " ")),
        rejects("/target", b -> b.remove("target")),
        rejects("/target/extra", b -> target(b).put("extra", 1)),
        rejects("/target/a~1b", b -> target(b).put("a/b", 1)),
        rejects("/target/mediaType", b -> target(b).remove("mediaType")),
        rejects("/target/mediaType", b -> target(b).put("mediaType", "image/x-icon")),
        rejects("/target/mediaType", b -> target(b).put("mediaType", "jpeg")),
        rejects("/target/mediaType", b -> target(b).put("mediaType", 1)),
        rejects("/target/width", b -> target(b).put("width", 0)),
        rejects("/target/width", b -> target(b).put("width", -1)),
        rejects(
            "/target/width", b -> target(b).put("width", Declarations.limit("maxDimension") + 1)),
        rejects("/target/width", b -> target(b).put("width", 100000)),
        rejects("/target/width", b -> target(b).put("width", 256.5)),
        rejects("/target/width", b -> target(b).put("width", "256")),
        rejects("/target/width", b -> target(b).put("width", 1e30)),
        rejects("/target/height", b -> target(b).put("height", 0)),
        rejects(
            "/target/height", b -> target(b).put("height", Declarations.limit("maxDimension") + 1)),
        rejects("/target/quality", b -> target(b).put("quality", 0)),
        rejects("/target/quality", b -> target(b).put("quality", 101)),
        rejects("/target/quality", b -> target(b).put("quality", "high")),
        rejects("/target/fit", b -> target(b).put("fit", "scale-down")),
        rejects("/target/fit", b -> target(b).put("fit", 1)),
        rejects("/target/withoutEnlargement", b -> target(b).put("withoutEnlargement", "yes")),
        rejects("/target/page", b -> target(b).put("page", 0)),
        rejects("/target/page", b -> target(b).put("page", Declarations.limit("maxPage") + 1)),
        rejects("/target/dpi", b -> target(b).put("dpi", 0)),
        rejects("/target/dpi", b -> target(b).put("dpi", Declarations.limit("maxDpi") + 1)),
        rejects("/target/background", b -> target(b).put("background", "red")),
        rejects("/target/background", b -> target(b).put("background", "#12345")),
        rejects("/target/background", b -> target(b).put("background", "#1234567")),
        rejects("/wait", b -> b.put("wait", -1)),
        rejects("/wait", b -> b.put("wait", RequestValidator.MAX_WAIT_SECONDS + 1)),
        rejects("/wait", b -> b.put("wait", 2.5)),
        rejects("/wait", b -> b.put("wait", "5")),
        rejects(
            "/steps",
            b ->
                b.set(
                    "steps",
                    steps(
                        """
            [{"capability":"image","operation":"resize","params":{"width":9}}]"""))),
        rejects("/steps", b -> withSteps(b, "{}")),
        rejects("/steps", b -> withSteps(b, "[]")),
        rejects("/steps/0", b -> withSteps(b, "[1]")),
        rejects("/steps/0/capability", b -> withSteps(b, "[{\"operation\":\"resize\"}]")),
        rejects(
            "/steps/0/capability",
            b -> withSteps(b, "[{\"capability\":\"teleport\",\"operation\":\"resize\"}]")),
        rejects(
            "/steps/0/operation",
            b -> withSteps(b, "[{\"capability\":\"image\",\"operation\":\"vignette\"}]")),
        rejects(
            "/steps/0/extra",
            b -> withSteps(b, "[{\"capability\":\"text\",\"operation\":\"extract\",\"extra\":1}]")),
        rejects(
            "/steps/1/params/width",
            b ->
                withSteps(
                    b,
                    "[{\"capability\":\"pdf\",\"operation\":\"render\"},"
                        + "{\"capability\":\"image\",\"operation\":\"resize\","
                        + "\"params\":{\"width\":0}}]")),
        rejects(
            "/steps/0/params/pageSize",
            b ->
                withSteps(
                    b,
                    "[{\"capability\":\"markup\",\"operation\":\"render\","
                        + "\"params\":{\"pageSize\":\"A3\"}}]")),
        rejects(
            "/steps/0/params/quality",
            b ->
                withSteps(
                    b,
                    "[{\"capability\":\"pdf\",\"operation\":\"render\","
                        + "\"params\":{\"quality\":50}}]")),
        // what the image worker would refuse with invalid-step, refused here with 400 instead
        rejects("/steps/0/params/angle", b -> withImageStep(b, "rotate", "{\"angle\":45}")),
        rejects("/steps/0/params/angle", b -> withImageStep(b, "rotate", "{}")),
        rejects(
            "/steps/0/params",
            b -> withSteps(b, "[{\"capability\":\"image\",\"operation\":\"rotate\"}]")),
        rejects("/steps/0/params/width", b -> withImageStep(b, "crop", "{\"height\":10}")),
        rejects("/steps/0/params", b -> withImageStep(b, "resize", "{\"fit\":\"cover\"}")),
        rejects(
            "/steps/0/params/left",
            b -> withImageStep(b, "crop", "{\"width\":9,\"height\":9,\"left\":0}")),
        rejects(
            "/steps/0/params",
            b ->
                withImageStep(
                    b,
                    "crop",
                    "{\"width\":9,\"height\":9,\"left\":0,\"top\":0,\"gravity\":\"north\"}")));
  }

  private static void withImageStep(ObjectNode body, String operation, String params) {
    withSteps(
        body,
        "[{\"capability\":\"image\",\"operation\":\""
            + operation
            + "\",\"params\":"
            + params
            + "}]");
  }

  static Stream<Arguments> messages() {
    return Stream.of(
        Arguments.of(
            (Consumer<ObjectNode>) b -> withImageStep(b, "rotate", "{\"angle\":135}"),
            "/steps/0/params/angle: must be one of [90, 180, 270], got 135"),
        Arguments.of(
            (Consumer<ObjectNode>) b -> withImageStep(b, "rotate", "{\"angle\":-90}"),
            "/steps/0/params/angle: must be one of [90, 180, 270], got -90"),
        Arguments.of(
            (Consumer<ObjectNode>) b -> withImageStep(b, "resize", "{\"fit\":\"cover\"}"),
            "/steps/0/params: needs at least one of width, height"),
        Arguments.of(
            (Consumer<ObjectNode>)
                b -> withImageStep(b, "crop", "{\"width\":9,\"height\":9,\"top\":0}"),
            "/steps/0/params/top: needs left as well"),
        Arguments.of(
            (Consumer<ObjectNode>)
                b ->
                    withImageStep(
                        b,
                        "crop",
                        "{\"width\":9,\"height\":9,\"left\":1,\"top\":1,\"gravity\":\"east\"}"),
            "/steps/0/params: takes at most one of left, gravity"),
        Arguments.of(
            (Consumer<ObjectNode>) b -> target(b).put("width", 0),
            "/target/width: must be between 1 and 16384, got 0"),
        Arguments.of(
            (Consumer<ObjectNode>) b -> target(b).put("fit", "scale-down"),
            "/target/fit: unsupported value 'scale-down'; allowed: [cover, contain, fill, inside,"
                + " outside]"),
        Arguments.of(
            (Consumer<ObjectNode>) b -> target(b).put("extra", 1), "/target/extra: unknown field"),
        Arguments.of(
            (Consumer<ObjectNode>) b -> source(b).remove("key"), "/source/key: is required"),
        Arguments.of(
            (Consumer<ObjectNode>) b -> b.remove("target"),
            "/target: is required: give target, steps or preset"),
        Arguments.of(
            (Consumer<ObjectNode>)
                b ->
                    b.putArray("steps")
                        .addObject()
                        .put("capability", "text")
                        .put("operation", "extract"),
            "/steps: give only one of target, steps or preset, not target and steps"),
        Arguments.of((Consumer<ObjectNode>) b -> b.put("wait", 2.5), "/wait: must be an integer"),
        Arguments.of(
            (Consumer<ObjectNode>)
                b -> withSteps(b, "[{\"capability\":\"teleport\",\"operation\":\"x\"}]"),
            "/steps/0/capability: unsupported value 'teleport'; allowed: "
                + Declarations.ALL.stream().map(c -> c.name()).toList()));
  }

  /** The wording of the schema's violations: specific, with the schema's own numbers and names. */
  @ParameterizedTest(name = "{1}")
  @MethodSource("messages")
  void namesWhatIsWrongInWords(Consumer<ObjectNode> change, String message) {
    ObjectNode body = valid();
    change.accept(body);

    InvalidRequestException e =
        catchThrowableOfType(InvalidRequestException.class, () -> validator.validate(body));

    assertThat(e).isNotNull();
    assertThat(e.getMessage()).isEqualTo(message);
  }

  @Test
  void aNullMemberCountsAsAbsent() throws Exception {
    JsonNode body =
        JSON.readTree(
            """
            {"source":{"key":"a.jpg","versionId":null},"steps":null,"wait":null,"callback":null,
             "target":{"mediaType":"image/png","width":null}}
            """);

    DerivativeRequest request = validator.validate(body);

    assertThat(request.target().params()).containsOnlyKeys("mediaType");
    assertThat(request.source().versionId()).isNull();
    assertThat(request.waitSeconds()).isZero();
  }

  private static JsonNode steps(String json) {
    try {
      return JSON.readTree(json);
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }

  private static void withSteps(ObjectNode body, String json) {
    body.remove("target");
    body.set("steps", steps(json));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("invalidRequests")
  void rejectsNamingThePointer(String pointer, Consumer<ObjectNode> change) {
    ObjectNode body = valid();
    change.accept(body);

    InvalidRequestException e =
        catchThrowableOfType(InvalidRequestException.class, () -> validator.validate(body));

    assertThat(e).as("expected a violation at %s", pointer).isNotNull();
    assertThat(e.violations()).extracting(Violation::pointer).containsExactly(pointer);
    assertThat(e.getMessage()).startsWith(pointer + ": ");
  }

  @Test
  void acceptsAnHttpsCallback() {
    ObjectNode body = valid();
    body.put("callback", "https://hooks.example.com/derive?tenant=7");

    assertThat(validator.validate(body).callback())
        .isEqualTo("https://hooks.example.com/derive?tenant=7");
  }

  @Test
  void acceptsAnHttpLoopbackCallbackOnlyForLocalWork() {
    ObjectNode body = valid();
    body.put("callback", "http://127.0.0.1:8125/hook");
    RequestValidator local =
        new RequestValidator(Declarations.CATALOGUE, CallbackUrlPolicy.allowingLoopback());

    assertThat(local.validate(body).callback()).isEqualTo("http://127.0.0.1:8125/hook");
    InvalidRequestException deployed =
        catchThrowableOfType(InvalidRequestException.class, () -> validator.validate(body));
    assertThat(deployed.getMessage()).isEqualTo("/callback: must be an https URL");
  }

  static Stream<Arguments> acceptedBounds() {
    return Stream.of(
        Arguments.of("width", 1),
        Arguments.of("width", Declarations.limit("maxDimension")),
        Arguments.of("height", 1),
        Arguments.of("height", Declarations.limit("maxDimension")),
        Arguments.of("quality", 1),
        Arguments.of("quality", 100),
        Arguments.of("page", 1),
        Arguments.of("page", Declarations.limit("maxPage")),
        Arguments.of("dpi", 1),
        Arguments.of("dpi", Declarations.limit("maxDpi")));
  }

  @ParameterizedTest(name = "{0} = {1}")
  @MethodSource("acceptedBounds")
  void acceptsEachBoundItself(String field, int value) {
    ObjectNode body = valid();
    target(body).put(field, value);

    assertThat(validator.validate(body).target().params()).containsEntry(field, value);
  }

  @ParameterizedTest(name = "wait = {0}")
  @org.junit.jupiter.params.provider.ValueSource(ints = {0, 1, RequestValidator.MAX_WAIT_SECONDS})
  void acceptsEveryWaitWithinBounds(int seconds) {
    ObjectNode body = valid();
    body.put("wait", seconds);

    assertThat(validator.validate(body).waitSeconds()).isEqualTo(seconds);
  }

  @Test
  void acceptsBackgroundColoursWithAndWithoutAlpha() {
    ObjectNode body = valid();
    target(body).put("background", "#fFa0C1");
    assertThat(validator.validate(body).target().params()).containsEntry("background", "#fFa0C1");
    target(body).put("background", "#fFa0C180");
    assertThat(validator.validate(body).target().params()).containsEntry("background", "#fFa0C180");
  }

  @Test
  void normalisesExplicitSteps() {
    ObjectNode body = valid();
    withSteps(
        body,
        """
        [{"capability":"pdf","operation":"render","params":{"page":2.0}},
         {"capability":"image","operation":"encode","params":{"mediaType":"image/png"}}]""");

    DerivativeRequest request = validator.validate(body);

    assertThat(request.target()).isNull();
    assertThat(request.steps())
        .containsExactly(
            new StepSpec("pdf", "render", java.util.Map.of("page", 2)),
            new StepSpec("image", "encode", java.util.Map.of("mediaType", "image/png")));
  }

  @Test
  void acceptsKeysAtTheLimitAndDotsInsideSegments() {
    ObjectNode body = valid();
    source(body).put("key", "é".repeat(512)); // 1024 UTF-8 bytes
    assertThat(validator.validate(body).source().key()).hasSize(512);

    source(body).put("key", "a..b/c.d/..e");
    assertThat(validator.validate(body).source().key()).isEqualTo("a..b/c.d/..e");
  }

  @Test
  void normalisesIntegralDecimalsAndMediaTypeCase() throws Exception {
    JsonNode body =
        JSON.readTree(
            """
            {"target":{"height":256.0,"mediaType":"Image/JPEG","width":2.56e2},
             "source":{"versionId":"v1","key":"a.jpg"}}
            """);

    DerivativeRequest request = validator.validate(body);

    assertThat(request.target().mediaType()).isEqualTo("image/jpeg");
    assertThat(request.target().params())
        .containsEntry("width", 256)
        .containsEntry("height", 256)
        .containsEntry("mediaType", "image/jpeg");
    assertThat(request.source()).isEqualTo(new SourceSpec("a.jpg", "v1"));
  }

  @Test
  void reportsEveryViolationAtOnce() {
    ObjectNode body = valid();
    target(body).put("width", 0).put("height", 100000);
    source(body).put("key", "");

    InvalidRequestException e =
        catchThrowableOfType(InvalidRequestException.class, () -> validator.validate(body));

    assertThat(e.violations())
        .extracting(Violation::pointer)
        .containsExactlyInAnyOrder("/source/key", "/target/width", "/target/height");
  }

  @Test
  void rejectsABodyThatIsNoObject() {
    InvalidRequestException e =
        catchThrowableOfType(
            InvalidRequestException.class,
            () -> validator.validate(JSON.getNodeFactory().arrayNode()));

    assertThat(e.violations()).extracting(Violation::pointer).containsExactly("");
  }

  /** Issue 14 item 11: a string the API may echo never carries a control character. */
  @Test
  void refusesControlCharactersInAnyStringBeforeEchoingIt() {
    ObjectNode body = valid();
    target(body).put("mediaType", "image/jpeg\r\nX-Injected: 1");
    target(body).put("fit", "inside\u0000");
    body.putObject("steps-\n").put("a", 1);

    InvalidRequestException e =
        catchThrowableOfType(InvalidRequestException.class, () -> validator.validate(body));

    assertThat(e.violations())
        .extracting(Violation::pointer)
        .containsExactlyInAnyOrder("/target/mediaType", "/target/fit", "");
    assertThat(e.violations())
        .allSatisfy(v -> assertThat(ControlCharacters.anyIn(v.detail())).isFalse());
  }

  @Test
  void refusesControlCharactersInExplicitStepsAndSourceKeys() {
    ObjectNode body = valid();
    body.remove("target");
    withSteps(body, "[{\"capability\":\"image\\u0085\",\"operation\":\"resize\"}]");
    source(body).put("versionId", "v\t1");

    InvalidRequestException e =
        catchThrowableOfType(InvalidRequestException.class, () -> validator.validate(body));

    assertThat(e.violations())
        .extracting(Violation::pointer)
        .containsExactlyInAnyOrder("/steps/0/capability", "/source/versionId");
  }
}
