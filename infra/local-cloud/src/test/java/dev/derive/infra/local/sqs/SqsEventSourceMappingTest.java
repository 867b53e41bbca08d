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
 * batches at once and no more, and once closed it receives nothing it could not deliver.
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
            "Queue",
            "arn:aws:sqs:us-east-1:123456789012:q",
            1,
            0,
            false,
            OptionalInt.empty(),
            true);
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
}
