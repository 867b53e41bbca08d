package dev.derive.infra.local.sqs;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import software.amazon.awssdk.services.sqs.model.Message;
import software.amazon.awssdk.services.sqs.model.MessageAttributeValue;
import software.amazon.awssdk.services.sqs.model.MessageSystemAttributeName;

/**
 * Builds the event Lambda's SQS event source mapping sends: {@code Records[]} with {@code
 * messageId}, {@code receiptHandle}, {@code body}, {@code attributes} (the system attributes such
 * as {@code ApproximateReceiveCount}, {@code SentTimestamp}, {@code SenderId}, {@code
 * ApproximateFirstReceiveTimestamp}), {@code messageAttributes} (camel-case {@code stringValue},
 * {@code binaryValue} in base64, {@code stringListValues}, {@code binaryListValues}, {@code
 * dataType}), {@code md5OfBody}, {@code md5OfMessageAttributes}, {@code eventSource} {@code
 * aws:sqs}, {@code eventSourceARN} and {@code awsRegion}. See
 * https://docs.aws.amazon.com/lambda/latest/dg/with-sqs.html.
 */
public final class SqsEventMapper {
  private static final ObjectMapper JSON = new ObjectMapper();

  private SqsEventMapper() {}

  /** The event for {@code messages} received from the queue {@code queueArn}. */
  public static ObjectNode event(List<Message> messages, String queueArn, String region) {
    ObjectNode event = JSON.createObjectNode();
    ArrayNode records = event.putArray("Records");
    for (Message message : messages) {
      ObjectNode record = records.addObject();
      record.put("messageId", message.messageId());
      record.put("receiptHandle", message.receiptHandle());
      record.put("body", message.body());
      ObjectNode attributes = record.putObject("attributes");
      for (Map.Entry<MessageSystemAttributeName, String> attribute :
          message.attributes().entrySet()) {
        attributes.put(attribute.getKey().toString(), attribute.getValue());
      }
      ObjectNode messageAttributes = record.putObject("messageAttributes");
      message
          .messageAttributes()
          .forEach((name, value) -> messageAttributes.set(name, attribute(value)));
      record.put("md5OfBody", message.md5OfBody());
      if (message.md5OfMessageAttributes() != null) {
        record.put("md5OfMessageAttributes", message.md5OfMessageAttributes());
      }
      record.put("eventSource", "aws:sqs");
      record.put("eventSourceARN", queueArn);
      record.put("awsRegion", region);
    }
    return event;
  }

  private static ObjectNode attribute(MessageAttributeValue value) {
    ObjectNode node = JSON.createObjectNode();
    if (value.stringValue() != null) {
      node.put("stringValue", value.stringValue());
    }
    if (value.binaryValue() != null) {
      node.put(
          "binaryValue", Base64.getEncoder().encodeToString(value.binaryValue().asByteArray()));
    }
    ArrayNode strings = node.putArray("stringListValues");
    value.stringListValues().forEach(strings::add);
    ArrayNode binaries = node.putArray("binaryListValues");
    value
        .binaryListValues()
        .forEach(b -> binaries.add(Base64.getEncoder().encodeToString(b.asByteArray())));
    node.put("dataType", value.dataType());
    return node;
  }
}
