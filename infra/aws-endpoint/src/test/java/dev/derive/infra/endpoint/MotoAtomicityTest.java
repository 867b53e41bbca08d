package dev.derive.infra.endpoint;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ConditionalCheckFailedException;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.Message;

/**
 * The moto endpoint applies requests atomically, as AWS does, without stalling long polls or object
 * reads.
 */
class MotoAtomicityTest {
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

  /**
   * The head of an HTTP/1.1 request to the endpoint, {@code methodAndPath} with {@code headers}
   * (each ending in CRLF), signed for {@code service} (moto reads the service from the credential
   * scope and checks no signature), announcing a body of {@code contentLength} bytes.
   */
  private static byte[] requestHead(
      String methodAndPath, String service, String headers, int contentLength) {
    return (methodAndPath
            + " HTTP/1.1\r\nHost: "
            + endpoint.uri().getAuthority()
            + "\r\n"
            + headers
            + "Authorization: AWS4-HMAC-SHA256 Credential=test/20261201/us-east-1/"
            + service
            + "/aws4_request, SignedHeaders=host, Signature=0\r\n"
            + "Content-Length: "
            + contentLength
            + "\r\n\r\n")
        .getBytes(StandardCharsets.US_ASCII);
  }

  @Test
  void exactlyOneOfManyConcurrentConditionalPutsWins() throws Exception {
    int threads = 24;
    try (DynamoDbClient dynamo = AwsClients.dynamoDb(endpoint)) {
      MotoTables.createKeyedById(dynamo, "claims");
      ExecutorService pool = Executors.newFixedThreadPool(threads);
      try {
        for (int round = 0; round < 5; round++) {
          String id = "job-" + round;
          CountDownLatch start = new CountDownLatch(1);
          List<Future<Boolean>> attempts = new ArrayList<>();
          for (int i = 0; i < threads; i++) {
            String owner = "owner-" + i;
            attempts.add(
                pool.submit(
                    () -> {
                      start.await();
                      try {
                        dynamo.putItem(
                            b ->
                                b.tableName("claims")
                                    .item(
                                        Map.of(
                                            "id", AttributeValue.fromS(id),
                                            "owner", AttributeValue.fromS(owner)))
                                    .conditionExpression("attribute_not_exists(id)"));
                        return true;
                      } catch (ConditionalCheckFailedException lost) {
                        return false;
                      }
                    }));
          }
          start.countDown();
          int winners = 0;
          for (Future<Boolean> attempt : attempts) {
            winners += attempt.get() ? 1 : 0;
          }
          assertThat(winners).as("winners of round " + round).isEqualTo(1);
        }
      } finally {
        pool.shutdownNow();
      }
    }
  }

  @Test
  void aLongPollReleasesTheEndpointSoASendCanWakeIt() throws Exception {
    try (SqsClient sqs = AwsClients.sqs(endpoint)) {
      String url = sqs.createQueue(b -> b.queueName("long-poll")).queueUrl();
      CompletableFuture<List<Message>> poll =
          CompletableFuture.supplyAsync(
              () -> sqs.receiveMessage(b -> b.queueUrl(url).waitTimeSeconds(15)).messages());
      Thread.sleep(
          500); // let the poll start waiting; if it held the lock, the send would wait 15 s
      sqs.sendMessage(b -> b.queueUrl(url).messageBody("wake up"));
      assertThat(poll.get()).extracting(Message::body).containsExactly("wake up");
    }
  }

  @Test
  void anObjectReadRunsWhileAnotherRequestHoldsTheEndpointAndListingsWait() throws Exception {
    try (S3Client s3 = AwsClients.s3(endpoint);
        DynamoDbClient dynamo = AwsClients.dynamoDb(endpoint)) {
      s3.createBucket(b -> b.bucket("reads"));
      s3.putObject(b -> b.bucket("reads").key("photo.jpg"), RequestBody.fromString("the bytes"));
      // A DynamoDB request whose body has not arrived holds the lock while moto reads it.
      try (Socket holder = new Socket(endpoint.uri().getHost(), endpoint.uri().getPort())) {
        OutputStream out = holder.getOutputStream();
        out.write(
            requestHead(
                "POST /",
                "dynamodb",
                "X-Amz-Target: DynamoDB_20120810.ListTables\r\n"
                    + "Content-Type: application/x-amz-json-1.0\r\n",
                2));
        out.flush();
        Thread.sleep(300); // let moto take the lock and block on the body
        CompletableFuture<Integer> tables =
            CompletableFuture.supplyAsync(() -> dynamo.listTables().tableNames().size());
        CompletableFuture<Integer> listing =
            CompletableFuture.supplyAsync(
                () -> s3.listObjectsV2(b -> b.bucket("reads")).contents().size());

        // Reads of one object do not wait for it ...
        assertThat(s3.headObject(b -> b.bucket("reads").key("photo.jpg")).contentLength())
            .isEqualTo(9L);
        assertThat(s3.getObjectAsBytes(b -> b.bucket("reads").key("photo.jpg")).asUtf8String())
            .isEqualTo("the bytes");
        // ... while every other request does (the lock is really held) ...
        Thread.sleep(500);
        assertThat(tables).as("a DynamoDB call while the lock is held").isNotDone();
        assertThat(listing).as("a bucket listing while the lock is held").isNotDone();

        // ... and goes on once the holder's request is whole.
        out.write("{}".getBytes(StandardCharsets.US_ASCII));
        out.flush();
        assertThat(tables.get(20, TimeUnit.SECONDS)).isGreaterThanOrEqualTo(0);
        assertThat(listing.get(20, TimeUnit.SECONDS)).isEqualTo(1);
      }
    }
  }

  @Test
  void anUploadWhoseBodyIsStillArrivingHoldsNoOneElse() throws Exception {
    try (S3Client s3 = AwsClients.s3(endpoint);
        DynamoDbClient dynamo = AwsClients.dynamoDb(endpoint)) {
      s3.createBucket(b -> b.bucket("uploads"));
      try (Socket uploader = new Socket(endpoint.uri().getHost(), endpoint.uri().getPort())) {
        OutputStream out = uploader.getOutputStream();
        out.write(
            requestHead(
                "PUT /uploads/photo.jpg",
                "s3",
                "Content-Type: image/jpeg\r\nx-amz-content-sha256: UNSIGNED-PAYLOAD\r\n",
                10));
        out.write("12345".getBytes(StandardCharsets.US_ASCII));
        out.flush();
        Thread.sleep(300); // half the body is there, the rest is not

        // Other calls are answered meanwhile (before: all waited for the upload's last byte).
        assertThat(
                CompletableFuture.supplyAsync(() -> dynamo.listTables().tableNames())
                    .get(20, TimeUnit.SECONDS))
            .isNotNull();
        assertThat(s3.listObjectsV2(b -> b.bucket("uploads")).contents()).isEmpty();

        // The upload, once whole, is stored whole.
        out.write("67890".getBytes(StandardCharsets.US_ASCII));
        out.flush();
        String status =
            new java.io.BufferedReader(
                    new java.io.InputStreamReader(
                        uploader.getInputStream(), StandardCharsets.US_ASCII))
                .readLine();
        assertThat(status).startsWith("HTTP/1.1 200");
      }
      assertThat(s3.getObjectAsBytes(b -> b.bucket("uploads").key("photo.jpg")).asUtf8String())
          .isEqualTo("1234567890");
    }
  }

  @Test
  void aReadBesideWritesOfTheSameKeySeesOneWholeObject() throws Exception {
    byte[] first = new byte[1 << 20];
    byte[] second = new byte[1 << 20];
    java.util.Arrays.fill(first, (byte) 'a');
    java.util.Arrays.fill(second, (byte) 'b');
    try (S3Client s3 = AwsClients.s3(endpoint)) {
      s3.createBucket(b -> b.bucket("overwrites"));
      s3.putObject(b -> b.bucket("overwrites").key("k"), RequestBody.fromBytes(first));
      CompletableFuture<Void> writes =
          CompletableFuture.runAsync(
              () -> {
                for (int i = 0; i < 20; i++) {
                  byte[] body = i % 2 == 0 ? second : first;
                  s3.putObject(b -> b.bucket("overwrites").key("k"), RequestBody.fromBytes(body));
                }
              });
      int reads = 0;
      while (!writes.isDone() || reads < 5) {
        byte[] read = s3.getObjectAsBytes(b -> b.bucket("overwrites").key("k")).asByteArray();
        assertThat(read.length).isEqualTo(first.length);
        assertThat(read[0] == 'a' ? first : second)
            .as("read %d is one whole object", reads)
            .isEqualTo(read);
        reads++;
      }
      writes.get();
    }
  }
}
