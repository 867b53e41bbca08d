package dev.derive.aws.s3;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.derive.coordinator.LocalAws;
import dev.derive.infra.endpoint.AwsClients;
import dev.derive.protocol.message.ObjectRef;
import dev.derive.storage.ObjectMetadata;
import dev.derive.storage.ObjectNotFoundException;
import dev.derive.storage.ObjectStart;
import dev.derive.storage.ObjectStoreException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.presigner.S3Presigner;

/**
 * {@link S3ObjectStore} on a real S3 endpoint (moto): one ranged GET tells what a HEAD and a ranged
 * GET told, and the one rule for a missing object (empty for head, size and readStart, {@link
 * ObjectNotFoundException} for download, {@link ObjectStoreException} for any other failure).
 */
class S3ObjectStoreTest {
  private static final String BUCKET = "objects-" + UUID.randomUUID();
  private static S3Client s3;
  private static S3Presigner presigner;
  private static S3ObjectStore store;

  @BeforeAll
  static void createBucket() {
    s3 = AwsClients.s3(LocalAws.endpoint());
    presigner = AwsClients.s3Presigner(LocalAws.endpoint());
    store = new S3ObjectStore(s3, presigner);
    s3.createBucket(b -> b.bucket(BUCKET));
  }

  @AfterAll
  static void close() {
    s3.close();
    presigner.close();
  }

  private static byte[] put(String key, int size) {
    byte[] bytes = new byte[size];
    for (int i = 0; i < size; i++) {
      bytes[i] = (byte) (i * 31 + 7);
    }
    s3.putObject(b -> b.bucket(BUCKET).key(key), RequestBody.fromBytes(bytes));
    return bytes;
  }

  @Test
  void aLongObjectGivesItsFirstBytesWithTheWholeSizeAndTheEtagAHeadGives() {
    byte[] bytes = put("long", 100_000);
    ObjectStart start = store.readStart(ObjectRef.of(BUCKET, "long"), 4096, null).orElseThrow();
    ObjectMetadata head = store.head(ObjectRef.of(BUCKET, "long")).orElseThrow();
    assertEquals(100_000, start.metadata().sizeBytes());
    assertEquals(head.etag(), start.metadata().etag());
    assertArrayEquals(Arrays.copyOf(bytes, 4096), start.firstBytes());
  }

  @Test
  void aShortObjectGivesAllItsBytes() {
    byte[] bytes = put("short", 10);
    ObjectStart start = store.readStart(ObjectRef.of(BUCKET, "short"), 4096, null).orElseThrow();
    assertEquals(10, start.metadata().sizeBytes());
    assertArrayEquals(bytes, start.firstBytes());
  }

  @Test
  void anEmptyObjectExistsWithNoBytes() {
    put("empty", 0);
    ObjectStart start = store.readStart(ObjectRef.of(BUCKET, "empty"), 4096, null).orElseThrow();
    assertEquals(0, start.metadata().sizeBytes());
    assertEquals(0, start.firstBytes().length);
    assertEquals(
        store.head(ObjectRef.of(BUCKET, "empty")).orElseThrow().etag(), start.metadata().etag());
  }

  @Test
  void aMissingObjectIsEmpty() {
    assertTrue(
        store
            .readStart(ObjectRef.of(BUCKET, "missing-" + UUID.randomUUID()), 4096, null)
            .isEmpty());
  }

  @Test
  void anUnchangedObjectAnswersNotModifiedWithoutBytesAndAChangedOneIsReadAnew() {
    put("tagged", 5000);
    String etag = store.head(ObjectRef.of(BUCKET, "tagged")).orElseThrow().etag();
    ObjectStart same = store.readStart(ObjectRef.of(BUCKET, "tagged"), 4096, etag).orElseThrow();
    assertTrue(same.unchanged());
    assertEquals(etag, same.metadata().etag());
    assertEquals(0, same.firstBytes().length);
    byte[] changed = put("tagged", 6000);
    ObjectStart again = store.readStart(ObjectRef.of(BUCKET, "tagged"), 4096, etag).orElseThrow();
    assertFalse(again.unchanged());
    assertEquals(6000, again.metadata().sizeBytes());
    assertEquals(
        store.head(ObjectRef.of(BUCKET, "tagged")).orElseThrow().etag(), again.metadata().etag());
    assertArrayEquals(Arrays.copyOf(changed, 4096), again.firstBytes());
  }

  @Test
  void anEmptyObjectThatReplacedATaggedOneIsReadAnewWithNoBytes() {
    put("emptied", 5000);
    String etag = store.head(ObjectRef.of(BUCKET, "emptied")).orElseThrow().etag();
    put("emptied", 0);
    ObjectStart start = store.readStart(ObjectRef.of(BUCKET, "emptied"), 4096, etag).orElseThrow();
    assertFalse(start.unchanged());
    assertEquals(0, start.metadata().sizeBytes());
    assertEquals(0, start.firstBytes().length);
  }

  @Test
  void theWholeSizeComesFromContentRangeOrElseTheLength() {
    assertEquals(123_456, S3ObjectStore.wholeSize("bytes 0-4095/123456", 4096L));
    assertEquals(4096, S3ObjectStore.wholeSize("bytes 0-4095/*", 4096L));
    assertEquals(77, S3ObjectStore.wholeSize(null, 77L));
    assertEquals(0, S3ObjectStore.wholeSize(null, null));
  }

  @Test
  void aMissingObjectVersionOrBucketIsEmptyForTheQuestionsAndNotFoundForADownload(
      @org.junit.jupiter.api.io.TempDir Path dir) {
    ObjectRef missing = ObjectRef.of(BUCKET, "missing-" + UUID.randomUUID());
    ObjectRef noBucket = ObjectRef.of("no-such-bucket-" + UUID.randomUUID(), "k");
    put("versioned-or-not", 10);
    ObjectRef badVersion = new ObjectRef(BUCKET, "versioned-or-not", "not-a-version");

    for (ObjectRef ref : new ObjectRef[] {missing, noBucket, badVersion}) {
      assertTrue(store.head(ref).isEmpty(), ref.toString());
      assertTrue(store.size(ref).isEmpty(), ref.toString());
      assertTrue(store.readStart(ref, 16, null).isEmpty(), ref.toString());
      assertTrue(store.readStart(ref, 16, "\"an-etag-it-had\"").isEmpty(), ref.toString());
      assertThrows(
          ObjectNotFoundException.class,
          () -> store.download(ref, null, dir.resolve("out"), 1024),
          ref.toString());
    }
  }

  /**
   * Issue 26 item 6: what a download failure says becomes a job's error detail (input-missing,
   * source-changed, input-too-large), which the API, the event and callbacks show: it names the
   * object's key, never its bucket, whose name holds the account id.
   */
  @Test
  void whatADownloadFailureSaysNamesTheKeyButNeverTheBucket(
      @org.junit.jupiter.api.io.TempDir Path dir) {
    put("big", 100);
    String etag = store.head(ObjectRef.of(BUCKET, "big")).orElseThrow().etag();
    ObjectRef missing = ObjectRef.of(BUCKET, "gone/a.jpg");
    ObjectRef big = ObjectRef.of(BUCKET, "big");

    List<RuntimeException> failures =
        List.of(
            assertThrows(
                ObjectNotFoundException.class,
                () -> store.download(missing, null, dir.resolve("a"), 1024)),
            assertThrows(
                ObjectNotFoundException.class,
                () ->
                    store.download(
                        new ObjectRef(BUCKET, "big", "not-a-version"),
                        null,
                        dir.resolve("b"),
                        1024)),
            assertThrows(
                dev.derive.storage.ObjectChangedException.class,
                () -> store.download(big, "\"0123\"", dir.resolve("c"), 1024)),
            assertThrows(
                dev.derive.storage.ObjectTooLargeException.class,
                () -> store.download(big, etag, dir.resolve("d"), 10)));

    for (RuntimeException failure : failures) {
      assertFalse(failure.getMessage().contains(BUCKET), failure.getMessage());
      assertFalse(failure.getMessage().contains("s3://"), failure.getMessage());
    }
    assertTrue(failures.get(0).getMessage().contains("gone/a.jpg"), failures.get(0).getMessage());
    assertTrue(failures.get(2).getMessage().contains("big"), failures.get(2).getMessage());
  }

  @Test
  void aStoreThatCannotBeReachedFailsWithObjectStoreExceptionCarryingTheSdksCause(
      @org.junit.jupiter.api.io.TempDir Path dir) throws Exception {
    int closedPort;
    try (ServerSocket socket = new ServerSocket(0)) {
      closedPort = socket.getLocalPort();
    }
    var nowhere =
        new dev.derive.aws.AwsClients.Endpoint(
            java.net.URI.create("http://127.0.0.1:" + closedPort), "us-east-1", "test", "test");
    try (S3Client unreachable =
        dev.derive.aws.AwsClients.configure(
                S3Client.builder(), dev.derive.aws.AwsClients.COORDINATOR, nowhere)
            .forcePathStyle(true)
            .build()) {
      S3ObjectStore broken = new S3ObjectStore(unreachable);
      ObjectRef ref = ObjectRef.of(BUCKET, "any");
      Path source = Files.write(dir.resolve("in"), new byte[] {1});

      ObjectStoreException head = assertThrows(ObjectStoreException.class, () -> broken.head(ref));
      assertThrows(ObjectStoreException.class, () -> broken.readStart(ref, 16, null));
      assertThrows(ObjectStoreException.class, () -> broken.readStart(ref, 16, "\"etag\""));
      assertThrows(
          ObjectStoreException.class, () -> broken.download(ref, null, dir.resolve("out"), 16));
      assertThrows(ObjectStoreException.class, () -> broken.upload(source, ref, "text/plain"));
      assertTrue(
          head.getCause() instanceof software.amazon.awssdk.core.exception.SdkException,
          String.valueOf(head.getCause()));
    }
  }
}
