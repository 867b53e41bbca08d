package dev.derive.coordinator.plan;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.derive.coordinator.Declarations;
import dev.derive.coordinator.identity.SourceIdentity;
import dev.derive.coordinator.validate.InvalidRequestException;
import dev.derive.coordinator.validate.StepSpec;
import dev.derive.coordinator.validate.TargetSpec;
import dev.derive.coordinator.validate.Violation;
import dev.derive.protocol.MediaTypes;
import dev.derive.protocol.capability.CapabilityDescriptor;
import dev.derive.protocol.message.Operation;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class PlannerTest {
  private static final String BUCKET = "derivatives-bucket";
  private final Planner planner = new Planner(Declarations.ALL, BUCKET);

  private static SourceIdentity source(String mediaType) {
    return new SourceIdentity("sources", "in/file", null, "\"etag-1\"", 1234, mediaType);
  }

  private static TargetSpec target(String mediaType, Object... options) {
    Map<String, Object> params = new HashMap<>();
    params.put("mediaType", mediaType);
    for (int i = 0; i < options.length; i += 2) {
      params.put((String) options[i], options[i + 1]);
    }
    return new TargetSpec(mediaType, params);
  }

  private static Set<String> allMediaTypes() {
    Set<String> types = new TreeSet<>();
    for (CapabilityDescriptor capability : Declarations.ALL) {
      types.addAll(capability.reads());
      types.addAll(capability.writes());
    }
    return types;
  }

  static Stream<Arguments> everySourceAndTarget() {
    List<Arguments> pairs = new ArrayList<>();
    for (String source : allMediaTypes()) {
      for (String target : allMediaTypes()) {
        pairs.add(Arguments.of(source, target));
      }
    }
    return pairs.stream();
  }

  @ParameterizedTest(name = "{0} -> {1}")
  @MethodSource("everySourceAndTarget")
  void plansAConnectedChainForEveryReachablePairAndRefusesTheOthers(String from, String to) {
    Set<String> reachable = planner.reachable(from);
    if (!reachable.contains(to)) {
      NoConversionException e =
          catchThrowableOfType(
              NoConversionException.class, () -> planner.plan(source(from), target(to)));
      assertThat(e).as("%s -> %s must be refused", from, to).isNotNull();
      assertThat(e.reachable()).containsExactlyElementsOf(reachable);
      assertThat(e.getMessage()).contains(from, to);
      return;
    }
    Plan plan = planner.plan(source(from), target(to));

    String current = from;
    String previousCapability = null;
    for (PlannedStep step : plan.steps()) {
      assertThat(step.inputMediaType()).isEqualTo(current);
      CapabilityDescriptor capability = Declarations.named(step.capability());
      assertThat(capability.converts(step.inputMediaType(), step.outputMediaType())).isTrue();
      assertThat(step.capability()).isNotEqualTo(previousCapability);
      assertThat(step.operations()).isNotEmpty();
      assertThat(step.output().bucket()).isEqualTo(BUCKET);
      current = step.outputMediaType();
      previousCapability = step.capability();
    }
    assertThat(current).isEqualTo(to);
    assertThat(plan.step(plan.size() - 1).output().key())
        .isEqualTo("derivatives/" + plan.fingerprint());
  }

  @Test
  void markdownReachesAJpegThumbnailThroughPdfAndAPngPage() {
    Plan plan =
        planner.plan(source(MediaTypes.TEXT_MARKDOWN), target(MediaTypes.IMAGE_JPEG, "width", 256));

    assertThat(plan.steps())
        .extracting(PlannedStep::capability)
        .containsExactly("markup", "pdf", "image");
    assertThat(plan.steps())
        .extracting(PlannedStep::outputMediaType)
        .containsExactly(MediaTypes.APPLICATION_PDF, MediaTypes.IMAGE_PNG, MediaTypes.IMAGE_JPEG);
    assertThat(plan.step(0).operations())
        .containsExactly(new Operation("render", Map.of("pageSize", "A4")));
    assertThat(plan.step(1).operations())
        .containsExactly(
            new Operation(
                "render",
                Map.of(
                    "page", 1,
                    "dpi", 150,
                    "width", 256,
                    "fit", "inside",
                    "withoutEnlargement", true)));
    assertThat(plan.step(2).operations())
        .containsExactly(
            new Operation(
                "resize", Map.of("width", 256, "fit", "inside", "withoutEnlargement", true)),
            new Operation("encode", Map.of("mediaType", "image/jpeg", "quality", 85)));
  }

  @Test
  void aJpegBecomesWebpOrAvifInOneImageStepWithQualityLosslessAndEffort() {
    Plan webp =
        planner.plan(
            source(MediaTypes.IMAGE_JPEG),
            target(MediaTypes.IMAGE_WEBP, "width", 256, "quality", 70, "lossless", true));
    Plan avif =
        planner.plan(
            source(MediaTypes.IMAGE_JPEG),
            target(MediaTypes.IMAGE_AVIF, "width", 256, "effort", 6));

    assertThat(webp.steps()).extracting(PlannedStep::capability).containsExactly("image");
    assertThat(webp.step(0).outputMediaType()).isEqualTo(MediaTypes.IMAGE_WEBP);
    assertThat(webp.step(0).operations())
        .contains(
            new Operation(
                "encode", Map.of("mediaType", "image/webp", "quality", 70, "lossless", true)));
    assertThat(avif.steps()).extracting(PlannedStep::capability).containsExactly("image");
    assertThat(avif.step(0).outputMediaType()).isEqualTo(MediaTypes.IMAGE_AVIF);
    assertThat(avif.step(0).operations())
        .contains(
            new Operation("encode", Map.of("mediaType", "image/avif", "quality", 70, "effort", 6)));
  }

  /** Issue 30 item 10: each format's declared default quality, one plan per meaning. */
  @Test
  void aTargetWithoutQualityGetsItsFormatsDefaultAndSpellingItOutPlansTheSame() {
    Plan avif = planner.plan(source(MediaTypes.IMAGE_JPEG), target(MediaTypes.IMAGE_AVIF));
    Plan avifSpelt =
        planner.plan(source(MediaTypes.IMAGE_JPEG), target(MediaTypes.IMAGE_AVIF, "quality", 70));
    Plan avif85 =
        planner.plan(source(MediaTypes.IMAGE_JPEG), target(MediaTypes.IMAGE_AVIF, "quality", 85));
    Plan jpeg = planner.plan(source(MediaTypes.IMAGE_PNG), target(MediaTypes.IMAGE_JPEG));

    assertThat(avif.step(0).operations())
        .containsExactly(new Operation("encode", Map.of("mediaType", "image/avif", "quality", 70)));
    assertThat(avifSpelt.fingerprint()).isEqualTo(avif.fingerprint());
    assertThat(avif85.step(0).operations())
        .containsExactly(new Operation("encode", Map.of("mediaType", "image/avif", "quality", 85)));
    assertThat(jpeg.step(0).operations())
        .containsExactly(new Operation("encode", Map.of("mediaType", "image/jpeg", "quality", 85)));
  }

  @Test
  void eachStepHasItsOwnFingerprintAndOutputKey() {
    Plan plan =
        planner.plan(source(MediaTypes.TEXT_MARKDOWN), target(MediaTypes.IMAGE_JPEG, "width", 256));
    Plan pdfOnly =
        planner.plan(source(MediaTypes.TEXT_MARKDOWN), target(MediaTypes.APPLICATION_PDF));

    assertThat(plan.steps()).extracting(s -> s.output().key()).doesNotHaveDuplicates();
    // The same step has the same fingerprint in both plans; as an intermediate its output lives
    // under intermediates/ (expired sooner by the bucket's lifecycle rule), as the requested
    // derivative under derivatives/.
    assertThat(plan.step(0).output().key()).isEqualTo("intermediates/" + pdfOnly.fingerprint());
    assertThat(pdfOnly.step(0).output().key()).isEqualTo("derivatives/" + pdfOnly.fingerprint());
    assertThat(plan.step(2).output().key()).isEqualTo("derivatives/" + plan.fingerprint());
  }

  /**
   * Issue 14 item 4: the page is drawn at the resolution the box needs, so a thumbnail of a huge
   * page never exists at full size first; each size draws the page again.
   */
  @Test
  void aPdfPageThumbnailTellsTheRenderItsBox() {
    Plan small =
        planner.plan(
            source(MediaTypes.APPLICATION_PDF), target(MediaTypes.IMAGE_JPEG, "width", 128));
    Plan large =
        planner.plan(
            source(MediaTypes.APPLICATION_PDF), target(MediaTypes.IMAGE_JPEG, "width", 512));

    assertThat(small.step(0).operations().get(0).params())
        .containsEntry("width", 128)
        .containsEntry("fit", "inside")
        .containsEntry("withoutEnlargement", true)
        .doesNotContainKey("height");
    assertThat(small.step(0).output()).isNotEqualTo(large.step(0).output());
  }

  @Test
  void theRenderIsToldTheFitAndEnlargementTheResizeApplies() {
    Plan plan =
        planner.plan(
            source(MediaTypes.APPLICATION_PDF),
            target(
                MediaTypes.IMAGE_PNG,
                "width",
                256,
                "height",
                256,
                "fit",
                "cover",
                "withoutEnlargement",
                false));

    assertThat(plan.step(0).operations().get(0).params())
        .containsEntry("width", 256)
        .containsEntry("height", 256)
        .containsEntry("fit", "cover")
        .containsEntry("withoutEnlargement", false);
    assertThat(plan.step(1).operations().get(0))
        .isEqualTo(
            new Operation(
                "resize",
                Map.of("width", 256, "height", 256, "fit", "cover", "withoutEnlargement", false)));
  }

  @Test
  void aPageWithoutABoxIsRenderedAsThePlainPageSoEveryChainSharesIt() {
    Plan jpeg = planner.plan(source(MediaTypes.APPLICATION_PDF), target(MediaTypes.IMAGE_JPEG));
    Plan png = planner.plan(source(MediaTypes.APPLICATION_PDF), target(MediaTypes.IMAGE_PNG));

    assertThat(jpeg.step(0).operations())
        .containsExactly(new Operation("render", Map.of("page", 1, "dpi", 150)));
    assertThat(png.fingerprint())
        .isEqualTo(
            DerivativeFingerprint.of(
                source(MediaTypes.APPLICATION_PDF), jpeg.steps().subList(0, 1)));
    // a background alone flattens the page without a resize
    Plan flattened =
        planner.plan(
            source(MediaTypes.APPLICATION_PDF),
            target(MediaTypes.IMAGE_JPEG, "background", "#ff0000"));
    assertThat(flattened.step(flattened.size() - 1).operations())
        .extracting(Operation::operation)
        .contains("background")
        .doesNotContain("resize");
  }

  @Test
  void pageAndDpiGoToThePdfRenderAndSizeToTheLastConsumer() {
    Plan plan =
        planner.plan(
            source(MediaTypes.APPLICATION_PDF),
            target(MediaTypes.IMAGE_JPEG, "page", 3, "dpi", 72, "width", 100, "quality", 60));

    assertThat(plan.step(0).operations())
        .containsExactly(
            new Operation(
                "render",
                Map.of(
                    "page", 3,
                    "dpi", 72,
                    "width", 100,
                    "fit", "inside",
                    "withoutEnlargement", true)));
    assertThat(plan.step(1).operations())
        .containsExactly(
            new Operation(
                "resize", Map.of("width", 100, "fit", "inside", "withoutEnlargement", true)),
            new Operation("encode", Map.of("mediaType", "image/jpeg", "quality", 60)));
  }

  @Test
  void aPngPageInABoxIsRenderedIntoTheBoxThenFittedByTheImageStep() {
    Plan plan =
        planner.plan(
            source(MediaTypes.APPLICATION_PDF), target(MediaTypes.IMAGE_PNG, "width", 300));

    assertThat(plan.steps()).extracting(PlannedStep::capability).containsExactly("pdf", "image");
    assertThat(plan.step(0).operations())
        .containsExactly(
            new Operation(
                "render",
                Map.of(
                    "page", 1,
                    "dpi", 150,
                    "width", 300,
                    "fit", "inside",
                    "withoutEnlargement", true)));
  }

  /** Only outputs another capability reads can be intermediates: those are worth a second look. */
  @Test
  void onlyOutputsAnotherCapabilityReadsMayAlsoBeIntermediates() {
    assertThat(
            planner.mayBeIntermediate(
                planner.plan(source(MediaTypes.APPLICATION_PDF), target(MediaTypes.IMAGE_PNG))))
        .as("a PNG page, which the image step reads")
        .isTrue();
    assertThat(
            planner.mayBeIntermediate(
                planner.plan(source(MediaTypes.TEXT_MARKDOWN), target(MediaTypes.APPLICATION_PDF))))
        .as("a PDF made from Markdown, which the pdf and text capabilities read")
        .isTrue();
    assertThat(
            planner.mayBeIntermediate(
                planner.plan(
                    source(MediaTypes.IMAGE_JPEG), target(MediaTypes.IMAGE_PNG, "width", 64))))
        .as("an image step's output, which no other capability reads")
        .isFalse();
    assertThat(
            planner.mayBeIntermediate(
                planner.plan(source(MediaTypes.APPLICATION_PDF), target(MediaTypes.TEXT_PLAIN))))
        .isFalse();
  }

  @Test
  void aPngPageWithoutASizeIsRenderedInOneStep() {
    Plan plan = planner.plan(source(MediaTypes.APPLICATION_PDF), target(MediaTypes.IMAGE_PNG));

    assertThat(plan.steps()).extracting(PlannedStep::capability).containsExactly("pdf");
  }

  @Test
  void anOptionOnlyALaterCapabilityTakesLengthensTheChain() {
    Plan plan =
        planner.plan(
            source(MediaTypes.APPLICATION_PDF), target(MediaTypes.IMAGE_PNG, "quality", 50));

    assertThat(plan.steps()).extracting(PlannedStep::capability).containsExactly("pdf", "image");
  }

  @Test
  void aFormatConversionWithoutSizeLeavesResizeOut() {
    Plan plan = planner.plan(source(MediaTypes.IMAGE_WEBP), target(MediaTypes.IMAGE_PNG));

    assertThat(plan.steps()).hasSize(1);
    assertThat(plan.step(0).operations())
        .containsExactly(new Operation("encode", Map.of("mediaType", "image/png", "quality", 85)));
  }

  @Test
  void theCheapestCapabilityWinsWhenTwoConvert() {
    Plan plan =
        planner.plan(source(MediaTypes.APPLICATION_PDF), target(MediaTypes.APPLICATION_JSON));

    assertThat(plan.steps()).extracting(PlannedStep::capability).containsExactly("pdf");
  }

  @Test
  void officeDocumentsGiveTextThroughTheTextCapability() {
    Plan plan = planner.plan(source(MediaTypes.APPLICATION_DOCX), target(MediaTypes.TEXT_PLAIN));

    assertThat(plan.steps()).extracting(PlannedStep::capability).containsExactly("text");
    assertThat(plan.step(0).operations()).containsExactly(new Operation("extract", Map.of()));
  }

  @Test
  void defaultsSpelledOutPlanTheSameAsDefaultsLeftOut() {
    Plan terse =
        planner.plan(source(MediaTypes.IMAGE_JPEG), target(MediaTypes.IMAGE_JPEG, "width", 256));
    Plan spelled =
        planner.plan(
            source(MediaTypes.IMAGE_JPEG),
            target(
                MediaTypes.IMAGE_JPEG,
                "width",
                256,
                "fit",
                "inside",
                "withoutEnlargement",
                true,
                "quality",
                85));

    assertThat(spelled).isEqualTo(terse);
  }

  /** Issue 29: an image's info is one image step writing JSON. */
  @Test
  void anImagesInfoIsOneImageStep() {
    Plan plan = planner.plan(source(MediaTypes.IMAGE_PNG), target(MediaTypes.APPLICATION_JSON));

    assertThat(plan.steps()).extracting(PlannedStep::capability).containsExactly("image");
    assertThat(plan.step(0).operations()).containsExactly(new Operation("info", Map.of()));
  }

  @Test
  void anUnreachableTargetListsWhatTheSourceReaches() {
    NoConversionException e =
        catchThrowableOfType(
            NoConversionException.class,
            () -> planner.plan(source(MediaTypes.IMAGE_JPEG), target(MediaTypes.APPLICATION_PDF)));

    assertThat(e.reachable())
        .containsExactly(
            MediaTypes.APPLICATION_JSON,
            MediaTypes.IMAGE_AVIF,
            MediaTypes.IMAGE_GIF,
            MediaTypes.IMAGE_JPEG,
            MediaTypes.IMAGE_PNG,
            MediaTypes.IMAGE_WEBP);
    assertThat(e.source()).isEqualTo(MediaTypes.IMAGE_JPEG);
  }

  @Test
  void anOptionNoChainTakesIsRejectedAtItsPointer() {
    InvalidRequestException e =
        catchThrowableOfType(
            InvalidRequestException.class,
            () ->
                planner.plan(
                    source(MediaTypes.APPLICATION_DOCX),
                    target(MediaTypes.TEXT_PLAIN, "width", 9)));

    assertThat(e.violations()).extracting(Violation::pointer).containsExactly("/target/width");
  }

  @Test
  void aFitOrEnlargementWithoutABoxIsRefusedNotLeftForTheWorker() {
    InvalidRequestException e =
        catchThrowableOfType(
            InvalidRequestException.class,
            () ->
                planner.plan(
                    source(MediaTypes.IMAGE_JPEG),
                    target(MediaTypes.IMAGE_PNG, "fit", "cover", "withoutEnlargement", false)));

    assertThat(e.violations())
        .extracting(Violation::pointer)
        .containsExactlyInAnyOrder("/target/fit", "/target/withoutEnlargement");
    assertThat(e.violations())
        .extracting(Violation::detail)
        .allMatch(m -> m.startsWith("takes effect only with width or height"));
    // with a box, the same options plan
    assertThat(
            planner
                .plan(
                    source(MediaTypes.IMAGE_JPEG),
                    target(MediaTypes.IMAGE_PNG, "height", 80, "fit", "cover"))
                .steps())
        .hasSize(1);
  }

  @Test
  void partOfAnAllOrNoneGroupIsRefusedNotLeftForTheWorker() {
    InvalidRequestException e =
        catchThrowableOfType(
            InvalidRequestException.class,
            () ->
                planner.plan(
                    source(MediaTypes.IMAGE_JPEG),
                    target(MediaTypes.IMAGE_PNG, "padTop", 10, "padLeft", 5)));

    assertThat(e.violations())
        .extracting(Violation::pointer)
        .containsExactlyInAnyOrder("/target/padRight", "/target/padBottom");
    assertThat(e.violations().getFirst().detail()).contains("is needed with padTop and padLeft");
    InvalidRequestException focus =
        catchThrowableOfType(
            InvalidRequestException.class,
            () ->
                planner.plan(
                    source(MediaTypes.IMAGE_JPEG),
                    target(MediaTypes.IMAGE_PNG, "width", 10, "focusX", 30)));
    assertThat(focus.violations()).extracting(Violation::pointer).containsExactly("/target/focusY");
    // all four sides plan
    assertThat(
            planner
                .plan(
                    source(MediaTypes.IMAGE_JPEG),
                    target(
                        MediaTypes.IMAGE_PNG,
                        "padTop",
                        10,
                        "padRight",
                        0,
                        "padBottom",
                        10,
                        "padLeft",
                        0))
                .steps())
        .hasSize(1);
  }

  @Test
  void onlyTheOptionNoChainTakesIsBlamedNotTheOnesBesideIt() {
    InvalidRequestException e =
        catchThrowableOfType(
            InvalidRequestException.class,
            () ->
                planner.plan(
                    source(MediaTypes.IMAGE_JPEG),
                    target(MediaTypes.IMAGE_PNG, "width", 100, "dpi", 72)));

    assertThat(e.violations()).extracting(Violation::pointer).containsExactly("/target/dpi");
  }

  @Test
  void explicitStepsFuseAdjacentOperationsOfOneCapability() {
    Plan plan =
        planner.plan(
            source(MediaTypes.APPLICATION_PDF),
            List.of(
                new StepSpec("pdf", "render", Map.of("page", 2)),
                new StepSpec("image", "resize", Map.of("width", 64)),
                new StepSpec("image", "encode", Map.of("mediaType", "image/jpeg"))));

    assertThat(plan.steps()).extracting(PlannedStep::capability).containsExactly("pdf", "image");
    assertThat(plan.step(1).operations())
        .extracting(Operation::operation)
        .containsExactly("resize", "encode");
    assertThat(plan.step(1).outputMediaType()).isEqualTo(MediaTypes.IMAGE_JPEG);
  }

  @Test
  void explicitStepsMeaningTheTargetGetItsFingerprint() {
    Plan byTarget =
        planner.plan(
            source(MediaTypes.APPLICATION_PDF),
            target(MediaTypes.IMAGE_JPEG, "width", 256, "page", 2));
    Plan bySteps =
        planner.plan(
            source(MediaTypes.APPLICATION_PDF),
            List.of(
                new StepSpec(
                    "pdf",
                    "render",
                    Map.of(
                        "page", 2,
                        "dpi", 150,
                        "width", 256,
                        "fit", "inside",
                        "withoutEnlargement", true)),
                new StepSpec("image", "resize", Map.of("width", 256)),
                new StepSpec("image", "encode", Map.of("mediaType", "image/jpeg"))));

    assertThat(bySteps.fingerprint()).isEqualTo(byTarget.fingerprint());
  }

  @Test
  void explicitImageStepsKeepAWritableMediaTypeAndAddTheEncode() {
    Plan plan =
        planner.plan(
            source(MediaTypes.IMAGE_PNG),
            List.of(new StepSpec("image", "resize", Map.of("height", 10))));

    assertThat(plan.step(0).outputMediaType()).isEqualTo(MediaTypes.IMAGE_PNG);
    assertThat(plan.step(0).operations())
        .extracting(Operation::operation)
        .containsExactly("resize", "encode");
  }

  /** The refusal names what the step cannot read, not a type it reads (issue 30 item 9). */
  @Test
  void explicitStepsThatCannotReadThePreviousOutputAreRefused() {
    assertThatThrownBy(
            () ->
                planner.plan(
                    source(MediaTypes.APPLICATION_PDF),
                    List.of(new StepSpec("image", "resize", Map.of("width", 10)))))
        .isInstanceOf(NoConversionException.class)
        .hasMessageStartingWith(
            "/steps/0: capability image does not read application/pdf (the source); it reads ");
  }

  /**
   * Operations out of the declared order are refused at the one out of place, saying the order
   * (issue 30 item 9: the refusal said the step could not apply them to a type it reads).
   */
  @Test
  void explicitOperationsOutOfDeclaredOrderAreRefused() {
    assertThatThrownBy(
            () ->
                planner.plan(
                    source(MediaTypes.IMAGE_PNG),
                    List.of(
                        new StepSpec("image", "resize", Map.of("width", 10)),
                        new StepSpec("image", "rotate", Map.of("angle", 90)))))
        .isInstanceOfSatisfying(
            InvalidRequestException.class,
            e ->
                assertThat(e.violations())
                    .singleElement()
                    .satisfies(
                        v -> {
                          assertThat(v.pointer()).isEqualTo("/steps/1/operation");
                          // the declared order, whatever operations a later change adds
                          assertThat(v.detail())
                              .startsWith(
                                  "rotate must come before resize: capability image applies its"
                                      + " operations in the order page, trim, crop, rotate, resize, ")
                              .endsWith(", encode");
                        }));
  }

  @Test
  void explicitStepsWritingATypeTheCapabilityCannotMakeAreRefused() {
    assertThatThrownBy(
            () ->
                planner.plan(
                    source(MediaTypes.IMAGE_PNG),
                    List.of(new StepSpec("image", "encode", Map.of("mediaType", "text/plain")))))
        .isInstanceOf(NoConversionException.class)
        .hasMessageStartingWith(
            "/steps/0: capability image does not write text/plain from image/png; it writes ");
  }
}
