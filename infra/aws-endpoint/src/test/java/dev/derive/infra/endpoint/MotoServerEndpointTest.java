package dev.derive.infra.endpoint;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.s3.S3Client;

class MotoServerEndpointTest {

  @Test
  void startsOnALoopbackPortAndServesS3UntilClosed(@TempDir Path dir) throws Exception {
    MotoServerEndpoint endpoint = MotoServerEndpoint.start(dir.resolve("moto.log"));
    try (S3Client s3 = AwsClients.s3(endpoint)) {
      assertThat(endpoint.uri().getHost()).isEqualTo("127.0.0.1");
      s3.createBucket(b -> b.bucket("probe"));
      s3.putObject(b -> b.bucket("probe").key("k"), RequestBody.fromString("hello"));
      assertThat(s3.getObjectAsBytes(b -> b.bucket("probe").key("k")).asUtf8String())
          .isEqualTo("hello");
    } finally {
      endpoint.close();
    }
    assertThat(endpoint.environment()).containsEntry("AWS_ENDPOINT_URL", endpoint.uri().toString());
  }

  @Test
  void tracesEveryRequestWithItsOperationAndTimes(@TempDir Path dir) throws Exception {
    Path trace = dir.resolve("trace.log");
    long before = System.currentTimeMillis();
    MotoServerEndpoint endpoint = MotoServerEndpoint.start(dir.resolve("moto.log"), trace);
    try (S3Client s3 = AwsClients.s3(endpoint);
        DynamoDbClient dynamo = AwsClients.dynamoDb(endpoint)) {
      s3.createBucket(b -> b.bucket("traced"));
      s3.putObject(b -> b.bucket("traced").key("k"), RequestBody.fromString("hello"));
      s3.headObject(b -> b.bucket("traced").key("k"));
      dynamo.listTables();
    } finally {
      endpoint.close();
    }
    List<String> lines = Files.readAllLines(trace);
    assertThat(lines)
        .anySatisfy(line -> assertThat(line).endsWith(" HEAD  /traced/k"))
        .anySatisfy(line -> assertThat(line).contains(" POST DynamoDB_20120810.ListTables /"));
    for (String line : lines) {
      String[] fields = line.split(" ");
      double arrived = Double.parseDouble(fields[0]);
      double ended = Double.parseDouble(fields[1]);
      assertThat(arrived).isGreaterThanOrEqualTo(before - 1000.0);
      assertThat(ended).isGreaterThanOrEqualTo(arrived);
    }
  }
}
