package dev.derive.coordinator.plan;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.derive.aws.s3.S3ObjectStore;
import dev.derive.coordinator.LocalAws;
import dev.derive.coordinator.dispatch.StepMessages;
import dev.derive.coordinator.identity.SourceIdentity;
import dev.derive.coordinator.identity.SourceInspector;
import dev.derive.coordinator.identity.SourceNotFoundException;
import dev.derive.coordinator.identity.TikaMediaTypeDetector;
import dev.derive.coordinator.job.Job;
import dev.derive.coordinator.validate.StepSpec;
import dev.derive.coordinator.validate.TargetSpec;
import dev.derive.infra.endpoint.AwsClients;
import dev.derive.protocol.capability.CapabilityDeclarations;
import dev.derive.protocol.capability.CapabilityDescriptor;
import dev.derive.protocol.message.PinnedObject;
import dev.derive.protocol.message.StepMessage;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.BucketVersioningStatus;

/**
 * A parameter declared {@code sourceObject} (a watermark) on a real S3 endpoint (moto) with a
 * versioned source bucket: the object it names is looked up when the plan is made, its version is
 * part of the fingerprint (a new upload of the mark is a new derivative, the same mark the same
 * one), the step message pins it, and a missing one is {@code source-not-found} at the member that
 * named it. The capability is a test declaration: the coordinator names none.
 */
class SourceObjectsOnMotoTest {
  private static final String BUCKET = "sources-" + UUID.randomUUID();
  private static final CapabilityDescriptor STAMP =
      CapabilityDeclarations.parse(
          """
          {"name": "stamp", "description": "A test capability.",
           "timeBudget": {"timeoutSeconds": 60, "leaseSeconds": 1200},
           "conversions": [{"sources": ["image/png"], "targets": ["image/png"], "cost": 1,
                            "operations": ["stamp"]}],
           "operations": [{"name": "stamp", "description": "Stamps.", "optional": true,
                           "consumes": ["mark"],
                           "parameters": [{"name": "mark", "type": "string",
                                           "sourceObject": true, "required": true}]}]}
          """,
          "test declaration stamp");

  private static S3Client s3;
  private final SourceInspector inspector =
      new SourceInspector(
          new S3ObjectStore(s3),
          new TikaMediaTypeDetector(Set.of("image/png")),
          BUCKET,
          1_000_000,
          List.of(STAMP));
  private final Planner planner = new Planner(List.of(STAMP), "derivatives");
  private final SourceIdentity source =
      new SourceIdentity(BUCKET, "photos/cat.png", "v1", "\"e1\"", 10, "image/png", null);

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

  private static String put(String key, String text) {
    return s3.putObject(b -> b.bucket(BUCKET).key(key), RequestBody.fromString(text)).versionId();
  }

  private Plan stamped(String mark) {
    return planner.plan(
        source, new TargetSpec("image/png", Map.of("mark", mark)), inspector::object);
  }

  @Test
  void theMarksVersionIsPartOfTheFingerprintAndPinnedInTheStepMessage() {
    String first = put("marks/logo.png", "a mark");
    Plan once = stamped("marks/logo.png");
    Plan again = stamped("marks/logo.png");

    PinnedObject pinned = once.step(0).objects().get("mark");
    assertThat(pinned.ref().key()).isEqualTo("marks/logo.png");
    assertThat(pinned.ref().versionId()).isEqualTo(first);
    assertThat(pinned.etag()).isNotBlank();
    assertThat(again.fingerprint()).as("the same mark").isEqualTo(once.fingerprint());

    put("marks/logo.png", "a mark"); // the same bytes again: a new version
    Plan remade = stamped("marks/logo.png");
    assertThat(remade.fingerprint()).isNotEqualTo(once.fingerprint());
    put("marks/other.png", "another mark");
    assertThat(stamped("marks/other.png").fingerprint()).isNotEqualTo(remade.fingerprint());

    Job job =
        Job.claimed(
            once, source, Instant.now(), Duration.ofSeconds(60), Duration.ofDays(1), "trace");
    StepMessage message = StepMessages.of(job, 0, source.ref());
    assertThat(message.objects()).containsEntry("mark", pinned);
  }

  /**
   * The image worker's watermark: its opacity alone is refused at once, not failed by the worker.
   */
  @Test
  void aWatermarkOptionWithoutTheWatermarkIsRefusedWhereItWasGiven() {
    Planner images = new Planner(dev.derive.coordinator.Declarations.ALL, "derivatives");
    SourceIdentity photo =
        new SourceIdentity(BUCKET, "photos/cat.jpg", "v1", "\"e1\"", 10, "image/jpeg", null);

    assertThatThrownBy(
            () ->
                images.plan(
                    photo,
                    new TargetSpec("image/png", Map.of("watermarkOpacity", 50)),
                    inspector::object))
        .isInstanceOfSatisfying(
            dev.derive.coordinator.validate.InvalidRequestException.class,
            e ->
                assertThat(e.violations())
                    .containsExactly(
                        new dev.derive.coordinator.validate.Violation(
                            "/target/watermarkOpacity",
                            "takes effect only with watermark (it is applied by the watermark,"
                                + " which needs it)")));
  }

  @Test
  void aMissingMarkIsSourceNotFoundAtTheMemberThatNamedIt() {
    assertThatThrownBy(() -> stamped("marks/none.png"))
        .isInstanceOfSatisfying(
            SourceNotFoundException.class,
            e -> {
              assertThat(e.pointer()).isEqualTo("/target/mark");
              assertThat(e.kind()).isEqualTo(SourceNotFoundException.KIND);
            })
        .hasMessageContaining("no object 'marks/none.png' in the source bucket");
    assertThatThrownBy(
            () ->
                planner.plan(
                    source,
                    List.of(new StepSpec("stamp", "stamp", Map.of("mark", "marks/none.png"))),
                    inspector::object))
        .isInstanceOfSatisfying(
            SourceNotFoundException.class,
            e -> assertThat(e.pointer()).isEqualTo("/steps/0/params/mark"));
  }
}
