package dev.derive.coordinator.progress;

import static org.assertj.core.api.Assertions.assertThat;

import com.amazonaws.services.lambda.runtime.events.SQSBatchResponse;
import com.amazonaws.services.lambda.runtime.events.SQSEvent;
import com.sun.net.httpserver.HttpServer;
import dev.derive.coordinator.completion.CallbackDelivery;
import dev.derive.coordinator.completion.CallbackRetries;
import dev.derive.coordinator.completion.CallbackSender;
import dev.derive.coordinator.url.SigningKeySource;
import dev.derive.coordinator.url.UrlSigningKeys;
import dev.derive.coordinator.validate.CallbackUrlPolicy;
import dev.derive.infra.endpoint.AwsClients;
import dev.derive.infra.endpoint.MotoServerEndpoint;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.Message;
import software.amazon.awssdk.services.sqs.model.MessageSystemAttributeName;
import software.amazon.awssdk.services.sqs.model.QueueAttributeName;

/**
 * One tenant's callback cannot poison another's (issue 26 item 4): a batch of real callback queue
 * messages received from moto, some to a receiver on loopback and some to URLs the HTTP client
 * cannot send to, is answered with exactly the poison messages as batch item failures, each paused
 * for its retry, while every good delivery is made once and acknowledged.
 */
class CallbackBatchTest {
  private static MotoServerEndpoint endpoint;
  private static SqsClient sqs;

  private final List<String> delivered = new CopyOnWriteArrayList<>();
  private final HttpServer receiver;
  private String queueUrl;

  @BeforeAll
  static void startMoto() {
    endpoint = MotoServerEndpoint.start(Path.of("target", "moto", "callback-batch.log"));
    sqs = AwsClients.sqs(endpoint);
  }

  @AfterAll
  static void stopMoto() {
    sqs.close();
    endpoint.close();
  }

  CallbackBatchTest() throws IOException {
    receiver = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    receiver.createContext(
        "/",
        exchange -> {
          delivered.add(exchange.getRequestHeaders().getFirst("Derive-Delivery-Id"));
          exchange.sendResponseHeaders(204, -1);
          exchange.close();
        });
    receiver.start();
  }

  @AfterEach
  void stopReceiver() {
    receiver.stop(0);
  }

  private CallbackBatch batch(Duration retryBase) {
    CallbackSender sender =
        new CallbackSender(
            SigningKeySource.fixed(UrlSigningKeys.parse("ab".repeat(32))),
            CallbackUrlPolicy.allowingLoopback(),
            InetAddress::getAllByName,
            Clock.systemUTC());
    return new CallbackBatch(sender, new CallbackRetries(retryBase), sqs, Optional.of(queueUrl), 8);
  }

  /** Queues {@code deliveries} and receives them as one event, as the event source mapping does. */
  private SQSEvent received(List<CallbackDelivery> deliveries) {
    queueUrl =
        sqs.createQueue(
                b ->
                    b.queueName("callbacks-" + System.nanoTime())
                        .attributes(Map.of(QueueAttributeName.VISIBILITY_TIMEOUT, "90")))
            .queueUrl();
    for (CallbackDelivery delivery : deliveries) {
      sqs.sendMessage(b -> b.queueUrl(queueUrl).messageBody(delivery.encode()));
    }
    List<SQSEvent.SQSMessage> records = new ArrayList<>();
    while (records.size() < deliveries.size()) {
      for (Message m : receive()) {
        SQSEvent.SQSMessage record = new SQSEvent.SQSMessage();
        record.setMessageId(m.messageId());
        record.setReceiptHandle(m.receiptHandle());
        record.setBody(m.body());
        record.setAttributes(
            Map.of(
                "ApproximateReceiveCount",
                m.attributes().get(MessageSystemAttributeName.APPROXIMATE_RECEIVE_COUNT)));
        records.add(record);
      }
    }
    SQSEvent event = new SQSEvent();
    event.setRecords(records);
    return event;
  }

  private List<Message> receive() {
    return sqs.receiveMessage(
            b ->
                b.queueUrl(queueUrl)
                    .maxNumberOfMessages(10)
                    .waitTimeSeconds(1)
                    .messageSystemAttributeNames(MessageSystemAttributeName.ALL))
        .messages();
  }

  private static CallbackDelivery delivery(String id, String url) {
    return new CallbackDelivery(
        id, url, "{\"id\":\"" + id + "\",\"type\":\"Derivative Succeeded\"}");
  }

  private String hook() {
    return "http://127.0.0.1:" + receiver.getAddress().getPort() + "/hook";
  }

  @Test
  void poisonDeliveriesAreBatchItemFailuresAndTheRestAreDeliveredOnce() throws Exception {
    List<CallbackDelivery> deliveries = new ArrayList<>();
    for (int i = 0; i < 4; i++) {
      deliveries.add(delivery("good-" + i, hook()));
    }
    deliveries.add(delivery("port-99999", "http://127.0.0.1:99999/hook"));
    for (int i = 4; i < 8; i++) {
      deliveries.add(delivery("good-" + i, hook()));
    }
    deliveries.add(delivery("port-0", "http://127.0.0.1:0/hook"));
    SQSEvent event = received(deliveries);

    SQSBatchResponse response = batch(Duration.ofSeconds(1)).process(event);

    List<String> poisonIds =
        event.getRecords().stream()
            .filter(r -> r.getBody().contains("port-"))
            .map(SQSEvent.SQSMessage::getMessageId)
            .toList();
    assertThat(response.getBatchItemFailures())
        .extracting(SQSBatchResponse.BatchItemFailure::getItemIdentifier)
        .containsExactlyInAnyOrderElementsOf(poisonIds);
    assertThat(delivered)
        .containsExactlyInAnyOrder(
            "good-0", "good-1", "good-2", "good-3", "good-4", "good-5", "good-6", "good-7");

    // the poison messages were paused for their first retry (1 s here), the others keep the
    // queue's 90 s visibility timeout until the event source mapping deletes them
    Thread.sleep(1500);
    List<String> again = new ArrayList<>();
    for (int tries = 0; tries < 3 && again.size() < 2; tries++) {
      receive().forEach(m -> again.add(CallbackDelivery.decode(m.body()).id()));
    }
    assertThat(again).containsExactlyInAnyOrder("port-99999", "port-0");
  }
}
