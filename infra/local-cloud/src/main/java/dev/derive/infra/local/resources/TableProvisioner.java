package dev.derive.infra.local.resources;

import java.util.List;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeDefinition;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.CreateTableRequest;
import software.amazon.awssdk.services.dynamodb.model.GlobalSecondaryIndex;
import software.amazon.awssdk.services.dynamodb.model.KeySchemaElement;
import software.amazon.awssdk.services.dynamodb.model.Projection;
import software.amazon.awssdk.services.dynamodb.model.ProvisionedThroughput;
import software.amazon.awssdk.services.dynamodb.model.ResourceInUseException;
import software.amazon.awssdk.services.dynamodb.model.TimeToLiveDescription;
import software.amazon.awssdk.services.dynamodb.model.TimeToLiveStatus;

/**
 * {@code AWS::DynamoDB::Table}: honours {@code TableName} (default {@code <stack>-<logicalId>}),
 * {@code KeySchema}, {@code AttributeDefinitions}, {@code BillingMode}, {@code
 * ProvisionedThroughput}, {@code GlobalSecondaryIndexes} and {@code TimeToLiveSpecification}
 * (applied with {@code UpdateTimeToLive}, as CloudFormation does). An existing table is kept as it
 * is apart from its TTL. {@code Ref} is the table name; attribute {@code Arn}.
 */
public final class TableProvisioner extends NamedResourceProvisioner {
  private final DynamoDbClient dynamoDb;

  /** Creates tables with {@code dynamoDb}; {@code stackName} prefixes default names. */
  public TableProvisioner(DynamoDbClient dynamoDb, String stackName) {
    super("AWS::DynamoDB::Table", "TableName", "table", stackName);
    this.dynamoDb = dynamoDb;
  }

  @Override
  ProvisionedResource create(String logicalId, String name, Map<String, Object> properties) {
    try {
      dynamoDb.createTable(createRequest(name, logicalId, properties));
    } catch (ResourceInUseException exists) {
      // idempotent
    }
    applyTimeToLive(name, properties.get("TimeToLiveSpecification"));
    String arn = dynamoDb.describeTable(b -> b.tableName(name)).table().tableArn();
    return new ProvisionedResource(logicalId, type(), name, Map.of("Arn", arn));
  }

  private static CreateTableRequest createRequest(
      String name, String logicalId, Map<String, Object> properties) {
    CreateTableRequest.Builder request =
        CreateTableRequest.builder()
            .tableName(name)
            .keySchema(keySchema(properties.get("KeySchema"), logicalId))
            .attributeDefinitions(
                maps(properties.get("AttributeDefinitions"), logicalId).stream()
                    .map(
                        a ->
                            AttributeDefinition.builder()
                                .attributeName(String.valueOf(a.get("AttributeName")))
                                .attributeType(String.valueOf(a.get("AttributeType")))
                                .build())
                    .toList());
    boolean onDemand =
        "PAY_PER_REQUEST".equals(String.valueOf(properties.getOrDefault("BillingMode", "")));
    request.billingMode(onDemand ? BillingMode.PAY_PER_REQUEST : BillingMode.PROVISIONED);
    if (!onDemand) {
      request.provisionedThroughput(throughput(properties.get("ProvisionedThroughput")));
    }
    Object indexes = properties.get("GlobalSecondaryIndexes");
    if (indexes != null) {
      request.globalSecondaryIndexes(
          maps(indexes, logicalId).stream()
              .map(
                  index -> {
                    GlobalSecondaryIndex.Builder gsi =
                        GlobalSecondaryIndex.builder()
                            .indexName(String.valueOf(index.get("IndexName")))
                            .keySchema(keySchema(index.get("KeySchema"), logicalId))
                            .projection(projection(index.get("Projection")));
                    if (!onDemand) {
                      gsi.provisionedThroughput(throughput(index.get("ProvisionedThroughput")));
                    }
                    return gsi.build();
                  })
              .toList());
    }
    return request.build();
  }

  private void applyTimeToLive(String table, Object specification) {
    if (!(specification instanceof Map<?, ?> spec)
        || !"true".equalsIgnoreCase(String.valueOf(spec.get("Enabled")))) {
      return;
    }
    String attribute = String.valueOf(spec.get("AttributeName"));
    TimeToLiveDescription current =
        dynamoDb.describeTimeToLive(b -> b.tableName(table)).timeToLiveDescription();
    if (current != null
        && current.timeToLiveStatus() == TimeToLiveStatus.ENABLED
        && attribute.equals(current.attributeName())) {
      return;
    }
    dynamoDb.updateTimeToLive(
        b ->
            b.tableName(table)
                .timeToLiveSpecification(t -> t.attributeName(attribute).enabled(true)));
  }

  private static List<KeySchemaElement> keySchema(Object value, String logicalId) {
    return maps(value, logicalId).stream()
        .map(
            k ->
                KeySchemaElement.builder()
                    .attributeName(String.valueOf(k.get("AttributeName")))
                    .keyType(String.valueOf(k.get("KeyType")))
                    .build())
        .toList();
  }

  private static Projection projection(Object value) {
    if (!(value instanceof Map<?, ?> map)) {
      return Projection.builder().projectionType("ALL").build();
    }
    Projection.Builder projection =
        Projection.builder().projectionType(String.valueOf(map.get("ProjectionType")));
    if (map.get("NonKeyAttributes") instanceof List<?> attributes) {
      projection.nonKeyAttributes(attributes.stream().map(String::valueOf).toList());
    }
    return projection.build();
  }

  private static ProvisionedThroughput throughput(Object value) {
    Map<String, Object> map = asStringMap(value);
    return ProvisionedThroughput.builder()
        .readCapacityUnits(Long.parseLong(String.valueOf(map.getOrDefault("ReadCapacityUnits", 5))))
        .writeCapacityUnits(
            Long.parseLong(String.valueOf(map.getOrDefault("WriteCapacityUnits", 5))))
        .build();
  }

  private static List<Map<?, ?>> maps(Object value, String logicalId) {
    if (!(value instanceof List<?> list)) {
      throw new ResourceProvisioningException(
          logicalId + ": expected a list of mappings, got " + value);
    }
    return list.stream().<Map<?, ?>>map(v -> asStringMap(v)).toList();
  }

  private static Map<String, Object> asStringMap(Object value) {
    Map<String, Object> map = new java.util.LinkedHashMap<>();
    if (value instanceof Map<?, ?> source) {
      source.forEach((k, v) -> map.put(String.valueOf(k), v));
    }
    return map;
  }
}
