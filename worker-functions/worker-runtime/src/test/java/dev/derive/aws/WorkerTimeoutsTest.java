package dev.derive.aws;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.client.config.ClientOverrideConfiguration;
import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.sqs.SqsClient;

/**
 * The workers' SDK client timeouts ({@link AwsClients#WORKER_S3}, {@link AwsClients#WORKER_SQS}): a
 * hung endpoint fails fast, a long download is not cut.
 */
class WorkerTimeoutsTest {
  private static final StaticCredentialsProvider CREDENTIALS =
      StaticCredentialsProvider.create(AwsBasicCredentials.create("test", "test"));

  private final List<AutoCloseable> closeables = new ArrayList<>();

  @AfterEach
  void close() throws Exception {
    for (AutoCloseable c : closeables) {
      c.close();
    }
  }

  @Test
  void sqsCallsAreShortAndS3CallsGenerousButBelowTheShortestWorkerTimeout() {
    ClientOverrideConfiguration sqs = AwsClients.bounds(AwsClients.WORKER_SQS);
    ClientOverrideConfiguration s3 = AwsClients.bounds(AwsClients.WORKER_S3);

    assertThat(sqs.apiCallAttemptTimeout()).contains(Duration.ofSeconds(3));
    assertThat(sqs.apiCallTimeout()).contains(Duration.ofSeconds(10));
    assertThat(s3.apiCallAttemptTimeout()).contains(AwsClients.WORKER_S3.apiCallAttempt());
    assertThat(s3.apiCallTimeout().orElseThrow())
        .isGreaterThan(AwsClients.WORKER_S3.apiCallAttempt())
        .isLessThan(Duration.ofSeconds(120));
  }

  @Test
  @Timeout(30)
  void aSendToAnSqsEndpointThatNeverAnswersFailsWithinTheCallTimeout() throws IOException {
    ServerSocket silent = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
    closeables.add(silent);
    List<Socket> accepted = new ArrayList<>();
    Thread.ofPlatform()
        .daemon()
        .start(
            () -> {
              try {
                while (true) {
                  accepted.add(silent.accept()); // and never answer
                }
              } catch (IOException closed) {
                // the test is over
              }
            });
    SqsClient sqs =
        SqsClient.builder()
            .httpClient(UrlConnectionHttpClient.create())
            .endpointOverride(URI.create("http://127.0.0.1:" + silent.getLocalPort()))
            .region(Region.US_EAST_1)
            .credentialsProvider(CREDENTIALS)
            .overrideConfiguration(AwsClients.bounds(AwsClients.WORKER_SQS))
            .build();
    closeables.add(sqs);
    long started = System.nanoTime();

    assertThatThrownBy(
            () ->
                sqs.sendMessage(
                    b ->
                        b.queueUrl("http://127.0.0.1:" + silent.getLocalPort() + "/1/q")
                            .messageBody("x")))
        .isInstanceOf(SdkClientException.class);
    assertThat(Duration.ofNanos(System.nanoTime() - started))
        .as("ended by the timeouts, not by a refused connection")
        .isGreaterThanOrEqualTo(AwsClients.WORKER_SQS.apiCallAttempt())
        .isLessThan(AwsClients.WORKER_SQS.apiCall().plusSeconds(2));
  }

  @Test
  @Timeout(30)
  void aGetObjectBodyStillFlowingPastTheAttemptTimeoutIsNotCut() throws IOException {
    int chunks = 30;
    HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    server.createContext(
        "/bucket/fast",
        exchange -> {
          exchange.sendResponseHeaders(200, 1);
          try (OutputStream out = exchange.getResponseBody()) {
            out.write('x');
          }
        });
    server.createContext(
        "/bucket/slow",
        exchange -> {
          exchange.getResponseHeaders().add("Content-Type", "application/octet-stream");
          exchange.sendResponseHeaders(200, chunks);
          try (OutputStream out = exchange.getResponseBody()) {
            for (int i = 0; i < chunks; i++) {
              out.write('x');
              out.flush();
              LockSupport.parkNanos(Duration.ofMillis(100).toNanos());
            }
          }
        });
    server.start();
    closeables.add(() -> server.stop(0));
    Duration attempt = Duration.ofSeconds(1);
    S3Client s3 =
        S3Client.builder()
            .httpClient(UrlConnectionHttpClient.create())
            .endpointOverride(URI.create("http://127.0.0.1:" + server.getAddress().getPort()))
            .region(Region.US_EAST_1)
            .credentialsProvider(CREDENTIALS)
            .forcePathStyle(true)
            .overrideConfiguration(
                b -> b.apiCallAttemptTimeout(attempt).apiCallTimeout(attempt.multipliedBy(2)))
            .build();
    closeables.add(s3);
    // the first call of a client initialises the SDK, which may take a while on a busy machine
    try (var warmUp = s3.getObject(b -> b.bucket("bucket").key("fast"))) {
      warmUp.readAllBytes();
    }
    long started = System.nanoTime();

    byte[] body;
    try (var in = s3.getObject(b -> b.bucket("bucket").key("slow"))) {
      body = in.readAllBytes();
    }

    assertThat(Duration.ofNanos(System.nanoTime() - started))
        .as("the body took longer than the attempt and call timeouts")
        .isGreaterThan(attempt.multipliedBy(2));
    assertThat(body).hasSize(chunks);
  }
}
