package dev.derive.coordinator.progress;

import com.amazonaws.services.lambda.runtime.events.SQSEvent;
import dev.derive.coordinator.claim.ClaimCheck;
import dev.derive.protocol.message.MalformedMessageException;
import dev.derive.protocol.message.MessageCodec;
import dev.derive.protocol.message.MessageKind;
import dev.derive.protocol.message.StepMessage;
import dev.derive.protocol.message.StepResult;
import java.util.Map;
import java.util.Optional;

/**
 * One message of the progress function's queues, opened: what kind it is and its decoded body. The
 * kind is the one its attribute {@value MessageKind#ATTRIBUTE} names; a message without one (step
 * results and step messages are sent without a name, so that a receiver of the previous deployment
 * still reads them) is a step result on the step-results queue, and on a dead-letter queue a step
 * message or a step result, whichever its body is.
 */
sealed interface Envelope {
  /** A claim check, from the step-results queue or its dead-letter queue. */
  record OfClaimCheck(ClaimCheck check) implements Envelope {}

  /** A step result; {@code deadLettered} when it exhausted its deliveries. */
  record OfStepResult(StepResult result, boolean deadLettered) implements Envelope {}

  /** A step message that exhausted its deliveries on its capability's queue. */
  record OfStepMessage(StepMessage step) implements Envelope {}

  /** A kind of a newer sender (during a deploy); {@code deadLettered} when it had its time. */
  record OfNewerKind(String kind, boolean deadLettered) implements Envelope {}

  /** A body that is not the message its kind says: it can never succeed. */
  record Malformed(String kind, String why) implements Envelope {}

  /**
   * Opens {@code message}.
   *
   * @param deadLetterSuffix the suffix of every dead-letter queue's name
   */
  static Envelope open(SQSEvent.SQSMessage message, String deadLetterSuffix) {
    String arn = message.getEventSourceArn();
    boolean deadLetter = arn != null && arn.endsWith(deadLetterSuffix);
    Optional<String> named = kindAttribute(message);
    if (named.isPresent() && MessageKind.named(named.get()).isEmpty()) {
      return new OfNewerKind(named.get(), deadLetter);
    }
    MessageKind kind =
        named.flatMap(MessageKind::named).orElseGet(() -> byQueue(message, deadLetter));
    String body = message.getBody();
    try {
      return switch (kind) {
        case CLAIM_CHECK -> new OfClaimCheck(MessageCodec.decode(body, ClaimCheck.class));
        case STEP_RESULT ->
            new OfStepResult(MessageCodec.decode(body, StepResult.class), deadLetter);
        case STEP_MESSAGE -> new OfStepMessage(MessageCodec.decode(body, StepMessage.class));
      };
    } catch (MalformedMessageException e) {
      return new Malformed(kind.wireName(), e.getMessage());
    }
  }

  /**
   * The kind of a message that names none: a step result on the step-results queue; on a
   * dead-letter queue a step message if its body is one (capability queues' dead letters), else a
   * step result (the step-results queue's).
   */
  private static MessageKind byQueue(SQSEvent.SQSMessage message, boolean deadLetter) {
    if (!deadLetter) {
      return MessageKind.STEP_RESULT;
    }
    try {
      MessageCodec.decode(message.getBody(), StepMessage.class);
      return MessageKind.STEP_MESSAGE;
    } catch (MalformedMessageException notAStepMessage) {
      return MessageKind.STEP_RESULT;
    }
  }

  private static Optional<String> kindAttribute(SQSEvent.SQSMessage message) {
    Map<String, SQSEvent.MessageAttribute> attributes = message.getMessageAttributes();
    SQSEvent.MessageAttribute kind =
        attributes == null ? null : attributes.get(MessageKind.ATTRIBUTE);
    return Optional.ofNullable(kind).map(SQSEvent.MessageAttribute::getStringValue);
  }
}
