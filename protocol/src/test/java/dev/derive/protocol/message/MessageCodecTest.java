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
            "\"etag-1\"",
            Map.of());
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

  /**
   * A deploy updates functions one by one, so a receiver meets messages of a newer sender (fields
   * it does not know) and of an older one (fields missing): both are read, neither dropped.
   */
  @Test
  void readsTheMessagesOfNewerAndOlderSenders() {
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
            "\"etag-1\"",
            Map.of());
    String newer =
        MessageCodec.encode(pinned)
            .replaceFirst("\\{", "{\"deadlineMillis\":5,\"hints\":{\"x\":[1]},")
            .replace("\"input\":{", "\"input\":{\"region\":\"eu-west-1\",");
    StepResult success = StepResult.success(pinned, 12, 10, 20, false).withAttempt(2);
    String newerResult =
        MessageCodec.encode(success)
            .replace("\"output\":{", "\"output\":{\"checksum\":\"sha256:00\",")
            .replaceFirst("\\{", "{\"heartbeatMillis\":30000,");

    assertThat(MessageCodec.decode(newer, StepMessage.class).executionId())
        .isEqualTo("execution-7");
    assertThat(MessageCodec.decode(newerResult, StepResult.class).outputBytes()).isEqualTo(12);

    String older =
        "{\"jobId\":\""
            + step.jobId()
            + "\",\"stepIndex\":0,\"capability\":\"image\",\"succeeded\":true,"
            + "\"output\":{\"bucket\":\"derivatives\",\"key\":\"derivatives/x\"},"
            + "\"startedAtMillis\":10,\"finishedAtMillis\":20}";
    StepResult old = MessageCodec.decode(older, StepResult.class);
    assertThat(old.report()).isEqualTo(StepResult.Report.FINISHED);
    assertThat(old.executionId()).isNull();
    assertThat(old.attempt()).isZero();
    assertThat(old.summary()).isNull();

    String olderStep =
        "{\"jobId\":\""
            + step.jobId()
            + "\",\"stepIndex\":0,\"stepCount\":1,\"capability\":\"image\","
            + "\"operations\":[{\"operation\":\"resize\",\"params\":{\"width\":64}}],"
            + "\"input\":{\"bucket\":\"source\",\"key\":\"photos/cat.jpg\"},"
            + "\"inputMediaType\":\"image/jpeg\","
            + "\"output\":{\"bucket\":\"derivatives\",\"key\":\"derivatives/x\"},"
            + "\"outputMediaType\":\"image/png\",\"traceId\":\"trace-0\"}";
    StepMessage oldStep = MessageCodec.decode(olderStep, StepMessage.class);
    assertThat(oldStep.objects()).as("a sender before objects").isEmpty();
    assertThat(oldStep.executionId()).isNull();
    assertThat(oldStep.inputEtag()).isNull();
    assertThat(oldStep.operations()).hasSize(1);
  }

  /** The other objects a step reads survive the queue; a message without them reads as none. */
  @Test
  void theObjectsAStepReadsBesideItsInputSurviveARoundTrip() {
    StepMessage marked =
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
            "\"etag-1\"",
            Map.of(
                "watermark",
                new PinnedObject(new ObjectRef("source", "marks/logo.png", "v3"), "\"etag-9\"")));

    String body = MessageCodec.encode(marked);
    assertThat(body)
        .contains(
            "\"objects\":{\"watermark\":{\"ref\":{\"bucket\":\"source\",\"key\":\"marks/logo.png\",");
    assertThat(MessageCodec.decode(body, StepMessage.class)).isEqualTo(marked);
    assertThat(MessageCodec.encode(step)).doesNotContain("objects");
    assertThat(MessageCodec.decode(MessageCodec.encode(step), StepMessage.class).objects())
        .isEmpty();
  }

  /**
   * A summary (a JSON object, nested values and nulls included) survives the queue; an older
   * receiver's reader ignores it as any unknown field, and a failure never carries one.
   */
  @Test
  void aSuccessCarriesItsSummary() {
    Map<String, Object> summary = new java.util.LinkedHashMap<>();
    summary.put("mediaType", "image/jpeg");
    summary.put("width", 640);
    summary.put("exif", Map.of("camera", "Canon"));
    summary.put("iccDescription", null);
    StepResult success = StepResult.success(step, 99, 10, 20, false).withSummary(summary);

    String body = MessageCodec.encode(success);
    assertThat(body).contains("\"summary\":{\"mediaType\":\"image/jpeg\",\"width\":640");
    assertThat(MessageCodec.decode(body, StepResult.class)).isEqualTo(success);
    assertThat(MessageCodec.decode(body, StepResult.class).withAttempt(3).summary())
        .isEqualTo(summary);
    assertThat(MessageCodec.encode(StepResult.success(step, 99, 10, 20, false)))
        .doesNotContain("summary");
    StepResult failure =
        new StepResult(
            step.jobId(),
            0,
            "image",
            false,
            null,
            0,
            new StepError(StepErrorTypes.CORRUPT_INPUT, "x", false),
            1,
            2,
            false,
            null,
            1,
            null,
            StepResult.Report.FINISHED,
            0,
            summary);
    assertThat(failure.summary()).isNull();
  }

  @Test
  void rejectsGarbageAndWhatNoVersionCanDoWithout() {
    assertThatThrownBy(() -> MessageCodec.decode("not json", StepMessage.class))
        .isInstanceOf(MalformedMessageException.class);
    assertThatThrownBy(() -> MessageCodec.decode("null", StepMessage.class))
        .isInstanceOf(MalformedMessageException.class);
    assertThatThrownBy(() -> MessageCodec.decode("{\"surprise\":1}", StepMessage.class))
        .isInstanceOf(MalformedMessageException.class)
        .hasMessageContaining("jobId");
    String unknownReport =
        MessageCodec.encode(StepResult.started(step, 1)).replace("STARTED", "PAUSED");
    assertThatThrownBy(() -> MessageCodec.decode(unknownReport, StepResult.class))
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

  @Test
  void aResultCarriesItsStepCountAndAnOlderSendersReadsAsZero() {
    StepResult success = StepResult.success(step, 1234, 10, 20, false);
    assertThat(success.stepCount()).isEqualTo(1);
    String encoded = MessageCodec.encode(success);
    assertThat(encoded).contains("\"stepCount\":1");
    String older = encoded.replace(",\"stepCount\":1", "");
    assertThat(MessageCodec.decode(older, StepResult.class).stepCount()).isZero();
  }
}
