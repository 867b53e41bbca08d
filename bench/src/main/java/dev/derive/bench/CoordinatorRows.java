package dev.derive.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.derive.coordinator.aws.CallbackProducers;
import dev.derive.coordinator.aws.CoordinatorClients;
import dev.derive.coordinator.aws.CoordinatorProducers;
import dev.derive.coordinator.config.CoordinatorConfig;
import dev.derive.coordinator.config.CoordinatorConfigs;
import dev.derive.coordinator.config.DeployedCapabilities;
import dev.derive.coordinator.job.Submission;
import dev.derive.coordinator.service.DerivativeService;
import dev.derive.coordinator.validate.RequestValidator;
import dev.derive.infra.endpoint.AwsClients;
import dev.derive.infra.endpoint.AwsEndpoint;
import dev.derive.infra.endpoint.SdkSystemProperties;
import dev.derive.infra.local.resources.TableProvisioner;
import dev.derive.infra.local.template.Template;
import dev.derive.infra.local.template.TemplateReader;
import dev.derive.protocol.JobStatus;
import dev.derive.protocol.capability.CapabilityDeclarations;
import dev.derive.protocol.capability.CapabilityDescriptor;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.NoSuchKeyException;
import software.amazon.awssdk.services.sqs.SqsClient;

/**
 * {@code cache_hit} and {@code cache_miss}: the coordinator core's {@link DerivativeService} (the
 * API handler's logic without the HTTP emulator in the way) against the AWS endpoint, beside the
 * bare SDK calls on the same endpoint with clients built the way the coordinator builds them
 * ({@link dev.derive.aws.AwsClients#COORDINATOR}).
 *
 * <p>The resources are created here, shaped as {@code template.yaml} shapes them (no function zip
 * is needed): the two buckets, the jobs table and one queue per capability (nothing consumes them:
 * a miss ends at the dispatch).
 */
public final class CoordinatorRows {
  private static final ObjectMapper JSON = new ObjectMapper();

  private final AwsEndpoint endpoint;
  private final Scale scale;
  private final Results results;

  /**
   * @param endpoint the AWS endpoint (moto, started as the tests start it)
   */
  public CoordinatorRows(AwsEndpoint endpoint, Scale scale, Results results) {
    this.endpoint = endpoint;
    this.scale = scale;
    this.results = results;
  }

  /** Measures both rows with {@code photo} as the source. */
  public void run(Path photo) throws Exception {
    String suffix = UUID.randomUUID().toString().substring(0, 8);
    String sourceBucket = "bench-source-" + suffix;
    String derivativesBucket = "bench-derivatives-" + suffix;
    String table = "bench-jobs-" + suffix;
    Map<String, String> env = new HashMap<>();
    try (S3Client admin = AwsClients.s3(endpoint);
        DynamoDbClient dynamoAdmin = AwsClients.dynamoDb(endpoint);
        SqsClient sqsAdmin = AwsClients.sqs(endpoint)) {
      admin.createBucket(b -> b.bucket(sourceBucket));
      admin.createBucket(b -> b.bucket(derivativesBucket));
      admin.putObject(b -> b.bucket(sourceBucket).key("bench/photo.jpg"), photo);
      createJobsTable(dynamoAdmin, table);
      for (CapabilityDescriptor capability : CapabilityDeclarations.inThisSourceTree()) {
        env.put(
            capability.queueUrlVariable(),
            sqsAdmin
                .createQueue(b -> b.queueName("bench-" + capability.name() + "-" + suffix))
                .queueUrl());
      }
    }
    env.put("JOBS_TABLE", table);
    env.put("SOURCE_BUCKET", sourceBucket);
    env.put("DERIVATIVES_BUCKET", derivativesBucket);
    env.put("DERIVE_S3_PATH_STYLE", "true");
    // the declarations of this source tree, as the coordinator's tests read them
    env.put(
        "CAPABILITY_DECLARATIONS",
        CapabilityDeclarations.sourceTreeRoot().toAbsolutePath()
            + "/"
            + CapabilityDeclarations.SOURCE_TREE_PATTERN);
    SdkSystemProperties.set(endpoint);
    // the anchors' bare calls go through the very clients the service uses
    CoordinatorClients clients = new CoordinatorClients(true);
    DerivativeService service = derivativeService(env, clients);
    Map<String, String> forgetful = new HashMap<>(env);
    forgetful.put("CACHE_HIT_MEMORY_SECONDS", "0");
    DerivativeService unremembered = derivativeService(forgetful, clients);
    CoordinatorProducers parts = new CoordinatorProducers();
    RequestValidator validator =
        parts.requestValidator(
            CoordinatorConfigs.deployed(name -> Optional.ofNullable(env.get(name))),
            parts.callbackUrlPolicy(
                CoordinatorConfigs.from(name -> Optional.ofNullable(env.get(name)))));
    S3Client s3 = clients.s3();
    DynamoDbClient dynamoDb = clients.dynamoDb();
    SqsClient sqs = clients.sqs();

    // A hit: the derivative of this request exists.
    JsonNode hitBody = body(256);
    Submission first = service.submit(validator.validate(hitBody), "bench");
    s3.putObject(
        b -> b.bucket(derivativesBucket).key("derivatives/" + first.jobId()),
        RequestBody.fromString("bench"));
    List<Stats> hits =
        Timer.interleaved(
            scale.warmups(),
            scale.runs(),
            run -> expectHit(service.submit(validator.validate(hitBody), "bench")),
            run -> expectHit(unremembered.submit(validator.validate(hitBody), "bench")),
            run ->
                s3.headObject(
                    b -> b.bucket(derivativesBucket).key("derivatives/" + first.jobId())));
    Stats hit = hits.get(0);
    Stats firstHit = hits.get(1);
    Stats head = hits.get(2);
    results.add(
        new Row(
            "cache_hit",
            hit.median(),
            "ms",
            "one bare S3 HEAD (same endpoint, same client)",
            head.median(),
            1.2,
            "DerivativeService.submit in-process incl. validation, a hit this instance saw within"
                + " CACHE_HIT_MEMORY_SECONDS, median of "
                + hit.count()
                + " after "
                + scale.warmups()
                + " warm-ups (the JIT's steady state; the deployed function runs C1 only)"
                + " (p90 "
                + round(hit.p90())
                + " ms): a HEAD of the source (its ETag unchanged), no HEAD of the derivative"));
    results.add(
        new Row(
            "cache_hit_unremembered",
            firstHit.median(),
            "ms",
            "one bare S3 HEAD (same endpoint, same client)",
            head.median(),
            null,
            "as cache_hit with CACHE_HIT_MEMORY_SECONDS=0 (an instance's first hit on a"
                + " derivative), median of "
                + firstHit.count()
                + " (p90 "
                + round(firstHit.p90())
                + " ms): a HEAD of the source (ETag unchanged) and a HEAD of the derivative"));

    // A miss: a new width each run, so every request claims and dispatches a new job.
    String queue = env.get("IMAGE_QUEUE_URL");
    List<Stats> misses =
        Timer.interleaved(
            scale.missWarmups(),
            scale.runs(),
            run -> {
              Submission answer = service.submit(validator.validate(body(1000 + run)), "bench");
              if (answer.status() == JobStatus.SUCCEEDED) {
                throw new IllegalStateException("expected a miss for width " + (1000 + run));
              }
            },
            run -> {
              s3.headObject(b -> b.bucket(sourceBucket).key("bench/photo.jpg"));
              s3.getObjectAsBytes(
                  b -> b.bucket(sourceBucket).key("bench/photo.jpg").range("bytes=0-4095"));
              try {
                s3.headObject(b -> b.bucket(derivativesBucket).key("derivatives/none-" + run));
              } catch (NoSuchKeyException expected) {
                // the cache miss
              } catch (software.amazon.awssdk.services.s3.model.S3Exception e) {
                if (e.statusCode() != 404) {
                  throw e;
                }
              }
              String id = UUID.randomUUID().toString();
              dynamoDb.putItem(
                  b ->
                      b.tableName(table)
                          .item(
                              Map.of(
                                  "jobId", AttributeValue.fromS(id),
                                  "status", AttributeValue.fromS("PENDING")))
                          .conditionExpression("attribute_not_exists(jobId)"));
              sqs.sendMessage(b -> b.queueUrl(queue).messageBody("{\"jobId\":\"" + id + "\"}"));
            });
    Stats miss = misses.get(0);
    Stats bare = misses.get(1);
    results.add(
        new Row(
            "cache_miss",
            miss.median(),
            "ms",
            "bare HEAD+ranged GET source, HEAD cache, cond. PutItem, SendMessage",
            bare.median(),
            1.2,
            "validate → identify (a HEAD, the source is known and unchanged) → plan → cache (HEAD) → claim (PutItem) → dispatch"
                + " (SendMessage) → mark queued (UpdateItem),"
                + " median of "
                + miss.count()
                + " (p90 "
                + round(miss.p90())
                + " ms)"));
  }

  private static void expectHit(Submission answer) {
    if (answer.status() != JobStatus.SUCCEEDED) {
      throw new IllegalStateException("expected a cache hit, got " + answer.status());
    }
  }

  private static JsonNode body(int width) {
    return JSON.createObjectNode()
        .<com.fasterxml.jackson.databind.node.ObjectNode>set(
            "source", JSON.createObjectNode().put("key", "bench/photo.jpg"))
        .set(
            "target",
            JSON.createObjectNode()
                .put("mediaType", "image/jpeg")
                .put("width", width)
                .put("height", width));
  }

  /**
   * Creates the jobs table {@code name} from {@code template.yaml}'s {@code JobsTable} (its key,
   * billing mode and time to live), through the local cloud's provisioner: the template is the one
   * place that shapes it.
   */
  static void createJobsTable(DynamoDbClient dynamoDb, String name) {
    Template template =
        TemplateReader.read(CapabilityDeclarations.sourceTreeRoot().resolve("template.yaml"));
    Map<String, Object> properties = new HashMap<>(template.resource("JobsTable").properties());
    properties.put("TableName", name);
    new TableProvisioner(dynamoDb, "bench").provision("JobsTable", properties);
  }

  static String round(double value) {
    return String.format(java.util.Locale.ROOT, "%.1f", value);
  }

  /**
   * The API function's service over {@code env}, built by the functions' own producers (outside
   * CDI), on {@code clients}.
   */
  private static DerivativeService derivativeService(
      Map<String, String> env, CoordinatorClients clients) {
    CoordinatorConfig config = CoordinatorConfigs.from(name -> Optional.ofNullable(env.get(name)));
    DeployedCapabilities deployed =
        CoordinatorConfigs.deployed(name -> Optional.ofNullable(env.get(name)));
    CoordinatorProducers parts = new CoordinatorProducers();
    CallbackProducers callbacks = new CallbackProducers();
    return parts.derivativeService(
        config,
        deployed,
        parts.objects(clients),
        parts.jobStore(config, clients),
        parts.dispatcher(clients, deployed),
        callbacks.completionNotifier(config, clients, callbacks.outbox(config, clients)),
        parts.lostClaimWatch(config, clients));
  }
}
