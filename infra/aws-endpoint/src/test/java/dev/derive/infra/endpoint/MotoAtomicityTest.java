package dev.derive.infra.endpoint;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.ConditionalCheckFailedException;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.Message;

/** The moto endpoint applies requests atomically, as AWS does, without stalling long polls. */
class MotoAtomicityTest {
  @TempDir static Path dir;
  private static MotoServerEndpoint endpoint;

  @BeforeAll
  static void start() {
    endpoint = MotoServerEndpoint.start(dir.resolve("moto.log"));
  }

  @AfterAll
  static void stop() {
    endpoint.close();
  }

  @Test
  void exactlyOneOfManyConcurrentConditionalPutsWins() throws Exception {
    int threads = 24;
    try (DynamoDbClient dynamo = AwsClients.dynamoDb(endpoint)) {
      dynamo.createTable(
          b ->
              b.tableName("claims")
                  .billingMode(BillingMode.PAY_PER_REQUEST)
                  .attributeDefinitions(
                      a -> a.attributeName("id").attributeType(ScalarAttributeType.S))
                  .keySchema(k -> k.attributeName("id").keyType(KeyType.HASH)));
      ExecutorService pool = Executors.newFixedThreadPool(threads);
      try {
        for (int round = 0; round < 5; round++) {
          String id = "job-" + round;
          CountDownLatch start = new CountDownLatch(1);
          List<Future<Boolean>> attempts = new ArrayList<>();
          for (int i = 0; i < threads; i++) {
            String owner = "owner-" + i;
            attempts.add(
                pool.submit(
                    () -> {
                      start.await();
                      try {
                        dynamo.putItem(
                            b ->
                                b.tableName("claims")
                                    .item(
                                        Map.of(
                                            "id", AttributeValue.fromS(id),
                                            "owner", AttributeValue.fromS(owner)))
                                    .conditionExpression("attribute_not_exists(id)"));
                        return true;
                      } catch (ConditionalCheckFailedException lost) {
                        return false;
                      }
                    }));
          }
          start.countDown();
          int winners = 0;
          for (Future<Boolean> attempt : attempts) {
            winners += attempt.get() ? 1 : 0;
          }
          assertThat(winners).as("winners of round " + round).isEqualTo(1);
        }
      } finally {
        pool.shutdownNow();
      }
    }
  }

  @Test
  void aLongPollReleasesTheEndpointSoASendCanWakeIt() throws Exception {
    try (SqsClient sqs = AwsClients.sqs(endpoint)) {
      String url = sqs.createQueue(b -> b.queueName("long-poll")).queueUrl();
      CompletableFuture<List<Message>> poll =
          CompletableFuture.supplyAsync(
              () -> sqs.receiveMessage(b -> b.queueUrl(url).waitTimeSeconds(15)).messages());
      Thread.sleep(
          500); // let the poll start waiting; if it held the lock, the send would wait 15 s
      sqs.sendMessage(b -> b.queueUrl(url).messageBody("wake up"));
      assertThat(poll.get()).extracting(Message::body).containsExactly("wake up");
    }
  }
}
