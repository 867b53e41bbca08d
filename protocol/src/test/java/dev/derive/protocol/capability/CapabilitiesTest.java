package dev.derive.protocol.capability;

import static org.assertj.core.api.Assertions.assertThat;

import dev.derive.protocol.MediaTypes;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

class CapabilitiesTest {
  @Test
  void everyConsumedTargetOptionIsADeclaredTargetOption() {
    Set<String> options =
        Capabilities.TARGET_OPTIONS.stream()
            .map(ParameterDescriptor::name)
            .collect(Collectors.toSet());
    for (CapabilityDescriptor capability : Capabilities.ALL) {
      for (OperationDescriptor operation : capability.operations()) {
        assertThat(options)
            .as("%s.%s consumes", capability.name(), operation.name())
            .containsAll(operation.consumes());
      }
    }
  }

  @Test
  void targetOptionsAcceptNoMoreThanTheOperationsConsumingThem() {
    for (ParameterDescriptor option : Capabilities.TARGET_OPTIONS) {
      for (CapabilityDescriptor capability : Capabilities.ALL) {
        for (OperationDescriptor operation : capability.operations()) {
          if (!operation.consumes().contains(option.name())) {
            continue;
          }
          ParameterDescriptor parameter = operation.parameter(option.name()).orElseThrow();
          assertThat(parameter.type()).isEqualTo(option.type());
          assertThat(parameter.allowedValues()).containsAll(option.allowedValues());
          if (option.minimum() != null) {
            assertThat(parameter.minimum()).isLessThanOrEqualTo(option.minimum());
            assertThat(parameter.maximum()).isGreaterThanOrEqualTo(option.maximum());
          }
        }
      }
    }
  }

  @Test
  void eachCapabilityHasItsOwnQueueVariable() {
    assertThat(Capabilities.ALL.stream().map(CapabilityDescriptor::queueUrlVariable))
        .containsExactly("IMAGE_QUEUE_URL", "PDF_QUEUE_URL", "TEXT_QUEUE_URL", "MARKUP_QUEUE_URL");
  }

  @Test
  void theContractedConversionsAreDeclared() {
    assertThat(
            Capabilities.PDF_CAPABILITY.converts(MediaTypes.APPLICATION_PDF, MediaTypes.IMAGE_PNG))
        .isTrue();
    assertThat(Capabilities.MARKUP_CAPABILITY.reads())
        .containsExactly(MediaTypes.TEXT_MARKDOWN, MediaTypes.TEXT_HTML);
    assertThat(Capabilities.TEXT_CAPABILITY.writes())
        .containsExactly(MediaTypes.TEXT_PLAIN, MediaTypes.APPLICATION_JSON);
    assertThat(Capabilities.IMAGE_CAPABILITY.writes())
        .containsExactly(
            MediaTypes.IMAGE_JPEG,
            MediaTypes.IMAGE_PNG,
            MediaTypes.IMAGE_WEBP,
            MediaTypes.IMAGE_AVIF,
            MediaTypes.IMAGE_GIF);
    assertThat(Capabilities.TEXT_CAPABILITY.reads()).hasSize(10);
  }

  @Test
  void resizeIsOptionalAndEncodeIsNot() {
    assertThat(
            Capabilities.IMAGE_CAPABILITY.operation(Capabilities.RESIZE).orElseThrow().optional())
        .isTrue();
    assertThat(
            Capabilities.IMAGE_CAPABILITY.operation(Capabilities.ENCODE).orElseThrow().optional())
        .isFalse();
    assertThat(Capabilities.FIT_MODES)
        .isEqualTo(List.of("cover", "contain", "fill", "inside", "outside"));
  }
}
