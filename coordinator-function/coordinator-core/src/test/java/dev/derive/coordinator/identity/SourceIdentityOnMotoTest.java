package dev.derive.coordinator.identity;

import static org.assertj.core.api.Assertions.assertThat;

import dev.derive.aws.s3.S3ObjectStore;
import dev.derive.coordinator.Declarations;
import dev.derive.coordinator.LocalAws;
import dev.derive.coordinator.plan.DerivativeFingerprint;
import dev.derive.coordinator.plan.PlannedStep;
import dev.derive.coordinator.validate.SourceSpec;
import dev.derive.infra.endpoint.AwsClients;
import java.util.List;
import java.util.UUID;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.BucketVersioningStatus;
import software.amazon.awssdk.services.s3.model.ChecksumAlgorithm;

/**
 * Issue 26 item 6 on a real S3 endpoint (moto) with a versioned source bucket, as template.yaml
 * makes it: a source is never known by its MD5 ETag alone. A rewrite with the same ETag is another
 * version and another derivative; bytes whose SHA-256 S3 checked are one derivative however often
 * they are uploaded, and other bytes another.
 */
class SourceIdentityOnMotoTest {
  private static final String BUCKET = "sources-" + UUID.randomUUID();
  private static final byte[] PNG = {
    (byte) 0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n', 0, 0, 0, 13, 'I', 'H', 'D', 'R'
  };
  private static final List<PlannedStep> STEPS =
      List.of(new PlannedStep("image", List.of(), "image/png", "image/jpeg", null));

  private static S3Client s3;
  private final SourceInspector inspector =
      new SourceInspector(
          new S3ObjectStore(s3),
          new TikaMediaTypeDetector(
              Declarations.ALL.stream()
                  .flatMap(c -> c.reads().stream())
                  .collect(Collectors.toSet())),
          BUCKET,
          1_000_000,
          Declarations.ALL);

  @BeforeAll
  static void versionedBucket() {
    s3 = AwsClients.s3(LocalAws.endpoint());
    s3.createBucket(b -> b.bucket(BUCKET));
    s3.putBucketVersioning(
        b ->
            b.bucket(BUCKET)
                .versioningConfiguration(v -> v.status(BucketVersioningStatus.ENABLED)));
  }

  @AfterAll
  static void close() {
    s3.close();
  }

  private static byte[] png(String tail) {
    byte[] tailBytes = tail.getBytes(java.nio.charset.StandardCharsets.UTF_8);
    byte[] bytes = java.util.Arrays.copyOf(PNG, PNG.length + tailBytes.length);
    System.arraycopy(tailBytes, 0, bytes, PNG.length, tailBytes.length);
    return bytes;
  }

  private static void put(String key, byte[] bytes, boolean withSha256) {
    s3.putObject(
        b ->
            b.bucket(BUCKET)
                .key(key)
                .checksumAlgorithm(withSha256 ? ChecksumAlgorithm.SHA256 : null),
        RequestBody.fromBytes(bytes));
  }

  private SourceIdentity inspect(String key) {
    return inspector.inspect(new SourceSpec(key, null));
  }

  /**
   * The same ETag after a rewrite (here the same bytes; an MD5 collision would be other bytes) does
   * not make the remembered identity current: it is another version.
   */
  @Test
  void aRewriteWithTheSameEtagIsAnotherVersionAndAnotherDerivative() {
    put("a.png", png("one"), false);
    SourceIdentity first = inspect("a.png");
    put("a.png", png("one"), false);
    SourceIdentity second = inspect("a.png");

    assertThat(second.etag()).isEqualTo(first.etag());
    assertThat(first.versionId()).isNotNull();
    assertThat(second.versionId()).isNotEqualTo(first.versionId());
    assertThat(first.ref().versionId())
        .as("a step reads that very version")
        .isEqualTo(first.versionId());
    assertThat(DerivativeFingerprint.of(second, STEPS))
        .isNotEqualTo(DerivativeFingerprint.of(first, STEPS));
    assertThat(inspect("a.png")).as("unchanged: remembered").isEqualTo(second);
  }

  @Test
  void bytesWhoseSha256S3CheckedAreOneDerivativeHoweverOftenUploaded() {
    put("b.png", png("two"), true);
    SourceIdentity first = inspect("b.png");
    put("b.png", png("two"), true);
    SourceIdentity again = inspect("b.png");
    put("b.png", png("three"), true);
    SourceIdentity other = inspect("b.png");

    assertThat(first.sha256()).isNotNull();
    assertThat(again.versionId()).isNotEqualTo(first.versionId());
    assertThat(DerivativeFingerprint.of(again, STEPS))
        .isEqualTo(DerivativeFingerprint.of(first, STEPS));
    assertThat(DerivativeFingerprint.of(other, STEPS))
        .isNotEqualTo(DerivativeFingerprint.of(first, STEPS));
  }

  @Test
  void aRequestNamingAVersionIsIdentifiedByThatVersion() {
    put("c.png", png("four"), false);
    String version = s3.headObject(b -> b.bucket(BUCKET).key("c.png")).versionId();
    put("c.png", png("five"), false);

    SourceIdentity named = inspector.inspect(new SourceSpec("c.png", version));

    assertThat(named.versionId()).isEqualTo(version);
    assertThat(named.sizeBytes()).as("the named version's bytes").isEqualTo(PNG.length + 4);
  }
}
