package dev.derive.infra.local.sqs;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.derive.infra.local.lambda.FunctionInvoker;
import dev.derive.infra.local.lambda.InvocationResult;
import dev.derive.infra.local.template.FunctionDefinition;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.DeleteMessageBatchRequestEntry;
import software.amazon.awssdk.services.sqs.model.Message;
import software.amazon.awssdk.services.sqs.model.MessageSystemAttributeName;

/**
 * Polls one queue for one function the way Lambda's SQS event source mapping does: {@code
 * ReceiveMessage} with long polling, up to {@code BatchSize} messages (10 per call; larger batches
 * gather calls within {@code MaximumBatchingWindowInSeconds}), all system and message attributes;
 * invokes the function with the batch; then deletes the messages that succeeded. With {@code
 * ReportBatchItemFailures} the reported {@code batchItemFailures} stay on the queue; on a function
 * error the whole batch stays, to reappear after the visibility timeout (and reach the dead-letter
 * queue after the redrive policy's {@code maxReceiveCount}). Up to {@code
 * ScalingConfig.MaximumConcurrency} batches are delivered at once.
 *
 * <p>One poller receives; each batch it gets is delivered on a thread of its own, and it receives
 * the next while a delivery slot is free. So an idle mapping has one long poll in flight, not one
 * per slot: with a poller per slot, the local cloud's ~40 idle pollers made ~20 empty {@code
 * ReceiveMessage} calls a second, the endpoint's largest CPU share between jobs (Lambda's own
 * pollers scale with the backlog too, not with the concurrency allowed).
 */
public final class SqsEventSourceMapping implements AutoCloseable {
  /** SQS's limit on messages per {@code ReceiveMessage} and per {@code DeleteMessageBatch}. */
  public static final int MAX_MESSAGES_PER_CALL = 10;

  private static final ObjectMapper JSON = new ObjectMapper();

  private final String functionId;
  private final FunctionDefinition.SqsEvent event;
  private final String queueUrl;
  private final SqsClient sqs;
  private final FunctionInvoker invoker;
  private final AtomicLong delivered;
  private final int waitSeconds;
  private final String region;
  private final Consumer<String> log;
  private final Semaphore deliverySlots;
  private final ExecutorService deliveries;
  private Thread poller;
  private volatile boolean running;

  /**
   * @param functionId the logical id of the function to invoke
   * @param queueUrl the URL of {@code event}'s queue
   * @param delivered counts every message handed to the function
   * @param concurrency how many batches may be in flight at once
   * @param waitSeconds the long-polling wait of each {@code ReceiveMessage} (0–20 s)
   */
  public SqsEventSourceMapping(
      String functionId,
      FunctionDefinition.SqsEvent event,
      String queueUrl,
      SqsClient sqs,
      FunctionInvoker invoker,
      AtomicLong delivered,
      int concurrency,
      int waitSeconds,
      String region,
      Consumer<String> log) {
    this.functionId = functionId;
    this.event = event;
    this.queueUrl = queueUrl;
    this.sqs = sqs;
    this.invoker = invoker;
    this.delivered = delivered;
    this.deliverySlots = new Semaphore(concurrency);
    this.deliveries =
        Executors.newThreadPerTaskExecutor(
            Thread.ofPlatform()
                .daemon(true)
                .name("sqs-" + functionId + "-" + event.eventId() + "-delivery-", 0)
                .factory());
    this.waitSeconds = waitSeconds;
    this.region = region;
    this.log = log;
  }

  /** Starts the poller. */
  public void start() {
    running = true;
    poller = new Thread(this::poll, "sqs-" + functionId + "-" + event.eventId());
    poller.setDaemon(true);
    poller.start();
  }

  /** Receives a batch whenever a delivery slot is free, and hands it to a delivery thread. */
  private void poll() {
    while (running) {
      try {
        deliverySlots.acquire();
      } catch (InterruptedException e) {
        return;
      }
      if (!running) {
        // stopped while every slot was busy: receive nothing that could not be delivered
        deliverySlots.release();
        return;
      }
      boolean handedOver = false;
      try {
        List<Message> batch = receiveBatch();
        if (!batch.isEmpty() && running) {
          deliveries.execute(() -> deliverInSlot(batch));
          handedOver = true;
        }
      } catch (SdkException e) {
        if (running) {
          logFailure(e);
          sleep(1000);
        }
      } finally {
        if (!handedOver) {
          deliverySlots.release();
        }
      }
    }
  }

  private void deliverInSlot(List<Message> batch) {
    try {
      deliver(batch);
    } catch (SdkException | JsonProcessingException e) {
      if (running) {
        logFailure(e);
      }
    } finally {
      deliverySlots.release();
    }
  }

  private void logFailure(Exception e) {
    log.accept("SQS " + functionId + "/" + event.eventId() + ": " + e.getMessage());
  }

  /**
   * Gathers one batch: waits (long polling) for a first message, then keeps receiving until the
   * batch is full or {@code MaximumBatchingWindowInSeconds} has passed since that first message.
   */
  private List<Message> receiveBatch() {
    List<Message> batch = new ArrayList<>(receive(event.batchSize(), waitSeconds));
    long windowEnd = System.currentTimeMillis() + event.maximumBatchingWindowSeconds() * 1000L;
    while (running && !batch.isEmpty() && batch.size() < event.batchSize()) {
      long remainingMs = windowEnd - System.currentTimeMillis();
      if (remainingMs <= 0) {
        break;
      }
      int wait = (int) Math.min(20, (remainingMs + 999) / 1000);
      batch.addAll(receive(event.batchSize() - batch.size(), wait));
    }
    return batch;
  }

  private List<Message> receive(int wanted, int wait) {
    return sqs.receiveMessage(
            b ->
                b.queueUrl(queueUrl)
                    .maxNumberOfMessages(Math.min(MAX_MESSAGES_PER_CALL, wanted))
                    .waitTimeSeconds(wait)
                    .messageSystemAttributeNames(MessageSystemAttributeName.ALL)
                    .messageAttributeNames("All"))
        .messages();
  }

  private void deliver(List<Message> batch) throws JsonProcessingException {
    delivered.addAndGet(batch.size());
    byte[] payload = JSON.writeValueAsBytes(SqsEventMapper.event(batch, event.queueArn(), region));
    InvocationResult result = invoker.invoke(functionId, payload);
    Set<String> ids = new LinkedHashSet<>(batch.stream().map(Message::messageId).toList());
    Set<String> failed =
        switch (result) {
          case InvocationResult.Failure failure -> {
            log.accept(
                "SQS "
                    + functionId
                    + ": "
                    + batch.size()
                    + " message(s) stay on the queue after "
                    + failure.errorType()
                    + ": "
                    + failure.errorMessage());
            yield ids;
          }
          case InvocationResult.Success success ->
              event.reportBatchItemFailures()
                  ? BatchItemFailures.failedIds(success.payload(), ids)
                  : Set.of();
        };
    List<Message> succeeded = batch.stream().filter(m -> !failed.contains(m.messageId())).toList();
    for (int from = 0; from < succeeded.size(); from += MAX_MESSAGES_PER_CALL) {
      List<DeleteMessageBatchRequestEntry> entries =
          succeeded.subList(from, Math.min(succeeded.size(), from + MAX_MESSAGES_PER_CALL)).stream()
              .map(
                  m ->
                      DeleteMessageBatchRequestEntry.builder()
                          .id(m.messageId())
                          .receiptHandle(m.receiptHandle())
                          .build())
              .toList();
      var response = sqs.deleteMessageBatch(b -> b.queueUrl(queueUrl).entries(entries));
      response
          .failed()
          .forEach(
              f ->
                  log.accept(
                      "SQS " + functionId + ": cannot delete " + f.id() + ": " + f.message()));
    }
    if (!failed.isEmpty() && result instanceof InvocationResult.Success) {
      log.accept(
          "SQS "
              + functionId
              + ": "
              + failed.size()
              + " of "
              + batch.size()
              + " reported as failed");
    }
  }

  private static void sleep(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /**
   * Tells the pollers to stop after their current call, without waiting for them: a stack stopping
   * all its mappings at once (its endpoint may already be gone) says so to every one first, so none
   * keeps polling, and logging a refused connection, while another is joined.
   */
  public void stop() {
    running = false;
  }

  /**
   * Stops polling; the poll in flight ends (up to the long-polling wait) and batches being
   * delivered are finished first (as long again at most).
   */
  @Override
  public void close() {
    running = false;
    long boundMillis = (waitSeconds + 2) * 1000L;
    try {
      if (poller != null) {
        poller.join(boundMillis);
      }
      deliveries.shutdown();
      deliveries.awaitTermination(boundMillis, TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
