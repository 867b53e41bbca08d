package dev.derive.infra.local;

import dev.derive.infra.endpoint.AwsClients;
import dev.derive.infra.endpoint.AwsEndpoint;
import dev.derive.infra.endpoint.AwsEndpoints;
import dev.derive.infra.local.http.ConsoleSite;
import dev.derive.infra.local.http.HttpApiServer;
import dev.derive.infra.local.http.HttpEventMapper;
import dev.derive.infra.local.http.Route;
import dev.derive.infra.local.http.RouteTable;
import dev.derive.infra.local.lambda.FunctionFiles;
import dev.derive.infra.local.lambda.FunctionInvoker;
import dev.derive.infra.local.lambda.FunctionLauncher;
import dev.derive.infra.local.lambda.FunctionLog;
import dev.derive.infra.local.lambda.FunctionPool;
import dev.derive.infra.local.lambda.FunctionStartException;
import dev.derive.infra.local.lambda.InvocationResult;
import dev.derive.infra.local.lambda.Parallel;
import dev.derive.infra.local.lambda.RuntimeClasspath;
import dev.derive.infra.local.resources.BucketProvisioner;
import dev.derive.infra.local.resources.EventBusProvisioner;
import dev.derive.infra.local.resources.ProvisionedResource;
import dev.derive.infra.local.resources.QueueProvisioner;
import dev.derive.infra.local.resources.RuleProvisioner;
import dev.derive.infra.local.resources.StackProvisioner;
import dev.derive.infra.local.resources.TableProvisioner;
import dev.derive.infra.local.sqs.SqsEventSourceMapping;
import dev.derive.infra.local.template.FunctionDefinition;
import dev.derive.infra.local.template.FunctionDefinitions;
import dev.derive.infra.local.template.PropertyOverrides;
import dev.derive.infra.local.template.StackReferences;
import dev.derive.infra.local.template.Template;
import dev.derive.infra.local.template.TemplateReader;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.eventbridge.EventBridgeClient;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.sqs.SqsClient;

/**
 * Runs a SAM template locally: creates its buckets, queues, tables, event buses and rules on an AWS
 * endpoint (moto by default), starts one warm instance of each function (in parallel) in its own
 * JVM with the AWS Lambda runtime interface client, serves the HTTP API and polls each SQS event
 * source. Usable from tests ({@link #start}) and from the command line ({@link LocalCloudMain}).
 *
 * <p>After the start-up sequence it is the facade tests, the bench and the CLI read the running
 * stack through (one short accessor each: bucket, queue, table, function log, delivered messages,
 * busy instances); the parts of starting live in their own classes.
 */
// Over 300 lines because it is the facade tests, bench and CLI read the stack through.
public final class LocalCloud implements AutoCloseable, FunctionInvoker {
  private final LocalCloudOptions options;
  private final List<AutoCloseable> toClose = new ArrayList<>();
  private final Map<String, FunctionPool> pools = new LinkedHashMap<>();
  private final Map<String, FunctionLog> logs = new LinkedHashMap<>();
  private final Map<String, AtomicLong> delivered = new LinkedHashMap<>();
  private final AwsEndpoint endpoint;
  private Map<String, ProvisionedResource> resources = Map.of();
  private HttpApiServer httpApi;

  private LocalCloud(LocalCloudOptions options, AwsEndpoint endpoint) {
    this.options = options;
    this.endpoint = endpoint;
  }

  /**
   * Starts everything and returns once every function has one initialised instance.
   *
   * @throws dev.derive.infra.local.template.TemplateException if the template cannot be run
   * @throws dev.derive.infra.local.resources.ResourceProvisioningException if a resource cannot be
   *     created
   * @throws FunctionStartException if a function's code is missing or it fails to initialise
   * @throws dev.derive.infra.endpoint.EndpointUnavailableException if no AWS endpoint is available
   */
  public static LocalCloud start(LocalCloudOptions options) {
    try {
      Files.createDirectories(options.workDir());
    } catch (IOException e) {
      throw new UncheckedIOException("cannot create " + options.workDir(), e);
    }
    Template template =
        PropertyOverrides.apply(
            TemplateReader.read(options.template()), options.propertyOverrides());
    boolean ownsEndpoint = options.endpoint() == null;
    AwsEndpoint endpoint =
        ownsEndpoint ? AwsEndpoints.startDefault(options.workDir()) : options.endpoint();
    LocalCloud cloud = new LocalCloud(options, endpoint);
    if (ownsEndpoint) {
      cloud.toClose.add(endpoint);
    }
    try {
      cloud.run(template);
      return cloud;
    } catch (RuntimeException e) {
      cloud.close();
      throw e;
    }
  }

  private void run(Template template) {
    String region = endpoint.region();
    S3Client s3 = closing(AwsClients.s3(endpoint));
    SqsClient sqs = closing(AwsClients.sqs(endpoint));
    DynamoDbClient dynamoDb = closing(AwsClients.dynamoDb(endpoint));
    EventBridgeClient events = closing(AwsClients.eventBridge(endpoint));
    StackReferences references =
        new StackReferences(
            template,
            options.stackName(),
            region,
            HostArchitecture.parameters(template, options.parameterOverrides(), options.log()));
    StackProvisioner provisioner =
        new StackProvisioner(
            List.of(
                new BucketProvisioner(s3, options.stackName()),
                new QueueProvisioner(sqs, options.stackName()),
                new TableProvisioner(dynamoDb, options.stackName()),
                new EventBusProvisioner(events, options.stackName()),
                new RuleProvisioner(events, options.stackName(), options.log())),
            options.stackName(),
            region,
            options.log());
    resources = provisioner.provision(template, references);

    List<FunctionDefinition> functions =
        FunctionDefinitions.read(template, references, options.stackName());
    HostArchitecture.warnAboutOthers(functions, options.log());
    FunctionLauncher launcher =
        new FunctionLauncher(
            RuntimeClasspath.locate(),
            RuntimeClasspath.nativeLibrary(options.workDir().resolve("runtime")),
            FunctionLauncher.currentJava(),
            endpoint.environment(),
            region);
    Map<String, FunctionFiles> files = FunctionFiles.extractAll(functions, options.workDir());
    for (FunctionDefinition function : functions) {
      FunctionLog log = new FunctionLog(function.logicalId(), 5000, options.log());
      FunctionPool pool =
          new FunctionPool(
              function,
              resources.get(function.logicalId()).attributes().get("Arn"),
              files.get(function.logicalId()),
              launcher,
              log,
              concurrency(function),
              options.initTimeout());
      logs.put(function.logicalId(), log);
      pools.put(function.logicalId(), pool);
      delivered.put(function.logicalId(), new AtomicLong());
      toClose.add(pool);
    }
    Parallel.runAll(pools.values(), FunctionPool::warmUp);

    List<Route> routes = new ArrayList<>();
    for (FunctionDefinition function : functions) {
      function
          .httpApiEvents()
          .forEach(e -> routes.add(new Route(e.method(), e.path(), function.logicalId())));
    }
    httpApi =
        HttpApiServer.start(
            options.httpPort(),
            ConsoleSite.packaged(),
            new RouteTable(routes),
            new HttpEventMapper(StackProvisioner.LOCAL_API_ID, StackReferences.ACCOUNT_ID, region),
            this,
            options.log(),
            options.integrationTimeout());
    toClose.add(httpApi);

    EventSourceMappings mappings = new EventSourceMappings(sqs, resources, this, options, region);
    for (FunctionDefinition function : functions) {
      mappings.start(function, delivered.get(function.logicalId()), toClose::add);
    }
  }

  /** Reserved concurrency if set, else enough for its HTTP routes and SQS pollers. */
  private int concurrency(FunctionDefinition function) {
    if (function.reservedConcurrency().isPresent()) {
      return Math.max(1, function.reservedConcurrency().getAsInt());
    }
    int total = function.httpApiEvents().isEmpty() ? 0 : options.defaultConcurrency();
    for (FunctionDefinition.SqsEvent event : function.sqsEvents()) {
      total += event.maximumConcurrency().orElse(options.defaultConcurrency());
    }
    return Math.max(1, total);
  }

  private <T extends AutoCloseable> T closing(T resource) {
    toClose.add(resource);
    return resource;
  }

  @Override
  public InvocationResult invoke(String logicalId, byte[] event) {
    return pool(logicalId).invoke(event);
  }

  /** The HTTP API's base URI, e.g. {@code http://127.0.0.1:3000}. */
  public URI apiUri() {
    return httpApi.uri();
  }

  /** The AWS endpoint the resources live on. */
  public AwsEndpoint endpoint() {
    return endpoint;
  }

  /** The created resources by logical id (functions and APIs included). */
  public Map<String, ProvisionedResource> resources() {
    return resources;
  }

  /**
   * The name of the bucket {@code logicalId}.
   *
   * @throws IllegalArgumentException if there is no such bucket
   */
  public String bucketName(String logicalId) {
    return resource(logicalId, "AWS::S3::Bucket").reference();
  }

  /**
   * The URL of the queue {@code logicalId}.
   *
   * @throws IllegalArgumentException if there is no such queue
   */
  public String queueUrl(String logicalId) {
    return resource(logicalId, "AWS::SQS::Queue").reference();
  }

  /**
   * The ARN of the queue {@code logicalId}.
   *
   * @throws IllegalArgumentException if there is no such queue
   */
  public String queueArn(String logicalId) {
    return resource(logicalId, "AWS::SQS::Queue").attributes().get("Arn");
  }

  /**
   * The name of the table {@code logicalId}.
   *
   * @throws IllegalArgumentException if there is no such table
   */
  public String tableName(String logicalId) {
    return resource(logicalId, "AWS::DynamoDB::Table").reference();
  }

  /**
   * The kept log lines of function {@code logicalId} (its output and the START/END/REPORT lines),
   * oldest first.
   *
   * @throws IllegalArgumentException if there is no such function
   */
  public List<String> functionLog(String logicalId) {
    FunctionLog log = logs.get(logicalId);
    if (log == null) {
      throw new IllegalArgumentException(
          "no function " + logicalId + "; functions: " + logs.keySet());
    }
    return log.lines();
  }

  /**
   * How many SQS messages have been handed to function {@code logicalId} (redeliveries included).
   *
   * @throws IllegalArgumentException if there is no such function
   */
  public long deliveredMessages(String logicalId) {
    AtomicLong count = delivered.get(logicalId);
    if (count == null) {
      throw new IllegalArgumentException(
          "no function " + logicalId + "; functions: " + logs.keySet());
    }
    return count.get();
  }

  /**
   * The process ids of function {@code logicalId}'s instances that are running an invocation right
   * now (a test seam: killing one loses that execution environment mid-invocation, as Lambda can;
   * the invocation fails with {@code Runtime.ExitError} and the next starts a new instance).
   *
   * @throws IllegalArgumentException if there is no such function
   */
  public List<Long> busyProcessIds(String logicalId) {
    return pool(logicalId).busyProcessIds();
  }

  private FunctionPool pool(String logicalId) {
    FunctionPool pool = pools.get(logicalId);
    if (pool == null) {
      throw new IllegalArgumentException(
          "no function " + logicalId + "; functions: " + pools.keySet());
    }
    return pool;
  }

  private ProvisionedResource resource(String logicalId, String type) {
    ProvisionedResource resource = resources.get(logicalId);
    if (resource == null || !resource.type().equals(type)) {
      throw new IllegalArgumentException("no " + type + " " + logicalId + " in the template");
    }
    return resource;
  }

  /**
   * Stops the HTTP API, the pollers, every function instance and, if this local cloud started it,
   * the AWS endpoint; in the reverse order of starting.
   */
  @Override
  public void close() {
    // Every poller first: moto may stop at the same time (its own shutdown hook, or Ctrl-C reaching
    // its process group), and a mapping still polling would log each refused connection.
    for (AutoCloseable closeable : toClose) {
      if (closeable instanceof SqsEventSourceMapping mapping) {
        mapping.stop();
      }
    }
    for (int i = toClose.size() - 1; i >= 0; i--) {
      try {
        toClose.get(i).close();
      } catch (Exception e) {
        options.log().accept("while stopping: " + e);
      }
    }
    toClose.clear();
  }
}
