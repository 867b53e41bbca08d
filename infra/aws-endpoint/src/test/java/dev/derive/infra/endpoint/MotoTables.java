package dev.derive.infra.endpoint;

import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;

/** Tables the endpoint tests write to. */
final class MotoTables {
  private MotoTables() {}

  /** Creates the on-demand table {@code name} keyed by the string attribute {@code id}. */
  static void createKeyedById(DynamoDbClient dynamo, String name) {
    dynamo.createTable(
        b ->
            b.tableName(name)
                .billingMode(BillingMode.PAY_PER_REQUEST)
                .attributeDefinitions(
                    a -> a.attributeName("id").attributeType(ScalarAttributeType.S))
                .keySchema(k -> k.attributeName("id").keyType(KeyType.HASH)));
  }
}
