package dev.derive.aws.s3;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.derive.infra.endpoint.AwsClients;
import dev.derive.infra.endpoint.AwsEndpoint;
import dev.derive.infra.endpoint.MotoServerEndpoint;
import dev.derive.protocol.message.ObjectRef;
import dev.derive.storage.ObjectChangedException;
import dev.derive.storage.ObjectNotFoundException;
import dev.derive.storage.ObjectTooLargeException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.BucketVersioningStatus;
import software.amazon.awssdk.services.s3.model.PutObjectResponse;

/** {@link S3ObjectStore}'s ETag-pinned reads against a real moto server over the real SDK. */
class S3ObjectStoreOnMotoTest {
  private static final String BUCKET = "derive-source";
  private static final String VERSIONED = "derive-source-versioned";
  private static final long MAX_BYTES = 1_000_000;

  private static AwsEndpoint endpoint;
  private static S3Client s3;
  private static S3ObjectStore store;

  @TempDir Path tempDir;

  @BeforeAll
  static void startEndpoint() {
    endpoint = MotoServerEndpoint.start(Path.of("target", "moto-worker-runtime-store.log"));
    s3 = AwsClients.s3(endpoint);
    s3.createBucket(b -> b.bucket(BUCKET));
    s3.createBucket(b -> b.bucket(VERSIONED));
    s3.putBucketVersioning(
        b ->
            b.bucket(VERSIONED)
                .versioningConfiguration(v -> v.status(BucketVersioningStatus.ENABLED)));
    store = new S3ObjectStore(s3);
  }

  @AfterAll
  static void stopEndpoint() {
    if (s3 != null) {
      s3.close();
    }
    if (endpoint != null) {
      endpoint.close();
    }
  }

  @Test
  void aReadPinnedToTheCurrentEtagGetsTheBytes() throws IOException {
    ObjectRef ref = ObjectRef.of(BUCKET, "pinned/current.txt");
    String etag = put(ref, "first bytes").eTag();
    Path target = tempDir.resolve("out");

    long read = store.download(ref, etag, target, MAX_BYTES);

    assertThat(read).isEqualTo(11);
    assertThat(Files.readString(target)).isEqualTo("first bytes");
  }

  @Test
  void anObjectExactlyAtTheCapIsReadWholeAndOneByteMoreIsTooLarge() throws IOException {
    ObjectRef atCap = ObjectRef.of(BUCKET, "cap/at.txt");
    ObjectRef overCap = ObjectRef.of(BUCKET, "cap/over.txt");
    put(atCap, "0123456789");
    put(overCap, "0123456789!");
    Path target = tempDir.resolve("out");

    assertThat(store.download(atCap, null, target, 10)).isEqualTo(10);
    assertThat(Files.readString(target)).isEqualTo("0123456789");
    assertThatThrownBy(() -> store.download(overCap, null, tempDir.resolve("over"), 10))
        .isInstanceOf(ObjectTooLargeException.class)
        .hasMessageContaining("larger than the limit of 10 bytes");
  }

  @Test
  void aReadPinnedToTheEtagOfAnOverwrittenObjectFailsWithObjectChanged() {
    ObjectRef ref = ObjectRef.of(BUCKET, "pinned/overwritten.txt");
    String before = put(ref, "first bytes").eTag();
    String after = put(ref, "second, different bytes").eTag();
    assertThat(after).isNotEqualTo(before);

    assertThatThrownBy(() -> store.download(ref, before, tempDir.resolve("out"), MAX_BYTES))
        .isInstanceOfSatisfying(
            ObjectChangedException.class,
            e -> {
              assertThat(e.ref()).isEqualTo(ref);
              assertThat(e.expectedEtag()).isEqualTo(before);
            });
  }

  @Test
  void anUnpinnedReadGetsWhateverIsCurrent() throws IOException {
    ObjectRef ref = ObjectRef.of(BUCKET, "pinned/unpinned.txt");
    put(ref, "first bytes");
    put(ref, "second bytes");
    Path target = tempDir.resolve("out");

    store.download(ref, null, target, MAX_BYTES);

    assertThat(Files.readString(target)).isEqualTo("second bytes");
  }

  @Test
  void aPinnedReadOfAVersionKeepsTheVersionId() throws IOException {
    ObjectRef key = ObjectRef.of(VERSIONED, "pinned/versioned.txt");
    PutObjectResponse first = put(key, "version one");
    PutObjectResponse second = put(key, "version two");
    ObjectRef firstVersion = new ObjectRef(VERSIONED, key.key(), first.versionId());
    Path target = tempDir.resolve("out");

    store.download(firstVersion, first.eTag(), target, MAX_BYTES);

    assertThat(Files.readString(target)).isEqualTo("version one");
    assertThatThrownBy(
            () -> store.download(firstVersion, second.eTag(), tempDir.resolve("x"), MAX_BYTES))
        .isInstanceOf(ObjectChangedException.class);
  }

  @Test
  void aPinnedReadOfAMissingObjectIsNotFoundNotChanged() {
    ObjectRef ref = ObjectRef.of(BUCKET, "pinned/never-written.txt");

    assertThatThrownBy(() -> store.download(ref, "\"abc\"", tempDir.resolve("out"), MAX_BYTES))
        .isInstanceOf(ObjectNotFoundException.class);
  }

  private static PutObjectResponse put(ObjectRef ref, String text) {
    return s3.putObject(
        b -> b.bucket(ref.bucket()).key(ref.key()).contentType("text/plain"),
        RequestBody.fromString(text, StandardCharsets.UTF_8));
  }
}
