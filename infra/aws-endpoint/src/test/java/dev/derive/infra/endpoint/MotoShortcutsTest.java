package dev.derive.infra.endpoint;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ConditionalCheckFailedException;
import software.amazon.awssdk.services.dynamodb.model.DynamoDbException;
import software.amazon.awssdk.services.dynamodb.model.KeysAndAttributes;
import software.amazon.awssdk.services.dynamodb.model.ReturnValue;
import software.amazon.awssdk.services.dynamodb.model.ReturnValuesOnConditionCheckFailure;
import software.amazon.awssdk.services.eventbridge.EventBridgeClient;
import software.amazon.awssdk.services.eventbridge.model.Target;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.Message;
import software.amazon.awssdk.services.sqs.model.MessageSystemAttributeName;
import software.amazon.awssdk.services.sqs.model.QueueAttributeName;

/**
 * What {@code moto_atomic_server.py} does in place of moto's slow paths (its own serialisation of
 * DynamoDB attribute values, condition expressions parsed once, SQS's clock and retention check,
 * EventBridge's parsed input paths) answers as moto and AWS do.
 */
class MotoShortcutsTest {
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

  /** One attribute of every kind DynamoDB has, nested ones included, and empty containers. */
  private static Map<String, AttributeValue> everyKind(String id) {
    Map<String, AttributeValue> item = new HashMap<>();
    item.put("id", AttributeValue.fromS(id));
    item.put("text", AttributeValue.fromS("ü ☃ \"quoted\" \\ and\nnewline"));
    item.put("empty", AttributeValue.fromS(""));
    item.put("number", AttributeValue.fromN("12.50"));
    item.put("binary", AttributeValue.fromB(SdkBytes.fromByteArray(new byte[] {0, -1, 'b', 10})));
    item.put("strings", AttributeValue.fromSs(List.of("a", "b")));
    item.put("numbers", AttributeValue.fromNs(List.of("1", "2.5")));
    item.put(
        "binaries",
        AttributeValue.fromBs(
            List.of(SdkBytes.fromByteArray(new byte[] {1}), SdkBytes.fromUtf8String("x"))));
    item.put("nothing", AttributeValue.fromNul(true));
    item.put("yes", AttributeValue.fromBool(true));
    item.put("no", AttributeValue.fromBool(false));
    item.put(
        "nested",
        AttributeValue.fromM(
            Map.of(
                "list",
                AttributeValue.fromL(
                    List.of(
                        AttributeValue.fromS("in a list"),
                        AttributeValue.fromM(Map.of()),
                        AttributeValue.fromL(List.of()),
                        AttributeValue.fromB(SdkBytes.fromByteArray(new byte[0])),
                        AttributeValue.fromM(Map.of("deeper", AttributeValue.fromN("-3"))))))));
    return item;
  }

  @Test
  void everyKindOfAttributeValueComesBackAsWrittenFromEveryRead() {
    try (DynamoDbClient dynamo = AwsClients.dynamoDb(endpoint)) {
      MotoTables.createKeyedById(dynamo, "kinds");
      Map<String, AttributeValue> item = everyKind("one");
      dynamo.putItem(b -> b.tableName("kinds").item(item));
      Map<String, AttributeValue> key = Map.of("id", AttributeValue.fromS("one"));

      assertThat(dynamo.getItem(b -> b.tableName("kinds").key(key).consistentRead(true)).item())
          .isEqualTo(item);
      assertThat(
              dynamo
                  .query(
                      b ->
                          b.tableName("kinds")
                              .keyConditionExpression("id = :id")
                              .expressionAttributeValues(
                                  Map.of(":id", AttributeValue.fromS("one"))))
                  .items())
          .containsExactly(item);
      assertThat(dynamo.scan(b -> b.tableName("kinds")).items()).containsExactly(item);
      assertThat(
              dynamo
                  .batchGetItem(
                      b ->
                          b.requestItems(
                              Map.of("kinds", KeysAndAttributes.builder().keys(key).build())))
                  .responses()
                  .get("kinds"))
          .containsExactly(item);

      ConditionalCheckFailedException refused =
          catchThrowableOfType(
              ConditionalCheckFailedException.class,
              () ->
                  dynamo.putItem(
                      b ->
                          b.tableName("kinds")
                              .item(key)
                              .conditionExpression("attribute_not_exists(id)")
                              .returnValuesOnConditionCheckFailure(
                                  ReturnValuesOnConditionCheckFailure.ALL_OLD)));
      assertThat(refused.item()).isEqualTo(item);

      AttributeValue added =
          AttributeValue.fromL(
              List.of(
                  AttributeValue.fromB(SdkBytes.fromUtf8String("q")), AttributeValue.fromN("3")));
      Map<String, AttributeValue> updated = new HashMap<>(item);
      updated.put("added", added);
      assertThat(
              dynamo
                  .updateItem(
                      b ->
                          b.tableName("kinds")
                              .key(key)
                              .updateExpression("SET added = :added")
                              .expressionAttributeValues(Map.of(":added", added))
                              .returnValues(ReturnValue.ALL_NEW))
                  .attributes())
          .isEqualTo(updated);
      assertThat(
              dynamo
                  .deleteItem(b -> b.tableName("kinds").key(key).returnValues(ReturnValue.ALL_OLD))
                  .attributes())
          .isEqualTo(updated);
    }
  }

  @Test
  void aConditionExpressionUsedAgainIsEvaluatedWithEachRequestsValuesAndNames() {
    try (DynamoDbClient dynamo = AwsClients.dynamoDb(endpoint)) {
      MotoTables.createKeyedById(dynamo, "conditions");
      dynamo.putItem(
          b ->
              b.tableName("conditions")
                  .item(
                      Map.of(
                          "id", AttributeValue.fromS("one"),
                          "count", AttributeValue.fromN("3"),
                          "other", AttributeValue.fromN("10"),
                          "status", AttributeValue.fromS("PENDING"))));
      String condition = "#n < :limit AND #s IN (:a, :b)";

      assertThat(conditionHolds(dynamo, condition, "count", "5", "RUNNING")).isTrue();
      assertThat(conditionHolds(dynamo, condition, "count", "2", "RUNNING"))
          .as("the same expression with a lower limit")
          .isFalse();
      assertThat(conditionHolds(dynamo, condition, "count", "5", "FAILED"))
          .as("the same expression with another status list")
          .isFalse();
      assertThat(conditionHolds(dynamo, condition, "other", "5", "RUNNING"))
          .as("the same expression naming another attribute")
          .isFalse();
      assertThat(conditionHolds(dynamo, condition, "other", "11", "RUNNING")).isTrue();

      for (int i = 0; i < 2; i++) {
        // moto answers 500 where DynamoDB answers a ValidationException; what matters here is that
        // no value of an earlier use of the expression stands in for the missing one.
        assertThat(
                catchThrowableOfType(
                    DynamoDbException.class,
                    () ->
                        dynamo.updateItem(
                            b ->
                                b.tableName("conditions")
                                    .key(Map.of("id", AttributeValue.fromS("one")))
                                    .updateExpression("SET touched = :limit")
                                    .conditionExpression(condition)
                                    .expressionAttributeNames(Map.of("#n", "count", "#s", "status"))
                                    .expressionAttributeValues(
                                        Map.of(
                                            ":limit", AttributeValue.fromN("5"),
                                            ":a", AttributeValue.fromS("PENDING"))))))
            .as("a value the expression names is missing, every time")
            .isNotNull();
        assertThat(
                catchThrowableOfType(
                        DynamoDbException.class,
                        () ->
                            dynamo.putItem(
                                b ->
                                    b.tableName("conditions")
                                        .item(Map.of("id", AttributeValue.fromS("two")))
                                        .conditionExpression("count <")))
                    .statusCode())
            .as("an expression that does not parse, every time")
            .isEqualTo(400);
      }
    }
  }

  /** Whether an update of item "one" under {@code condition} applied. */
  private static boolean conditionHolds(
      DynamoDbClient dynamo, String condition, String counted, String limit, String second) {
    try {
      dynamo.updateItem(
          b ->
              b.tableName("conditions")
                  .key(Map.of("id", AttributeValue.fromS("one")))
                  .updateExpression("SET touched = :limit")
                  .conditionExpression(condition)
                  .expressionAttributeNames(Map.of("#n", counted, "#s", "status"))
                  .expressionAttributeValues(
                      Map.of(
                          ":limit", AttributeValue.fromN(limit),
                          ":a", AttributeValue.fromS(second),
                          ":b",
                              AttributeValue.fromS(
                                  second.equals("FAILED") ? "FAILED" : "PENDING"))));
      return true;
    } catch (ConditionalCheckFailedException e) {
      return false;
    }
  }

  @Test
  void aLongQueueStillHidesReceivedMessagesDelaysAndRedeliversOnTime() throws Exception {
    try (SqsClient sqs = AwsClients.sqs(endpoint)) {
      long startedMillis = System.currentTimeMillis();
      String url = sqs.createQueue(b -> b.queueName("long-queue")).queueUrl();
      int messages = 300;
      for (int i = 0; i < messages; i++) {
        String body = "message " + i;
        sqs.sendMessage(b -> b.queueUrl(url).messageBody(body));
      }
      sqs.sendMessage(b -> b.queueUrl(url).messageBody("delayed").delaySeconds(2));
      Map<QueueAttributeName, String> counts =
          sqs.getQueueAttributes(
                  b ->
                      b.queueUrl(url)
                          .attributeNames(
                              QueueAttributeName.APPROXIMATE_NUMBER_OF_MESSAGES,
                              QueueAttributeName.APPROXIMATE_NUMBER_OF_MESSAGES_DELAYED))
              .attributes();
      assertThat(counts)
          .containsEntry(QueueAttributeName.APPROXIMATE_NUMBER_OF_MESSAGES, "" + messages)
          .containsEntry(QueueAttributeName.APPROXIMATE_NUMBER_OF_MESSAGES_DELAYED, "1");

      List<String> received = new ArrayList<>();
      List<Message> first = List.of();
      for (int call = 0; call < messages / 10 + 5 && received.size() < messages; call++) {
        List<Message> batch =
            sqs.receiveMessage(
                    b ->
                        b.queueUrl(url)
                            .maxNumberOfMessages(10)
                            .visibilityTimeout(30)
                            .messageSystemAttributeNames(MessageSystemAttributeName.SENT_TIMESTAMP))
                .messages();
        if (first.isEmpty()) {
          first = batch;
        }
        batch.forEach(message -> received.add(message.body()));
      }
      assertThat(received)
          .as("every message once, none of them redelivered while hidden, the delayed one not yet")
          .hasSize(messages)
          .doesNotHaveDuplicates()
          .doesNotContain("delayed");

      Message handedBack = first.get(0);
      long sentMillis =
          Long.parseLong(handedBack.attributes().get(MessageSystemAttributeName.SENT_TIMESTAMP));
      assertThat(sentMillis)
          .as("SentTimestamp, epoch milliseconds")
          .isBetween(startedMillis, System.currentTimeMillis());

      sqs.changeMessageVisibility(
          b -> b.queueUrl(url).receiptHandle(handedBack.receiptHandle()).visibilityTimeout(0));
      List<String> later = new ArrayList<>();
      long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
      while (later.size() < 2 && System.nanoTime() < deadline) {
        sqs.receiveMessage(b -> b.queueUrl(url).maxNumberOfMessages(10).waitTimeSeconds(1))
            .messages()
            .forEach(message -> later.add(message.body()));
      }
      assertThat(later)
          .as("the message handed back and, after its delay, the delayed one")
          .containsExactlyInAnyOrder(handedBack.body(), "delayed");
    }
  }

  @Test
  void eachEventReachesEveryTargetOfItsRuleAsItselfTransformedOrNot() throws Exception {
    try (EventBridgeClient events = AwsClients.eventBridge(endpoint);
        SqsClient sqs = AwsClients.sqs(endpoint)) {
      String whole = sqs.createQueue(b -> b.queueName("whole-events")).queueUrl();
      String sentences = sqs.createQueue(b -> b.queueName("event-sentences")).queueUrl();
      events.putRule(
          b ->
              b.name("ended")
                  .eventPattern("{\"source\":[\"derive\"],\"detail-type\":[\"Job Ended\"]}"));
      events.putTargets(
          b ->
              b.rule("ended")
                  .targets(
                      Target.builder().id("whole").arn(queueArn(sqs, whole)).build(),
                      Target.builder()
                          .id("sentence")
                          .arn(queueArn(sqs, sentences))
                          .inputTransformer(
                              t ->
                                  t.inputPathsMap(Map.of("job", "$.detail.jobId"))
                                      .inputTemplate("\"job <job> ended\""))
                          .build()));
      List<String> jobs = List.of("first", "second", "third");
      for (String job : jobs) {
        events.putEvents(
            b ->
                b.entries(
                    e ->
                        e.source("derive")
                            .detailType("Job Ended")
                            .detail("{\"jobId\":\"" + job + "\"}")));
      }
      events.putEvents(b -> b.entries(e -> e.source("other").detailType("Job Ended").detail("{}")));

      assertThat(drain(sqs, whole, jobs.size()))
          .as("each matching event whole, its own detail in it")
          .hasSize(jobs.size())
          .allSatisfy(body -> assertThat(body).contains("\"source\": \"derive\""))
          .anySatisfy(body -> assertThat(body).contains("\"jobId\": \"first\""))
          .anySatisfy(body -> assertThat(body).contains("\"jobId\": \"second\""))
          .anySatisfy(body -> assertThat(body).contains("\"jobId\": \"third\""));
      assertThat(drain(sqs, sentences, jobs.size()))
          .as("each matching event through the input transformer, with its own values")
          .containsExactlyInAnyOrder(
              "\"job first ended\"", "\"job second ended\"", "\"job third ended\"");
    }
  }

  private static String queueArn(SqsClient sqs, String url) {
    return sqs.getQueueAttributes(b -> b.queueUrl(url).attributeNames(QueueAttributeName.QUEUE_ARN))
        .attributes()
        .get(QueueAttributeName.QUEUE_ARN);
  }

  /** The bodies of the messages in {@code url}, waiting up to 10 s for {@code expected}. */
  private static List<String> drain(SqsClient sqs, String url, int expected) {
    List<String> bodies = new ArrayList<>();
    long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
    while (bodies.size() < expected && System.nanoTime() < deadline) {
      sqs.receiveMessage(b -> b.queueUrl(url).maxNumberOfMessages(10).waitTimeSeconds(1))
          .messages()
          .forEach(message -> bodies.add(message.body()));
    }
    // and nothing more: one more short poll finds the queue empty
    sqs.receiveMessage(b -> b.queueUrl(url).maxNumberOfMessages(10))
        .messages()
        .forEach(message -> bodies.add(message.body()));
    return bodies;
  }
}
