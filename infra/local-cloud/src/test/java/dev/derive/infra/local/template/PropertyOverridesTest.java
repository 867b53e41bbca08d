package dev.derive.infra.local.template;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.derive.infra.local.RepositoryTemplate;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Resource property overrides applied to the repository's template, as the local cloud does. */
class PropertyOverridesTest {
  private final Template template = TemplateReader.read(RepositoryTemplate.path());

  @Test
  void anOverrideReplacesAQueuePropertyAFunctionTimeoutAndAnEnvironmentVariable() {
    Map<String, String> overrides = new LinkedHashMap<>();
    overrides.put("ImageQueue.VisibilityTimeout", "20");
    overrides.put("ImageWorkerFunction.Timeout", "15");
    overrides.put("ImageWorkerFunction.Environment.Variables.MAX_IMAGE_PIXELS", "1000");

    Template overridden = PropertyOverrides.apply(template, overrides);

    assertThat(overridden.resource("ImageQueue").properties().get("VisibilityTimeout"))
        .isEqualTo("20");
    FunctionDefinition worker = function(overridden, "ImageWorkerFunction");
    assertThat(worker.timeoutSeconds()).isEqualTo(15);
    assertThat(worker.environment()).containsEntry("MAX_IMAGE_PIXELS", "1000");
    assertThat(worker.environment())
        .as("the Globals variables are still merged in")
        .containsKey("STEP_MAX_RECEIVE_COUNT");
  }

  @Test
  void anOverrideOfAGlobalsVariableReachesEveryFunctionThatDoesNotSetItsOwn() {
    Template overridden =
        PropertyOverrides.apply(
            template,
            Map.of("Globals.Function.Environment.Variables.STEP_VISIBILITY_TIMEOUT_SECONDS", "20"));

    assertThat(function(overridden, "ImageWorkerFunction").environment())
        .containsEntry("STEP_VISIBILITY_TIMEOUT_SECONDS", "20")
        .as("its own variables are still there")
        .containsKey("MAX_IMAGE_PIXELS");
    assertThat(function(template, "ImageWorkerFunction").environment())
        .containsEntry("STEP_VISIBILITY_TIMEOUT_SECONDS", "60");
    assertThatThrownBy(
            () ->
                PropertyOverrides.apply(
                    template, Map.of("Globals.Function.Environment.Variables.NO_SUCH", "1")))
        .isInstanceOf(TemplateException.class)
        .hasMessageContaining("sets no NO_SUCH");
  }

  @Test
  void theTemplateItselfAndTheOtherResourcesAreLeftAsTheyWere() {
    Template overridden =
        PropertyOverrides.apply(template, Map.of("ImageQueue.VisibilityTimeout", "20"));

    assertThat(template.resource("ImageQueue").properties().get("VisibilityTimeout"))
        .isEqualTo(720);
    assertThat(overridden.resource("PdfQueue").properties().get("VisibilityTimeout"))
        .isEqualTo(720);
    assertThat(function(overridden, "ImageWorkerFunction").timeoutSeconds()).isEqualTo(120);
  }

  @Test
  void anOverrideOfAResourceOrPropertyTheTemplateDoesNotHaveIsRefusedNamingIt() {
    assertThatThrownBy(
            () -> PropertyOverrides.apply(template, Map.of("ImageQeue.VisibilityTimeout", "20")))
        .isInstanceOf(TemplateException.class)
        .hasMessageContaining("no resource ImageQeue");
    assertThatThrownBy(
            () -> PropertyOverrides.apply(template, Map.of("ImageQueue.VisibilityTimout", "20")))
        .isInstanceOf(TemplateException.class)
        .hasMessageContaining("sets no VisibilityTimout");
    assertThatThrownBy(
            () ->
                PropertyOverrides.apply(
                    template,
                    Map.of("ImageWorkerFunction.Environment.Variables.NO_SUCH_VARIABLE", "1")))
        .isInstanceOf(TemplateException.class)
        .hasMessageContaining("sets no NO_SUCH_VARIABLE");
  }

  @Test
  void anOverrideOfAMappingOrOfAPathThroughAScalarIsRefused() {
    assertThatThrownBy(
            () -> PropertyOverrides.apply(template, Map.of("ImageQueue.RedrivePolicy", "x")))
        .isInstanceOf(TemplateException.class)
        .hasMessageContaining("RedrivePolicy is not a scalar property");
    assertThatThrownBy(
            () -> PropertyOverrides.apply(template, Map.of("ImageQueue.VisibilityTimeout.X", "1")))
        .isInstanceOf(TemplateException.class)
        .hasMessageContaining("VisibilityTimeout is not a mapping");
    assertThatThrownBy(() -> PropertyOverrides.apply(template, Map.of("ImageQueue", "1")))
        .isInstanceOf(TemplateException.class)
        .hasMessageContaining("LogicalId.Property");
  }

  private static FunctionDefinition function(Template template, String logicalId) {
    return FunctionDefinitions.read(
            template, FakeStack.references(template, Map.of()), "derive-local")
        .stream()
        .filter(f -> f.logicalId().equals(logicalId))
        .findFirst()
        .orElseThrow();
  }
}
