package dev.derive.coordinator.aws;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.derive.aws.AwsClients;
import dev.derive.coordinator.claim.JobStoreException;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/**
 * Issue 9 items 3 and 11: an AWS endpoint that accepts connections and never answers (a hung
 * endpoint, the worst case) makes a coordinator call fail within its call timeout, well under the
 * API function's 29 s, instead of hanging until Lambda kills the function between a claim and its
 * dispatch.
 */
class CoordinatorTimeoutsTest {
  private ServerSocket silent;
  private final List<Socket> accepted = new ArrayList<>();
  private final Map<String, String> saved = new java.util.HashMap<>();

  @BeforeEach
  void startASilentEndpoint() throws IOException {
    silent = new ServerSocket(0, 50, java.net.InetAddress.getLoopbackAddress());
    Thread.ofVirtual()
        .start(
            () -> {
              try {
                while (true) {
                  accepted.add(silent.accept()); // read nothing, answer nothing
                }
              } catch (IOException closed) {
                // the test is over
              }
            });
    set("aws.endpointUrl", "http://127.0.0.1:" + silent.getLocalPort());
    set("aws.region", "us-east-1");
    set("aws.accessKeyId", "test");
    set("aws.secretAccessKey", "test");
  }

  private void set(String name, String value) {
    saved.put(name, System.getProperty(name));
    System.setProperty(name, value);
  }

  @AfterEach
  void stop() throws IOException {
    silent.close();
    for (Socket socket : accepted) {
      socket.close();
    }
    saved.forEach(
        (name, value) -> {
          if (value == null) {
            System.clearProperty(name);
          } else {
            System.setProperty(name, value);
          }
        });
  }

  @Test
  void aJobsTableThatNeverAnswersFailsTheCallWithinItsTimeout() {
    try (var dynamoDb =
        AwsClients.configure(DynamoDbClient.builder(), AwsClients.COORDINATOR).build()) {
      DynamoDbJobStore store = new DynamoDbJobStore(dynamoDb, "jobs");
      long started = System.nanoTime();

      assertThatThrownBy(() -> store.find("0".repeat(64))).isInstanceOf(JobStoreException.class);

      Duration took = Duration.ofNanos(System.nanoTime() - started);
      assertThat(took)
          .isGreaterThanOrEqualTo(AwsClients.COORDINATOR.apiCallAttempt().minusMillis(100))
          .isLessThan(AwsClients.COORDINATOR.apiCall().plusSeconds(3));
    }
  }

  @Test
  void theCallTimeoutIsFarUnderTheApiFunctionsTimeout() {
    // API Gateway's integration limit and the function's Timeout: 29 s (template.yaml)
    assertThat(AwsClients.COORDINATOR.apiCall().multipliedBy(4)).isLessThan(Duration.ofSeconds(29));
  }
}
