package dev.derive.infra.local.cli;

import java.io.PrintStream;
import java.util.List;
import software.amazon.awssdk.services.sqs.model.Message;
import software.amazon.awssdk.services.sqs.model.MessageSystemAttributeName;
import software.amazon.awssdk.services.sqs.model.QueueDoesNotExistException;

/**
 * {@code redrive CAPABILITY}: moves every message of {@code <stack>-<capability>-dlq} back to
 * {@code <stack>-<capability>}, body and message attributes unchanged, each deleted from the
 * dead-letter queue only after it was sent (a crash in between sends it twice, which the
 * coordinator's execution ids make harmless: a second delivery of a step is ignored or redone to
 * the same content-addressed output). Ends when a receive finds the dead-letter queue empty. {@code
 * step-results} redrives the step-results queue, {@code callbacks} the callback queue.
 *
 * <p>What it is for: {@code callbacks}, whose dead-letter queue nothing consumes (its messages are
 * the dead-letter records of callbacks that failed every attempt). The capability and step-results
 * dead-letter queues are consumed by the progress function, which fails the job at once (the next
 * request runs it again), so they hold messages only while that consumer is failing or disabled;
 * then a redrive sends them back to be tried again. Finding nothing there is the normal case, and
 * it says so.
 */
public final class RedriveCommand {
  private final OperatorTarget target;

  /** Redrives on {@code target}. */
  public RedriveCommand(OperatorTarget target) {
    this.target = target;
  }

  /**
   * Moves the messages and prints how many.
   *
   * @param capability a capability ({@code image}, {@code pdf} …) or {@code step-results}
   * @return the number of messages moved
   * @throws IllegalArgumentException if the stack has no such queue or dead-letter queue
   */
  public int redrive(String capability, PrintStream out) {
    String queue = url(target.queueName(capability));
    String dlq = url(target.queueName(capability + "-dlq"));
    int moved = 0;
    while (true) {
      List<Message> messages =
          target
              .sqs()
              .receiveMessage(
                  b ->
                      b.queueUrl(dlq)
                          .maxNumberOfMessages(10)
                          .waitTimeSeconds(1)
                          .visibilityTimeout(60)
                          .messageAttributeNames("All")
                          .messageSystemAttributeNames(MessageSystemAttributeName.AWS_TRACE_HEADER))
              .messages();
      if (messages.isEmpty()) {
        break;
      }
      for (Message message : messages) {
        target
            .sqs()
            .sendMessage(
                b ->
                    b.queueUrl(queue)
                        .messageBody(message.body())
                        .messageAttributes(message.messageAttributes()));
        target.sqs().deleteMessage(b -> b.queueUrl(dlq).receiptHandle(message.receiptHandle()));
        moved++;
      }
    }
    out.println(
        "moved "
            + moved
            + " message"
            + (moved == 1 ? "" : "s")
            + " from "
            + target.queueName(capability + "-dlq")
            + " to "
            + target.queueName(capability));
    if (moved == 0 && !capability.equals("callbacks")) {
      out.println(
          "(the progress function consumes "
              + target.queueName(capability + "-dlq")
              + " and fails each dead-lettered step's job at once: request the derivative again"
              + " to run it again. A redrive is for messages left there while that consumer"
              + " failed, and for callbacks.)");
    }
    return moved;
  }

  private String url(String name) {
    try {
      return target.sqs().getQueueUrl(b -> b.queueName(name)).queueUrl();
    } catch (QueueDoesNotExistException e) {
      throw new IllegalArgumentException("the stack has no queue " + name, e);
    }
  }
}
