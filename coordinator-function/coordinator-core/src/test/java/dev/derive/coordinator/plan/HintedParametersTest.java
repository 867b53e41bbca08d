package dev.derive.coordinator.plan;

import static org.assertj.core.api.Assertions.assertThat;

import dev.derive.coordinator.Declarations;
import dev.derive.coordinator.identity.SourceIdentity;
import dev.derive.coordinator.validate.TargetSpec;
import dev.derive.protocol.MediaTypes;
import dev.derive.protocol.capability.CapabilityDeclarations;
import dev.derive.protocol.capability.CapabilityDescriptor;
import dev.derive.protocol.message.Operation;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * An operation's hints are the values the later steps of its chain apply, defaults included,
 * whether or not the target names them: a capability writing PDF pages 1 to {@code page} must learn
 * the page a thumbnail renders even when it is the default page 1. Shown with a synthetic
 * capability in front of the deployed {@code pdf} and {@code image} declarations.
 */
class HintedParametersTest {
  private static final String LAYOUT = "application/x-derive-layout";

  /** Lays a made-up format out as PDF, told the page and width the later steps apply. */
  private static final CapabilityDescriptor TYPESETTER =
      CapabilityDeclarations.parse(
          """
          {"name": "typesetter",
           "description": "Lays a layout file out as PDF.",
           "timeBudget": {"timeoutSeconds": 60, "leaseSeconds": 1140},
           "limits": {"maxPage": 100000, "maxDimension": 16384},
           "conversions": [{"sources": ["%s"], "targets": ["application/pdf"], "cost": 1,
                            "operations": ["typeset"]}],
           "operations": [
             {"name": "typeset", "description": "Writes pages 1 to page.",
              "hints": ["page", "width"],
              "parameters": [
                {"name": "page", "type": "integer", "minimum": 1, "maximum": "maxPage",
                 "description": "The last page written; absent: all."},
                {"name": "width", "type": "integer", "minimum": 1, "maximum": "maxDimension",
                 "description": "The width the page is shown at."}]}]}
          """
              .formatted(LAYOUT),
          "HintedParametersTest");

  private final Planner planner =
      new Planner(
          List.of(Declarations.named("image"), Declarations.named("pdf"), TYPESETTER),
          "derivatives-bucket");

  private static SourceIdentity source() {
    return new SourceIdentity("sources", "in/file", null, "\"etag-1\"", 1234, LAYOUT);
  }

  private static TargetSpec target(String mediaType, Object... options) {
    Map<String, Object> params = new HashMap<>();
    params.put("mediaType", mediaType);
    for (int i = 0; i < options.length; i += 2) {
      params.put((String) options[i], options[i + 1]);
    }
    return new TargetSpec(mediaType, params);
  }

  @Test
  void aThumbnailTellsTheHintedOperationTheDefaultPageItRenders() {
    Plan plan = planner.plan(source(), target(MediaTypes.IMAGE_JPEG, "width", 256));

    assertThat(plan.steps())
        .extracting(PlannedStep::capability)
        .containsExactly("typesetter", "pdf", "image");
    assertThat(plan.step(0).operations())
        .containsExactly(new Operation("typeset", Map.of("page", 1, "width", 256)));
  }

  @Test
  void aDefaultPageSpelledOutPlansTheSameAsOneLeftOut() {
    Plan spelledOut =
        planner.plan(source(), target(MediaTypes.IMAGE_JPEG, "width", 256, "page", 1));
    Plan leftOut = planner.plan(source(), target(MediaTypes.IMAGE_JPEG, "width", 256));

    assertThat(spelledOut.fingerprint()).isEqualTo(leftOut.fingerprint());
  }

  @Test
  void aNamedPageIsToldAsBefore() {
    Plan plan = planner.plan(source(), target(MediaTypes.IMAGE_PNG, "page", 3));

    assertThat(plan.steps())
        .extracting(PlannedStep::capability)
        .containsExactly("typesetter", "pdf");
    assertThat(plan.step(0).operations())
        .containsExactly(new Operation("typeset", Map.of("page", 3)));
  }

  @Test
  void anOptionalOperationThePlanLeavesOutHintsNothing() {
    // a JPEG without a box: the image step encodes only, so no width is applied after the render
    Plan plan = planner.plan(source(), target(MediaTypes.IMAGE_JPEG));

    assertThat(plan.step(0).operations())
        .containsExactly(new Operation("typeset", Map.of("page", 1)));
  }

  @Test
  void withoutALaterStepApplyingTheParameterNothingIsHinted() {
    Plan plan = planner.plan(source(), target(MediaTypes.APPLICATION_PDF));

    assertThat(plan.steps()).extracting(PlannedStep::capability).containsExactly("typesetter");
    assertThat(plan.step(0).operations()).containsExactly(new Operation("typeset", Map.of()));
  }
}
