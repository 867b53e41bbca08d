package dev.derive.protocol.message;

import java.util.Arrays;
import java.util.Optional;

/**
 * The kinds of SQS message Derive's functions send each other, as named by the message attribute
 * {@value #ATTRIBUTE}. A claim check has always carried its name; step messages and step results
 * are sent without one by the senders of this deployment (a receiver that predates a name would
 * hand the message back as of a newer kind), and a receiver reads a message without a name by its
 * queue ({@code docs/job-lifecycle.md}, "Messages"). Names are never renamed.
 */
public enum MessageKind {
  /** A {@link StepMessage}: the coordinator's work order to a capability's queue. */
  STEP_MESSAGE("step-message"),
  /** A {@link StepResult}: a worker's report about a step. */
  STEP_RESULT("step-result"),
  /** The check of a claim that had sent no step (coordinator-core's {@code ClaimCheck}). */
  CLAIM_CHECK("claim-check");

  /** The SQS message attribute naming a message's kind. */
  public static final String ATTRIBUTE = "derive-message";

  private final String wireName;

  MessageKind(String wireName) {
    this.wireName = wireName;
  }

  /** The attribute's value for this kind. */
  public String wireName() {
    return wireName;
  }

  /** The kind named {@code wireName}; empty for a kind of a newer sender. */
  public static Optional<MessageKind> named(String wireName) {
    return Arrays.stream(values()).filter(k -> k.wireName.equals(wireName)).findFirst();
  }
}
