package dev.derive.coordinator.storage;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.derive.coordinator.LocalAws;
import dev.derive.infra.endpoint.AwsClients;
import java.util.Arrays;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.presigner.S3Presigner;

/**
 * {@link S3ObjectStore#readStart}: one ranged GET tells what a HEAD and a ranged GET told, on a
 * real S3 endpoint (moto).
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
    ObjectStart start = store.readStart(BUCKET, "long", null, 4096, null).orElseThrow();
    ObjectMetadata head = store.head(BUCKET, "long", null).orElseThrow();
    assertEquals(100_000, start.metadata().sizeBytes());
    assertEquals(head.etag(), start.metadata().etag());
    assertArrayEquals(Arrays.copyOf(bytes, 4096), start.firstBytes());
  }

  @Test
  void aShortObjectGivesAllItsBytes() {
    byte[] bytes = put("short", 10);
    ObjectStart start = store.readStart(BUCKET, "short", null, 4096, null).orElseThrow();
    assertEquals(10, start.metadata().sizeBytes());
    assertArrayEquals(bytes, start.firstBytes());
  }

  @Test
  void anEmptyObjectExistsWithNoBytes() {
    put("empty", 0);
    ObjectStart start = store.readStart(BUCKET, "empty", null, 4096, null).orElseThrow();
    assertEquals(0, start.metadata().sizeBytes());
    assertEquals(0, start.firstBytes().length);
    assertEquals(store.head(BUCKET, "empty", null).orElseThrow().etag(), start.metadata().etag());
  }

  @Test
  void aMissingObjectIsEmpty() {
    assertTrue(store.readStart(BUCKET, "missing-" + UUID.randomUUID(), null, 4096, null).isEmpty());
  }

  @Test
  void anUnchangedObjectAnswersNotModifiedWithoutBytesAndAChangedOneIsReadAnew() {
    put("tagged", 5000);
    String etag = store.head(BUCKET, "tagged", null).orElseThrow().etag();
    ObjectStart same = store.readStart(BUCKET, "tagged", null, 4096, etag).orElseThrow();
    assertTrue(same.unchanged());
    assertEquals(etag, same.metadata().etag());
    assertEquals(0, same.firstBytes().length);
    byte[] changed = put("tagged", 6000);
    ObjectStart again = store.readStart(BUCKET, "tagged", null, 4096, etag).orElseThrow();
    assertFalse(again.unchanged());
    assertEquals(6000, again.metadata().sizeBytes());
    assertArrayEquals(Arrays.copyOf(changed, 4096), again.firstBytes());
  }

  @Test
  void theWholeSizeComesFromContentRangeOrElseTheLength() {
    assertEquals(123_456, S3ObjectStore.wholeSize("bytes 0-4095/123456", 4096L));
    assertEquals(4096, S3ObjectStore.wholeSize("bytes 0-4095/*", 4096L));
    assertEquals(77, S3ObjectStore.wholeSize(null, 77L));
    assertEquals(0, S3ObjectStore.wholeSize(null, null));
  }
}
