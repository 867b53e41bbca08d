package dev.derive.coordinator.api;

import dev.derive.infra.endpoint.ExternalEndpoint;
import java.net.URI;
import java.util.HashMap;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * What the API's Quarkus tests share about the moto their {@link LocalCloudResource} started: its
 * endpoint, a JPEG source's first bytes, and writes that play the workers and the progress function
 * on a job's record.
 */
final class ApiTestData {
  /** The start of a JFIF JPEG: enough for the coordinator to read a source as image/jpeg. */
  static final byte[] JPEG_HEAD = {
    (byte) 0xFF, (byte) 0xD8, (byte) 0xFF, (byte) 0xE0, 0, 16, 'J', 'F', 'I', 'F', 0, 1, 1, 0, 0, 1
  };

  private ApiTestData() {}

  /** The test cloud's endpoint, as the SDK's system property {@code aws.endpointUrl} names it. */
  static ExternalEndpoint endpoint() {
    return new ExternalEndpoint(URI.create(System.getProperty("aws.endpointUrl")));
  }

  /**
   * Sets job {@code id}'s {@code status} and each of {@code extra} (":name" to its value) in the
   * jobs table, as the progress function's writes would.
   */
  static void markJob(
      DynamoDbClient dynamoDb, String id, String status, Map<String, AttributeValue> extra) {
    Map<String, AttributeValue> values = new HashMap<>(extra);
    values.put(":s", AttributeValue.fromS(status));
    StringBuilder update = new StringBuilder("SET #s = :s");
    Map<String, String> names = new HashMap<>(Map.of("#s", "status"));
    for (String name : extra.keySet()) {
      String attribute = name.substring(1);
      names.put("#" + attribute, attribute);
      update.append(", #").append(attribute).append(" = ").append(name);
    }
    dynamoDb.updateItem(
        b ->
            b.tableName(LocalCloudResource.JOBS_TABLE)
                .key(Map.of("jobId", AttributeValue.fromS(id)))
                .updateExpression(update.toString())
                .expressionAttributeNames(names)
                .expressionAttributeValues(values));
  }

  /** A job's permanent {@code error} of its first step, as the record stores it. */
  static AttributeValue error(String type, String detail) {
    return error(type, detail, false);
  }

  /** A job's {@code error} of its first step, as the record stores it. */
  static AttributeValue error(String type, String detail, boolean retryable) {
    return AttributeValue.fromM(
        Map.of(
            "type", AttributeValue.fromS(type),
            "detail", AttributeValue.fromS(detail),
            "step", AttributeValue.fromN("0"),
            "retryable", AttributeValue.fromBool(retryable)));
  }
}
