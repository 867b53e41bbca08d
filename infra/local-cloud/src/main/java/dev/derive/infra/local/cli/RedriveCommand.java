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
 * step-results} redrives the step-results queue.
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
