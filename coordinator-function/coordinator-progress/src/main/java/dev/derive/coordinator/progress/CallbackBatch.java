package dev.derive.coordinator.progress;

import com.amazonaws.services.lambda.runtime.events.SQSBatchResponse;
import com.amazonaws.services.lambda.runtime.events.SQSEvent;
import dev.derive.coordinator.completion.CallbackDelivery;
import dev.derive.coordinator.completion.CallbackRetries;
import dev.derive.coordinator.completion.CallbackSender;
import dev.derive.coordinator.config.CoordinatorConfig;
import dev.derive.protocol.telemetry.Correlation;
import jakarta.enterprise.context.ApplicationScoped;
import java.net.URI;
import java.time.Duration;
import software.amazon.awssdk.services.sqs.SqsClient;

/**
 * Delivers a batch of callbacks from the callback queue, one attempt each ({@link CallbackSender}).
 * A delivered callback is acknowledged; a failed one, whatever failed, is a batch item failure
 * (never an error of the whole invocation) whose message is made invisible for the {@link
 * CallbackRetries} pause first ({@code ChangeMessageVisibility}), so SQS offers it again after that
 * pause and, once {@code maxReceiveCount} attempts have failed, moves it to the callback
 * dead-letter queue: the dead-letter record (with an alarm on it). Only the receiver's host and the
 * outcome are logged: not the URL's path or query (they may hold a token), nor the body, nor the
 * response.
 */
@ApplicationScoped
public class CallbackBatch {
  private static final System.Logger LOG = System.getLogger(CallbackBatch.class.getName());

  private final CallbackSender sender;
  private final CallbackRetries retries;
  private final SqsClient sqs;
  private final String queueUrl;
  private final int maxAttempts;

  /**
   * @param config the callback queue ({@code CALLBACK_QUEUE_URL}), whose messages' visibility is
   *     changed (empty in the other functions of this artifact, which never run this batch), and
   *     its {@code maxReceiveCount} ({@code CALLBACK_MAX_RECEIVE_COUNT}), to say in the log when a
   *     delivery is dead-lettered
   */
  @jakarta.inject.Inject
  CallbackBatch(
      CallbackSender sender, CallbackRetries retries, SqsClient sqs, CoordinatorConfig config) {
    this(sender, retries, sqs, config.callbacks().queueUrl(), config.callbacks().maxAttempts());
  }

  /**
   * @param queueUrl the callback queue, whose messages' visibility is changed
   * @param maxAttempts its {@code maxReceiveCount}
   */
  CallbackBatch(
      CallbackSender sender,
      CallbackRetries retries,
      SqsClient sqs,
      java.util.Optional<String> queueUrl,
      int maxAttempts) {
    this.sender = sender;
    this.retries = retries;
    this.sqs = sqs;
    this.queueUrl = queueUrl.orElse("");
    this.maxAttempts = maxAttempts;
  }

  /** Attempts every delivery; returns the ids of those to be attempted again. */
  public SQSBatchResponse process(SQSEvent event) {
    return process(event, null);
  }

  /**
   * Attempts every delivery of the invocation {@code requestId}, each log line naming the job and
   * execution the delivery tells of; returns the ids of those to be attempted again.
   */
  public SQSBatchResponse process(SQSEvent event, String requestId) {
    Correlation.invocation(requestId);
    return PartialBatch.process(event, this::deliver);
  }

  /**
   * One attempt; whether the message is done with (delivered, or malformed and dropped). Whatever
   * goes wrong with one message is that message's failed attempt, reported in the partial batch
   * response: it never fails the invocation, which would hand every other delivery of the batch
   * back to SQS and spend one of its attempts (issue 26 item 4).
   */
  private boolean deliver(SQSEvent.SQSMessage message) {
    try {
      return attempt(message);
    } catch (RuntimeException e) {
      LOG.log(
          System.Logger.Level.ERROR,
          "callback message %s failed unexpectedly: a failed attempt, SQS offers it again"
              .formatted(message.getMessageId()),
          e);
      return false;
    }
  }

  private boolean attempt(SQSEvent.SQSMessage message) {
    CallbackDelivery delivery;
    try {
      delivery = CallbackDelivery.decode(message.getBody() == null ? "" : message.getBody());
    } catch (IllegalArgumentException e) {
      LOG.log(
          System.Logger.Level.ERROR,
          () ->
              "dropping callback message %s: %s".formatted(message.getMessageId(), e.getMessage()));
      return true;
    }
    CallbackDelivery.Subject subject = delivery.subject();
    Correlation.job(subject.fingerprint(), null, null, subject.executionId(), null);
    int attempt = receiveCount(message);
    String host = host(delivery.url());
    CallbackSender.Attempt result = sender.send(delivery);
    if (result.delivered()) {
      LOG.log(
          System.Logger.Level.INFO,
          () ->
              "callback %s to %s delivered on attempt %d: %s"
                  .formatted(delivery.id(), host, attempt, result.outcome()));
      return true;
    }
    if (attempt >= maxAttempts) {
      LOG.log(
          System.Logger.Level.ERROR,
          () ->
              "callback %s to %s failed on its last attempt %d (%s): dead-lettered"
                  .formatted(delivery.id(), host, attempt, result.outcome()));
      return false;
    }
    Duration pause = retries.delayAfter(attempt);
    LOG.log(
        System.Logger.Level.WARNING,
        () ->
            "callback %s to %s failed on attempt %d (%s): next attempt in %d s"
                .formatted(delivery.id(), host, attempt, result.outcome(), pause.toSeconds()));
    if (queueUrl.isBlank()) {
      LOG.log(
          System.Logger.Level.WARNING,
          () ->
              "callback %s: no CALLBACK_QUEUE_URL, the queue's visibility timeout applies"
                  .formatted(delivery.id()));
      return false;
    }
    try {
      sqs.changeMessageVisibility(
          b ->
              b.queueUrl(queueUrl)
                  .receiptHandle(message.getReceiptHandle())
                  .visibilityTimeout((int) pause.toSeconds()));
    } catch (RuntimeException e) {
      LOG.log(
          System.Logger.Level.WARNING,
          () ->
              "callback %s: pause not set (%s); the queue's visibility timeout applies"
                  .formatted(delivery.id(), e.getMessage()));
    }
    return false;
  }

  private static int receiveCount(SQSEvent.SQSMessage message) {
    String count =
        message.getAttributes() == null
            ? null
            : message.getAttributes().get("ApproximateReceiveCount");
    try {
      return count == null ? 1 : Math.max(1, Integer.parseInt(count));
    } catch (NumberFormatException e) {
      return 1;
    }
  }

  private static String host(String url) {
    try {
      String host = URI.create(url).getHost();
      return host == null ? "?" : host;
    } catch (IllegalArgumentException e) {
      return "?";
    }
  }
}
