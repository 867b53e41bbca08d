package dev.derive.infra.local.sqs;

import static org.assertj.core.api.Assertions.assertThat;

import dev.derive.infra.endpoint.AwsClients;
import dev.derive.infra.endpoint.MotoServerEndpoint;
import dev.derive.infra.local.lambda.InvocationResult;
import dev.derive.infra.local.template.FunctionDefinition;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Map;
import java.util.OptionalInt;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.QueueAttributeName;

/**
 * The mapping's one poller against a real SQS endpoint: it delivers up to its concurrency of
 * batches at once and no more, and once closed it receives nothing it could not deliver. With a
 * consumer that changes its messages' visibility or deletes them itself (the worker's visibility
 * heartbeat, and a process that settles its batch before it ends), it behaves as Lambda's does: it
 * never re-hides or deletes a message behind the consumer's back, nor brings one back.
 */
@Timeout(60)
class SqsEventSourceMappingTest {
  @TempDir static Path dir;
  private static MotoServerEndpoint endpoint;
  private static SqsClient sqs;

  @BeforeAll
  static void start() {
    endpoint = MotoServerEndpoint.start(dir.resolve("moto.log"));
    sqs = AwsClients.sqs(endpoint);
  }

  @AfterAll
  static void stop() {
    sqs.close();
    endpoint.close();
  }

  private static String queue(String name) {
    return sqs.createQueue(
            b -> b.queueName(name).attributes(Map.of(QueueAttributeName.VISIBILITY_TIMEOUT, "60")))
        .queueUrl();
  }

  private static SqsEventSourceMapping mapping(
      String queueUrl, int concurrency, dev.derive.infra.local.lambda.FunctionInvoker invoker) {
    FunctionDefinition.SqsEvent event =
        new FunctionDefinition.SqsEvent(
            "Queue", "arn:aws:sqs:us-east-1:123456789012:q", 1, 0, true, OptionalInt.empty(), true);
    return new SqsEventSourceMapping(
        "Fn",
        event,
        queueUrl,
        sqs,
        invoker,
        new AtomicLong(),
        concurrency,
        1,
        "us-east-1",
        l -> {});
  }

  private static int visible(String queueUrl) {
    return Integer.parseInt(
        sqs.getQueueAttributes(
                b ->
                    b.queueUrl(queueUrl)
                        .attributeNames(QueueAttributeName.APPROXIMATE_NUMBER_OF_MESSAGES))
            .attributes()
            .get(QueueAttributeName.APPROXIMATE_NUMBER_OF_MESSAGES));
  }

  @Test
  void deliversAsManyBatchesAtOnceAsItsConcurrencyAndNoMore() throws Exception {
    String queueUrl = queue("concurrency");
    for (int i = 0; i < 5; i++) {
      int n = i;
      sqs.sendMessage(b -> b.queueUrl(queueUrl).messageBody("m" + n));
    }
    AtomicInteger inFlight = new AtomicInteger();
    AtomicInteger mostAtOnce = new AtomicInteger();
    CountDownLatch twoIn = new CountDownLatch(2);
    CountDownLatch release = new CountDownLatch(1);
    CountDownLatch allDone = new CountDownLatch(5);
    SqsEventSourceMapping mapping =
        mapping(
            queueUrl,
            2,
            (function, payload) -> {
              mostAtOnce.accumulateAndGet(inFlight.incrementAndGet(), Math::max);
              twoIn.countDown();
              try {
                release.await(30, TimeUnit.SECONDS);
              } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
              }
              inFlight.decrementAndGet();
              allDone.countDown();
              return new InvocationResult.Success("{}".getBytes(StandardCharsets.UTF_8));
            });
    mapping.start();
    try {
      assertThat(twoIn.await(20, TimeUnit.SECONDS)).as("two batches in flight").isTrue();
      Thread.sleep(1500); // a third would have been received and delivered by now
      assertThat(inFlight.get()).as("no third batch while both slots are busy").isEqualTo(2);
      assertThat(visible(queueUrl)).as("the rest not even received").isEqualTo(3);

      release.countDown();

      assertThat(allDone.await(20, TimeUnit.SECONDS)).as("every message delivered").isTrue();
      assertThat(mostAtOnce.get()).isEqualTo(2);
    } finally {
      release.countDown();
      mapping.close();
    }
  }

  @Test
  void closedWhileEverySlotIsBusyItReceivesNothingMore() throws Exception {
    String queueUrl = queue("closing");
    sqs.sendMessage(b -> b.queueUrl(queueUrl).messageBody("first"));
    CountDownLatch delivering = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    AtomicInteger deliveries = new AtomicInteger();
    SqsEventSourceMapping mapping =
        mapping(
            queueUrl,
            1,
            (function, payload) -> {
              deliveries.incrementAndGet();
              delivering.countDown();
              try {
                release.await(30, TimeUnit.SECONDS);
              } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
              }
              return new InvocationResult.Success("{}".getBytes(StandardCharsets.UTF_8));
            });
    mapping.start();
    assertThat(delivering.await(20, TimeUnit.SECONDS)).isTrue();
    sqs.sendMessage(b -> b.queueUrl(queueUrl).messageBody("second"));

    Thread closing = Thread.ofVirtual().start(mapping::close);
    Thread.sleep(300); // close has said stop; the one slot is still busy
    release.countDown();
    closing.join(20_000);

    assertThat(closing.isAlive()).as("close returned").isFalse();
    assertThat(deliveries.get()).isEqualTo(1);
    assertThat(visible(queueUrl))
        .as("the second message was not received by a mapping that could no longer deliver it")
        .isEqualTo(1);
  }

  private static final com.fasterxml.jackson.databind.ObjectMapper JSON =
      new com.fasterxml.jackson.databind.ObjectMapper();

  /** The receipt handle of the first record of an SQS event. */
  private static String receipt(byte[] payload) {
    try {
      return JSON.readTree(payload).path("Records").get(0).path("receiptHandle").asText();
    } catch (java.io.IOException e) {
      throw new AssertionError(e);
    }
  }

  private static String firstMessageId(byte[] payload) {
    try {
      return JSON.readTree(payload).path("Records").get(0).path("messageId").asText();
    } catch (java.io.IOException e) {
      throw new AssertionError(e);
    }
  }

  private static int notVisible(String queueUrl) {
    return Integer.parseInt(
        sqs.getQueueAttributes(
                b ->
                    b.queueUrl(queueUrl)
                        .attributeNames(
                            QueueAttributeName.APPROXIMATE_NUMBER_OF_MESSAGES_NOT_VISIBLE))
            .attributes()
            .get(QueueAttributeName.APPROXIMATE_NUMBER_OF_MESSAGES_NOT_VISIBLE));
  }

  /**
   * A consumer that keeps its message hidden past the queue's visibility timeout (the heartbeat)
   * gets it once, and the mapping deletes it after the invocation's success.
   */
  @Test
  void aMessageItsConsumerKeepsHiddenIsDeliveredOnceAndDeletedAfterSuccess() throws Exception {
    String queueUrl =
        sqs.createQueue(
                b ->
                    b.queueName("heartbeat")
                        .attributes(Map.of(QueueAttributeName.VISIBILITY_TIMEOUT, "2")))
            .queueUrl();
    sqs.sendMessage(b -> b.queueUrl(queueUrl).messageBody("slow step"));
    AtomicInteger deliveries = new AtomicInteger();
    CountDownLatch done = new CountDownLatch(1);
    SqsEventSourceMapping mapping =
        mapping(
            queueUrl,
            2,
            (function, payload) -> {
              deliveries.incrementAndGet();
              String receipt = receipt(payload);
              for (int beat = 0; beat < 5; beat++) { // 5 s, over twice the queue's 2 s
                sqs.changeMessageVisibility(
                    b -> b.queueUrl(queueUrl).receiptHandle(receipt).visibilityTimeout(2));
                sleep(1_000);
              }
              done.countDown();
              return new InvocationResult.Success("{}".getBytes(StandardCharsets.UTF_8));
            });
    mapping.start();
    try {
      assertThat(done.await(20, TimeUnit.SECONDS)).isTrue();
      Thread.sleep(3_000); // past the last beat's 2 s: a message left behind would be back
      assertThat(deliveries.get()).as("never delivered to a second invocation").isEqualTo(1);
      assertThat(visible(queueUrl) + notVisible(queueUrl)).as("deleted").isZero();
    } finally {
      mapping.close();
    }
  }

  /**
   * A consumer that hands its message back after making it visible again sooner than the queue's
   * timeout (60 s here) gets it back then: the mapping does not hide it again.
   */
  @Test
  void aHandedBackMessageReturnsWhenItsConsumerSaidNotAfterTheQueuesTimeout() throws Exception {
    String queueUrl = queue("handed-back");
    sqs.sendMessage(b -> b.queueUrl(queueUrl).messageBody("step"));
    java.util.List<Long> deliveredAt = new java.util.concurrent.CopyOnWriteArrayList<>();
    CountDownLatch twice = new CountDownLatch(2);
    SqsEventSourceMapping mapping =
        mapping(
            queueUrl,
            1,
            (function, payload) -> {
              deliveredAt.add(System.nanoTime());
              twice.countDown();
              if (deliveredAt.size() > 1) {
                return new InvocationResult.Success("{}".getBytes(StandardCharsets.UTF_8));
              }
              String receipt = receipt(payload);
              sqs.changeMessageVisibility(
                  b -> b.queueUrl(queueUrl).receiptHandle(receipt).visibilityTimeout(2));
              return new InvocationResult.Success(
                  ("{\"batchItemFailures\":[{\"itemIdentifier\":\""
                          + firstMessageId(payload)
                          + "\"}]}")
                      .getBytes(StandardCharsets.UTF_8));
            });
    mapping.start();
    try {
      assertThat(twice.await(20, TimeUnit.SECONDS)).as("delivered again within 20 s").isTrue();
      long apart = TimeUnit.NANOSECONDS.toMillis(deliveredAt.get(1) - deliveredAt.get(0));
      assertThat(apart).as("ms between the deliveries").isBetween(1_500L, 8_000L);
    } finally {
      mapping.close();
    }
  }

  /**
   * A consumer that deletes what it processed and releases what it hands back, then dies (a worker
   * process being replaced): the failed invocation leaves the deleted message gone and the released
   * one is delivered again at once.
   */
  @Test
  void aConsumerThatSettlesItsBatchAndDiesLeavesTheMappingNothingToUndo() throws Exception {
    String queueUrl = queue("settled");
    sqs.sendMessage(b -> b.queueUrl(queueUrl).messageBody("processed"));
    sqs.sendMessage(b -> b.queueUrl(queueUrl).messageBody("released"));
    java.util.List<String> delivered = new java.util.concurrent.CopyOnWriteArrayList<>();
    CountDownLatch releasedAgain = new CountDownLatch(1);
    SqsEventSourceMapping mapping =
        mapping(
            queueUrl,
            1,
            (function, payload) -> {
              String body;
              try {
                body = JSON.readTree(payload).path("Records").get(0).path("body").asText();
              } catch (java.io.IOException e) {
                throw new AssertionError(e);
              }
              delivered.add(body);
              if (delivered.size() > 2) {
                releasedAgain.countDown();
                return new InvocationResult.Success("{}".getBytes(StandardCharsets.UTF_8));
              }
              String receipt = receipt(payload);
              if (body.equals("processed")) {
                sqs.deleteMessage(b -> b.queueUrl(queueUrl).receiptHandle(receipt));
              } else {
                sqs.changeMessageVisibility(
                    b -> b.queueUrl(queueUrl).receiptHandle(receipt).visibilityTimeout(0));
              }
              return InvocationResult.Failure.of(
                  "Runtime.ExitError", "Runtime exited with error: exit status 70");
            });
    mapping.start();
    try {
      assertThat(releasedAgain.await(20, TimeUnit.SECONDS))
          .as("the released message delivered again well before the queue's 60 s")
          .isTrue();
      Thread.sleep(1_000);
      assertThat(delivered).containsExactlyInAnyOrder("processed", "released", "released");
      assertThat(visible(queueUrl) + notVisible(queueUrl)).as("nothing left").isZero();
    } finally {
      mapping.close();
    }
  }

  private static void sleep(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
