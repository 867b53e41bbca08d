package dev.derive.coordinator.service;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.derive.aws.s3.S3ObjectStore;
import dev.derive.coordinator.Declarations;
import dev.derive.coordinator.LocalAws;
import dev.derive.coordinator.cache.DerivativeCache;
import dev.derive.coordinator.cache.RecentHits;
import dev.derive.coordinator.claim.InMemoryJobStore;
import dev.derive.coordinator.claim.LostClaimWatch;
import dev.derive.coordinator.completion.CompletionNotifier;
import dev.derive.coordinator.identity.SourceInspector;
import dev.derive.coordinator.identity.SourceNotFoundException;
import dev.derive.coordinator.identity.TikaMediaTypeDetector;
import dev.derive.coordinator.lifecycle.InMemoryObjects;
import dev.derive.coordinator.lifecycle.JobLifecycle;
import dev.derive.coordinator.lifecycle.LifecycleParts;
import dev.derive.coordinator.lifecycle.MutableClock;
import dev.derive.coordinator.lifecycle.RecordingDispatcher;
import dev.derive.coordinator.plan.Planner;
import dev.derive.coordinator.validate.RequestValidator;
import dev.derive.infra.endpoint.AwsClients;
import java.awt.image.BufferedImage;
import java.io.ByteArrayOutputStream;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.BucketVersioningStatus;
import software.amazon.awssdk.services.s3.model.HeadObjectRequest;

/**
 * A watermark named by repeated requests is looked up once per {@link RecentObjects#MEMORY}, not on
 * every request, counted at the S3 client on a versioned bucket of a real S3 endpoint (moto); a new
 * upload of the mark is still noticed once that window has passed, and a missing mark is not
 * remembered.
 */
class RecentObjectsOnMotoTest {
  private static final String BUCKET = "sources-" + UUID.randomUUID();
  private static final String SOURCE = "photos/cat.png";
  private static final String MARK = "marks/logo.png";
  private static final ObjectMapper JSON = new ObjectMapper();

  private static S3Client s3;

  /** The key of every HeadObject the coordinator's client sent. */
  private static final List<String> heads = new CopyOnWriteArrayList<>();

  private static S3Client counting;

  private final MutableClock clock = new MutableClock(Instant.parse("2030-01-01T00:00:00Z"));
  private final InMemoryJobStore store = new InMemoryJobStore();
  private final DerivativeCache cache =
      new DerivativeCache(
          new InMemoryObjects(), "derivatives", Duration.ofMinutes(5), RecentHits.none());
  private final JobLifecycle lifecycle =
      new JobLifecycle(
          new LifecycleParts(
              store,
              new RecordingDispatcher(),
              cache,
              capability -> Duration.ofMinutes(40),
              Duration.ofSeconds(60),
              Duration.ofDays(1),
              clock,
              CompletionNotifier.disabled(),
              LostClaimWatch.NONE));
  private final DerivativeService service =
      new DerivativeService(
          new SourceInspector(
              new S3ObjectStore(counting),
              new TikaMediaTypeDetector(Set.of("image/png")),
              BUCKET,
              10_000_000,
              Declarations.ALL),
          new Planner(Declarations.ALL, "derivatives"),
          cache,
          store,
          lifecycle.claims(),
          capability -> Duration.ofMinutes(2),
          Duration.ofDays(1),
          clock);
  private final RequestValidator validator = new RequestValidator(Declarations.ALL);

  @BeforeAll
  static void versionedBucketWithAPictureAndAMark() throws Exception {
    s3 = AwsClients.s3(LocalAws.endpoint());
    counting =
        dev.derive.aws.AwsClients.configure(
                S3Client.builder(),
                dev.derive.aws.AwsClients.TOOLS,
                AwsClients.of(LocalAws.endpoint()))
            .forcePathStyle(true)
            .overrideConfiguration(
                c ->
                    c.addExecutionInterceptor(
                        new ExecutionInterceptor() {
                          @Override
                          public void beforeExecution(
                              Context.BeforeExecution context, ExecutionAttributes attributes) {
                            if (context.request() instanceof HeadObjectRequest head) {
                              heads.add(head.key());
                            }
                          }
                        }))
            .build();
    s3.createBucket(b -> b.bucket(BUCKET));
    s3.putBucketVersioning(
        b ->
            b.bucket(BUCKET)
                .versioningConfiguration(v -> v.status(BucketVersioningStatus.ENABLED)));
    put(SOURCE);
    put(MARK);
  }

  @AfterAll
  static void close() {
    counting.close();
    s3.close();
  }

  private static void put(String key) throws Exception {
    ByteArrayOutputStream png = new ByteArrayOutputStream();
    ImageIO.write(new BufferedImage(8, 8, BufferedImage.TYPE_INT_RGB), "png", png);
    s3.putObject(b -> b.bucket(BUCKET).key(key), RequestBody.fromBytes(png.toByteArray()));
  }

  /** The id of the derivative of the source with {@code mark} laid over it. */
  private String marked(String mark) throws Exception {
    return service
        .submit(
            validator.validate(
                JSON.readTree(
                    "{\"source\":{\"key\":\""
                        + SOURCE
                        + "\"},\"target\":{\"mediaType\":\"image/png\",\"watermark\":\""
                        + mark
                        + "\",\"watermarkOpacity\":50}}")),
            "trace")
        .jobId();
  }

  private static long headsOf(String key) {
    return heads.stream().filter(key::equals).count();
  }

  @Test
  void aRepeatedRequestHeadsTheMarkOncePerMemoryAndNoticesANewMarkAfterIt() throws Exception {
    long before = headsOf(MARK);
    String first = marked(MARK);
    assertThat(headsOf(MARK) - before).isEqualTo(1);

    assertThat(marked(MARK)).isEqualTo(first);
    assertThat(marked(MARK)).isEqualTo(first);
    assertThat(headsOf(MARK) - before).as("remembered: no HEAD of the mark").isEqualTo(1);

    put(MARK); // a new version of the mark
    clock.advance(RecentObjects.MEMORY.minusSeconds(1));
    assertThat(marked(MARK)).as("within the window: the mark before").isEqualTo(first);
    assertThat(headsOf(MARK) - before).isEqualTo(1);

    clock.advance(Duration.ofSeconds(1));
    assertThat(marked(MARK)).as("after the window: the new mark").isNotEqualTo(first);
    assertThat(headsOf(MARK) - before).isEqualTo(2);
  }

  @Test
  void aMissingMarkIsNotRememberedSoItsUploadIsFoundAtOnce() throws Exception {
    String late = "marks/late-" + UUID.randomUUID() + ".png";
    assertThatThrownBy(() -> marked(late)).isInstanceOf(SourceNotFoundException.class);

    put(late);

    assertThat(marked(late)).isNotBlank();
  }
}
