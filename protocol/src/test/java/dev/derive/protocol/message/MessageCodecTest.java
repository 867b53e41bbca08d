package dev.derive.protocol.message;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.derive.protocol.MediaTypes;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class MessageCodecTest {
  private final StepMessage step =
      new StepMessage(
          "a".repeat(64),
          0,
          1,
          "image",
          List.of(
              new Operation("resize", Map.of("width", 256, "height", 256, "fit", "inside")),
              new Operation("encode", Map.of("mediaType", MediaTypes.IMAGE_JPEG, "quality", 85))),
          new ObjectRef("source", "photos/cat.jpg", "v1"),
          MediaTypes.IMAGE_JPEG,
          ObjectRef.of("derivatives", "derivatives/" + "a".repeat(64)),
          MediaTypes.IMAGE_JPEG,
          "trace-1");

  @Test
  void stepMessagesSurviveARoundTrip() {
    assertThat(MessageCodec.decode(MessageCodec.encode(step), StepMessage.class)).isEqualTo(step);
  }

  @Test
  void stepResultsSurviveARoundTrip() {
    StepResult success = StepResult.success(step, 1234, 10, 20, false);
    StepResult failure =
        StepResult.failure(
            step, new StepError(StepErrorTypes.CORRUPT_INPUT, "not a JPEG", false), 10, 20);
    assertThat(MessageCodec.decode(MessageCodec.encode(success), StepResult.class))
        .isEqualTo(success);
    assertThat(MessageCodec.decode(MessageCodec.encode(failure), StepResult.class))
        .isEqualTo(failure);
  }

  @Test
  void theExecutionTheSourceEtagAndStartedReportsSurviveARoundTrip() {
    StepMessage pinned =
        new StepMessage(
            step.jobId(),
            0,
            1,
            "image",
            step.operations(),
            step.input(),
            step.inputMediaType(),
            step.output(),
            step.outputMediaType(),
            "trace-1",
            "execution-7",
            "\"etag-1\"");
    StepResult started = StepResult.started(pinned, 15).withAttempt(2);
    StepResult success = StepResult.success(pinned, 1, 10, 20, false);

    assertThat(MessageCodec.decode(MessageCodec.encode(pinned), StepMessage.class))
        .isEqualTo(pinned);
    assertThat(MessageCodec.decode(MessageCodec.encode(started), StepResult.class))
        .isEqualTo(started);
    assertThat(started.isStarted()).isTrue();
    assertThat(started.executionId()).isEqualTo("execution-7");
    assertThat(success.executionId()).isEqualTo("execution-7");
    assertThat(MessageCodec.encode(started))
        .contains("\"report\":\"STARTED\"")
        .doesNotContain("\"started\"");
  }

  @Test
  void rejectsUnknownFieldsAndGarbage() {
    String withExtra = MessageCodec.encode(step).replaceFirst("\\{", "{\"surprise\":1,");
    assertThatThrownBy(() -> MessageCodec.decode(withExtra, StepMessage.class))
        .isInstanceOf(MalformedMessageException.class)
        .hasMessageContaining("surprise");
    assertThatThrownBy(() -> MessageCodec.decode("not json", StepMessage.class))
        .isInstanceOf(MalformedMessageException.class);
    assertThatThrownBy(() -> MessageCodec.decode("null", StepMessage.class))
        .isInstanceOf(MalformedMessageException.class);
  }

  @Test
  void aResultHasAnOutputExactlyWhenItSucceeded() {
    assertThatThrownBy(
            () ->
                new StepResult(
                    "j",
                    0,
                    "image",
                    true,
                    null,
                    0,
                    null,
                    0,
                    0,
                    false,
                    null,
                    1,
                    null,
                    StepResult.Report.FINISHED))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
