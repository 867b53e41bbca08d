package dev.derive.protocol.capability;

import static org.assertj.core.api.Assertions.assertThat;

import dev.derive.protocol.MediaTypes;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The declarations of this source tree's worker modules, read as the coordinator reads them: the
 * conversions and operations the rest of Derive relies on, and the target options they make.
 */
class DeclaredCapabilitiesTest {
  private static final CapabilityCatalogue CATALOGUE =
      new CapabilityCatalogue(CapabilityDeclarations.inThisSourceTree());

  private static CapabilityDescriptor named(String name) {
    return CATALOGUE.named(name).orElseThrow();
  }

  @Test
  void everyWorkerModuleDeclaresItsCapability() {
    assertThat(CATALOGUE.names()).contains("image", "markup", "pdf", "text");
  }

  @Test
  void everyConsumedTargetOptionIsATargetOption() {
    List<String> options =
        CATALOGUE.targetOptions().stream().map(ParameterDescriptor::name).toList();
    for (CapabilityDescriptor capability : CATALOGUE.capabilities()) {
      for (OperationDescriptor operation : capability.operations()) {
        assertThat(options)
            .as("%s.%s consumes", capability.name(), operation.name())
            .containsAll(operation.consumes());
      }
    }
  }

  @Test
  void targetOptionsAcceptNoMoreThanTheOperationsConsumingThemAndHaveNoDefault() {
    for (ParameterDescriptor option : CATALOGUE.targetOptions()) {
      assertThat(option.defaultValue()).as(option.name()).isNull();
      for (CapabilityDescriptor capability : CATALOGUE.capabilities()) {
        for (OperationDescriptor operation : capability.operations()) {
          if (operation.consumes().contains(option.name())) {
            assertThat(operation.parameter(option.name()).orElseThrow().acceptsTheSameAs(option))
                .as("%s.%s %s", capability.name(), operation.name(), option.name())
                .isTrue();
          }
        }
      }
    }
  }

  @Test
  void eachCapabilityHasItsOwnQueueVariable() {
    assertThat(named("image").queueUrlVariable()).isEqualTo("IMAGE_QUEUE_URL");
    assertThat(CATALOGUE.capabilities().stream().map(CapabilityDescriptor::queueUrlVariable))
        .doesNotHaveDuplicates();
  }

  @Test
  void theContractedConversionsAreDeclared() {
    assertThat(named("pdf").converts(MediaTypes.APPLICATION_PDF, MediaTypes.IMAGE_PNG)).isTrue();
    assertThat(named("markup").reads())
        .containsExactly(MediaTypes.TEXT_MARKDOWN, MediaTypes.TEXT_HTML);
    assertThat(named("text").writes())
        .containsExactly(MediaTypes.TEXT_PLAIN, MediaTypes.APPLICATION_JSON);
    assertThat(named("image").writes())
        .containsExactly(
            MediaTypes.IMAGE_JPEG,
            MediaTypes.IMAGE_PNG,
            MediaTypes.IMAGE_WEBP,
            MediaTypes.IMAGE_AVIF,
            MediaTypes.IMAGE_GIF,
            MediaTypes.APPLICATION_JSON);
    assertThat(named("text").reads()).hasSize(10);
  }

  @Test
  void resizeIsOptionalAndEncodeIsNot() {
    CapabilityDescriptor image = named("image");
    assertThat(image.operation("resize").orElseThrow().optional()).isTrue();
    assertThat(image.operation("encode").orElseThrow().optional()).isFalse();
    assertThat(
            image.operation("resize").orElseThrow().parameter("fit").orElseThrow().allowedValues())
        .isEqualTo(List.of("cover", "contain", "fill", "inside", "outside"));
  }

  @Test
  void aLimitNamedByAParameterBoundsIt() {
    assertThat(
            named("pdf")
                .operation("render")
                .orElseThrow()
                .parameter("page")
                .orElseThrow()
                .maximum())
        .isEqualTo(100_000);
    assertThat(CATALOGUE.limits())
        .containsEntry("maxDimension", 16_384)
        .containsEntry("maxDpi", 600);
  }

  @Test
  void theBuiltInPresetsComeFromTheDeclarationsInOrder() {
    List<String> declared =
        CATALOGUE.capabilities().stream()
            .flatMap(c -> c.presets().propertyStream().map(java.util.Map.Entry::getKey))
            .toList();

    assertThat(CATALOGUE.presets().propertyStream().map(java.util.Map.Entry::getKey))
        .containsExactlyElementsOf(declared)
        .containsSubsequence("thumb", "preview", "page-1", "text");
  }
}
