package dev.derive.infra.local.resources;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.derive.infra.endpoint.AwsClients;
import dev.derive.infra.endpoint.MotoServerEndpoint;
import dev.derive.infra.local.template.StackReferences;
import dev.derive.infra.local.template.Template;
import dev.derive.infra.local.template.TemplateReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.eventbridge.EventBridgeClient;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.Message;

/**
 * EventBridge resources of a template on a real moto server: a bucket's EventBridge notification, a
 * rule with a key-prefix pattern and an SQS target, a custom bus whose rule gets {@code PutEvents},
 * and a disabled rule.
 */
class EventBridgeProvisioningTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String TEMPLATE =
      """
      AWSTemplateFormatVersion: "2010-09-09"
      Resources:
        Uploads:
          Type: AWS::S3::Bucket
          Properties:
            BucketName: eb-uploads
            NotificationConfiguration:
              EventBridgeConfiguration:
                EventBridgeEnabled: true
        UploadEvents:
          Type: AWS::SQS::Queue
          Properties:
            QueueName: eb-upload-events
        UploadRule:
          Type: AWS::Events::Rule
          Properties:
            EventPattern:
              source: [aws.s3]
              detail-type: [Object Created]
              detail:
                bucket:
                  name: [!Ref Uploads]
                object:
                  key: [{prefix: uploads/}]
            Targets:
              - Id: queue
                Arn: !GetAtt UploadEvents.Arn
              - Id: function
                Arn: arn:aws:lambda:us-east-1:123456789012:function:elsewhere
        CompletionBus:
          Type: AWS::Events::EventBus
          Properties:
            Name: eb-completions
        CompletionEvents:
          Type: AWS::SQS::Queue
          Properties:
            QueueName: eb-completion-events
        CompletionRule:
          Type: AWS::Events::Rule
          Properties:
            EventBusName: !Ref CompletionBus
            EventPattern:
              source: [derive]
            Targets:
              - Id: queue
                Arn: !GetAtt CompletionEvents.Arn
        DisabledEvents:
          Type: AWS::SQS::Queue
          Properties:
            QueueName: eb-disabled-events
        DisabledRule:
          Type: AWS::Events::Rule
          Properties:
            State: DISABLED
            EventBusName: !GetAtt CompletionBus.Arn
            EventPattern:
              source: [derive]
            Targets:
              - Id: queue
                Arn: !GetAtt DisabledEvents.Arn
      """;

  private static MotoServerEndpoint endpoint;
  private static S3Client s3;
  private static SqsClient sqs;
  private static EventBridgeClient events;
  private static Map<String, ProvisionedResource> created;
  private static final List<String> lines = new ArrayList<>();

  @BeforeAll
  static void provision() throws Exception {
    endpoint = MotoServerEndpoint.start(Path.of("target/moto-eventbridge.log"));
    s3 = AwsClients.s3(endpoint);
    sqs = AwsClients.sqs(endpoint);
    events = AwsClients.eventBridge(endpoint);
    Path file = Files.createTempFile("eventbridge-template", ".yaml");
    Files.writeString(file, TEMPLATE);
    Template template = TemplateReader.read(file);
    created =
        new StackProvisioner(
                List.of(
                    new BucketProvisioner(s3, "eb"),
                    new QueueProvisioner(sqs, "eb"),
                    new EventBusProvisioner(events, "eb"),
                    new RuleProvisioner(events, "eb", lines::add)),
                "eb",
                "us-east-1",
                lines::add)
            .provision(template, new StackReferences(template, "eb", "us-east-1", Map.of()));
  }

  @AfterAll
  static void stop() {
    s3.close();
    sqs.close();
    events.close();
    endpoint.close();
  }

  @Test
  void anObjectCreatedUnderTheRulesPrefixReachesItsQueueAsAnS3EventBridgeEvent() throws Exception {
    s3.putObject(b -> b.bucket("eb-uploads").key("uploads/u1/a.jpg"), RequestBody.fromString("a"));

    List<Message> messages = receive("eb-upload-events");

    assertThat(messages).hasSize(1);
    JsonNode event = JSON.readTree(messages.get(0).body());
    assertThat(event.path("source").asText()).isEqualTo("aws.s3");
    assertThat(event.path("detail-type").asText()).isEqualTo("Object Created");
    assertThat(event.path("detail").path("bucket").path("name").asText()).isEqualTo("eb-uploads");
    assertThat(event.path("detail").path("object").path("key").asText())
        .isEqualTo("uploads/u1/a.jpg");
  }

  @Test
  void anObjectOutsideThePrefixIsNotDelivered() {
    s3.putObject(b -> b.bucket("eb-uploads").key("elsewhere/b.jpg"), RequestBody.fromString("b"));

    assertThat(receive("eb-upload-events")).isEmpty();
  }

  @Test
  void anEventPutOnACustomBusReachesTheQueueOfTheMatchingRuleOnly() throws Exception {
    var put =
        events.putEvents(
            b ->
                b.entries(
                    e ->
                        e.eventBusName("eb-completions")
                            .source("derive")
                            .detailType("Derivative Succeeded")
                            .detail("{\"fingerprint\":\"f\"}")));

    assertThat(put.failedEntryCount()).isZero();
    List<Message> messages = receive("eb-completion-events");
    assertThat(messages).hasSize(1);
    assertThat(JSON.readTree(messages.get(0).body()).path("detail").path("fingerprint").asText())
        .isEqualTo("f");
    assertThat(receive("eb-disabled-events")).isEmpty();
  }

  @Test
  void refsFollowCloudFormationAndUndeliverableTargetsAreSaidSo() {
    assertThat(created.get("CompletionBus").reference()).isEqualTo("eb-completions");
    assertThat(created.get("CompletionBus").attributes().get("Arn"))
        .isEqualTo("arn:aws:events:us-east-1:123456789012:event-bus/eb-completions");
    assertThat(created.get("UploadRule").reference()).isEqualTo("eb-UploadRule");
    assertThat(created.get("CompletionRule").reference())
        .isEqualTo("eb-completions|eb-CompletionRule");
    assertThat(created.get("CompletionRule").attributes().get("Arn"))
        .endsWith(":rule/eb-completions/eb-CompletionRule");
    assertThat(lines)
        .anySatisfy(l -> assertThat(l).contains("UploadRule", "function", "not delivered locally"))
        .anySatisfy(l -> assertThat(l).contains("DisabledRule", "DISABLED"));
  }

  private static List<Message> receive(String queueName) {
    String url = sqs.getQueueUrl(b -> b.queueName(queueName)).queueUrl();
    return sqs.receiveMessage(b -> b.queueUrl(url).maxNumberOfMessages(10).waitTimeSeconds(1))
        .messages();
  }
}
