package dev.derive.infra.template;

import static dev.derive.infra.template.TemplateModel.list;
import static dev.derive.infra.template.TemplateModel.map;
import static org.assertj.core.api.Assertions.assertThat;

import dev.derive.infra.local.RepositoryTemplate;
import dev.derive.infra.local.template.FunctionDefinitions;
import dev.derive.infra.local.template.Intrinsic;
import dev.derive.infra.local.template.IntrinsicResolver;
import dev.derive.infra.local.template.StackReferences;
import dev.derive.infra.local.template.Template;
import java.io.IOException;
import java.nio.file.Files;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;

/**
 * The production rules of {@code template.yaml} (issue 6): queues and their dead-letter queues,
 * event source mappings, alarms, an authorizer on every route, SnapStart globals, storage settings.
 */
class ProductionTemplateTest {
  private static final String ALARM = "AWS::CloudWatch::Alarm";

  private final TemplateModel model = new TemplateModel();
  private final Template template = model.template;

  @Test
  void everyConsumedQueueWaitsSixWorkerTimeoutsAndHasADeadLetterQueue() {
    for (Template.Resource function : model.functions()) {
      for (String queueId : model.consumedQueues(function)) {
        Map<String, Object> queue = template.resource(queueId).properties();
        int visibility = Integer.parseInt(String.valueOf(queue.get("VisibilityTimeout")));
        Map<String, Object> redrive = map(queue.get("RedrivePolicy"));
        int maxReceiveCount = Integer.parseInt(String.valueOf(redrive.get("maxReceiveCount")));

        assertThat(visibility)
            .as("%s VisibilityTimeout vs 6 x %s Timeout", queueId, function.logicalId())
            .isGreaterThanOrEqualTo(6 * model.timeoutSeconds(function));
        assertThat(redrive.get("deadLetterTargetArn"))
            .as(queueId + " dead-letter queue")
            .isInstanceOf(Intrinsic.GetAtt.class);
        assertThat(maxReceiveCount).as(queueId + " maxReceiveCount").isBetween(2, 10);
      }
    }
  }

  @Test
  void deadLetterQueuesKeepMessagesForFourteenDays() {
    assertThat(model.deadLetterQueues()).contains("StepResultsDeadLetterQueue");
    for (String dlq : model.deadLetterQueues()) {
      assertThat(template.resource(dlq).properties())
          .as(dlq)
          .containsEntry("MessageRetentionPeriod", 1209600);
    }
  }

  @Test
  void everyEventSourceMappingReportsBatchItemFailuresWithABatchingWindowAndAConcurrencyCap() {
    for (Template.Resource function : model.functions()) {
      for (Map<String, Object> event : model.sqsEvents(function)) {
        Map<String, Object> properties = map(event.get("Properties"));

        assertThat(list(properties.get("FunctionResponseTypes")))
            .as(function.logicalId())
            .contains("ReportBatchItemFailures");
        assertThat(properties)
            .as(function.logicalId())
            .containsKey("MaximumBatchingWindowInSeconds");
        assertThat(map(properties.get("ScalingConfig")))
            .as(function.logicalId() + " ScalingConfig")
            .containsKey("MaximumConcurrency");
      }
    }
  }

  /**
   * The progress function drains every dead-letter queue (failing the job), so the alarm counts
   * messages received there, not messages visible.
   */
  @Test
  void everyDeadLetterQueueAlarmsOnitsFirstMessage() {
    for (String dlq : model.deadLetterQueues()) {
      // a consumed one counts receives; one nobody consumes (a dead-letter record) its messages
      List<Map<String, Object>> alarms =
          new java.util.ArrayList<>(
              alarmsOn("AWS/SQS", "NumberOfMessagesReceived", "QueueName", dlq).stream()
                  .filter(a -> "Sum".equals(a.get("Statistic")))
                  .toList());
      alarms.addAll(
          alarmsOn("AWS/SQS", "ApproximateNumberOfMessagesVisible", "QueueName", dlq).stream()
              .filter(a -> "Maximum".equals(a.get("Statistic")))
              .toList());
      assertThat(alarms)
          .as("alarm on the first message of " + dlq)
          .anyMatch(a -> "0".equals(String.valueOf(a.get("Threshold"))));
    }
  }

  /** Callbacks that failed every attempt: kept for the operator, consumed by nobody. */
  static final String CALLBACK_DEAD_LETTERS = "CallbackDeadLetterQueue";

  /** Upload events whose presets could not be submitted: redriven by the operator, no job waits. */
  static final String UPLOAD_EVENT_DEAD_LETTERS = "UploadEventsDeadLetterQueue";

  @Test
  void theProgressFunctionConsumesEveryDeadLetterQueue() {
    java.util.Set<String> failingJobs = new java.util.LinkedHashSet<>(model.deadLetterQueues());
    failingJobs.remove(CALLBACK_DEAD_LETTERS); // a dead-letter record: no job waits on it
    failingJobs.remove(UPLOAD_EVENT_DEAD_LETTERS); // neither does an unsubmitted upload event
    assertThat(model.consumedDeadLetterQueues(template.resource("CoordinatorProgressFunction")))
        .containsExactlyInAnyOrderElementsOf(failingJobs);
  }

  @Test
  void everyConsumedQueueAlarmsOnTheAgeOfItsOldestMessage() {
    for (Template.Resource function : model.functions()) {
      for (String queue : model.consumedQueues(function)) {
        assertThat(alarmsOn("AWS/SQS", "ApproximateAgeOfOldestMessage", "QueueName", queue))
            .as("age alarm on " + queue)
            .isNotEmpty();
      }
    }
  }

  @Test
  void everyWorkerAlarmsOnErrors() {
    assertThat(model.workers()).isNotEmpty();
    for (String worker : model.workers().keySet()) {
      assertThat(alarmsOn("AWS/Lambda", "Errors", "FunctionName", worker))
          .as("errors alarm on " + worker)
          .isNotEmpty();
    }
  }

  @Test
  void theApiAlarmsOnItsRateOf5xxAnswers() {
    assertThat(template.resourcesOfType(ALARM))
        .anySatisfy(
            alarm -> {
              List<Map<String, Object>> metrics =
                  list(alarm.properties().get("Metrics")).stream().map(TemplateModel::map).toList();
              assertThat(metrics)
                  .anyMatch(m -> String.valueOf(m.get("Expression")).contains("errors / requests"));
              assertThat(metrics)
                  .anyMatch(m -> String.valueOf(m.get("MetricStat")).contains("MetricName=5xx"));
              assertThat(metrics)
                  .anyMatch(m -> String.valueOf(m.get("MetricStat")).contains("MetricName=Count"));
            });
  }

  @Test
  void everyAlarmNotifiesTheAlarmTopic() {
    assertThat(template.resourcesOfType(ALARM)).isNotEmpty();
    for (Template.Resource alarm : template.resourcesOfType(ALARM)) {
      assertThat(list(alarm.properties().get("AlarmActions")))
          .as(alarm.logicalId())
          .containsExactly(new Intrinsic.Ref("AlarmTopic"));
    }
  }

  @Test
  void everyRouteHasTheAuthorizerOfTheChosenModeAndNoFunctionHasAnAnonymousApiEvent() {
    List<Template.Resource> routes = template.resourcesOfType(FunctionDefinitions.ROUTE_TYPE);
    assertThat(routes).isNotEmpty();
    for (String mode : List.of("AWS_IAM", "JWT")) {
      StackReferences references =
          new StackReferences(template, "s", "us-east-1", Map.of("ApiAuthMode", mode));
      template.resources().keySet().forEach(id -> references.register(id, "ref:" + id, Map.of()));
      for (Template.Resource route : routes) {
        if (route.logicalId().equals(IMAGE_URL_ROUTE)) {
          continue; // signed URLs: theImageUrlRouteIsTheOnlyOneWithoutAnAuthorizer
        }
        Map<String, Object> resolved = IntrinsicResolver.resolveMap(route.properties(), references);

        assertThat(resolved)
            .as(route.logicalId() + " in " + mode)
            .containsEntry("AuthorizationType", mode);
        if (mode.equals("JWT")) {
          assertThat(resolved).containsEntry("AuthorizerId", "ref:HttpApiJwtAuthorizer");
          assertThat(template.resource("HttpApiJwtAuthorizer").isActive(references)).isTrue();
        }
      }
    }
    for (Template.Resource function : model.functions()) {
      assertThat(model.events(function))
          .as(function.logicalId() + " events (an HttpApi/Api event would bypass the authorizer)")
          .allMatch(e -> "SQS".equals(e.get("Type")));
    }
    assertThat(template.resourcesOfType("AWS::Serverless::HttpApi")).isEmpty();
    assertThat(template.resourcesOfType("AWS::Serverless::Api")).isEmpty();
  }

  private static final String IMAGE_URL_ROUTE = "ImageUrlRoute";

  /**
   * Image URLs carry an HMAC signature the function checks first (docs/image-urls.md), so their
   * route has no authorizer; it is GET only, and every {@code /v1/derivatives/...} path, which its
   * pattern would also match, has a more specific route with the authorizer.
   */
  @Test
  void theImageUrlRouteIsTheOnlyOneWithoutAnAuthorizer() {
    StackReferences references = new StackReferences(template, "s", "us-east-1", Map.of());
    template.resources().keySet().forEach(id -> references.register(id, "ref:" + id, Map.of()));
    Map<String, Object> image =
        IntrinsicResolver.resolveMap(template.resource(IMAGE_URL_ROUTE).properties(), references);
    Map<String, Object> derivatives =
        IntrinsicResolver.resolveMap(
            template.resource("DerivativesRoute").properties(), references);

    assertThat(image)
        .containsEntry("RouteKey", "GET /v1/{signature}/{proxy+}")
        .containsEntry("AuthorizationType", "NONE");
    assertThat(derivatives)
        .containsEntry("RouteKey", "ANY /v1/derivatives/{proxy+}")
        .containsEntry("AuthorizationType", "AWS_IAM");
  }

  /**
   * The coordinator answers by the route key, not the path (ApiRoutes, issue 26 item 1): the routes
   * of the template are exactly the three it knows, and only the image route is anonymous. A route
   * added here must be added there, or the function answers it 404.
   */
  @Test
  void theRoutesAreTheThreeTheCoordinatorKnowsByRouteKey() {
    StackReferences references = new StackReferences(template, "s", "us-east-1", Map.of());
    template.resources().keySet().forEach(id -> references.register(id, "ref:" + id, Map.of()));
    Map<String, Object> authorisation = new java.util.TreeMap<>();
    for (var route : template.resourcesOfType("AWS::ApiGatewayV2::Route")) {
      Map<String, Object> properties = IntrinsicResolver.resolveMap(route.properties(), references);
      authorisation.put((String) properties.get("RouteKey"), properties.get("AuthorizationType"));
    }

    assertThat(authorisation)
        .containsExactlyInAnyOrderEntriesOf(
            Map.of(
                "$default", "AWS_IAM",
                "ANY /v1/derivatives/{proxy+}", "AWS_IAM",
                "GET /v1/{signature}/{proxy+}", "NONE"));
  }

  /**
   * Issue 26 item 5: the anonymous image route has a throttle of its own, from its own parameters,
   * smaller than the authenticated routes' by default, so an image URL flood is answered 429 by API
   * Gateway and leaves the authenticated routes' bucket alone.
   */
  @Test
  void theImageUrlRouteHasItsOwnSmallerThrottle() {
    Map<String, Object> stage =
        template.resourcesOfType("AWS::ApiGatewayV2::Stage").getFirst().properties();
    Map<String, Object> imageRoute =
        map(map(stage.get("RouteSettings")).get("GET /v1/{signature}/{proxy+}"));

    assertThat(imageRoute)
        .containsEntry("ThrottlingBurstLimit", new Intrinsic.Ref("ImageUrlThrottlingBurstLimit"))
        .containsEntry("ThrottlingRateLimit", new Intrinsic.Ref("ImageUrlThrottlingRateLimit"));
    assertThat(defaultOf("ImageUrlThrottlingBurstLimit"))
        .isLessThan(defaultOf("ApiThrottlingBurstLimit"));
    assertThat(defaultOf("ImageUrlThrottlingRateLimit"))
        .isLessThan(defaultOf("ApiThrottlingRateLimit"));
  }

  private int defaultOf(String parameter) {
    return Integer.parseInt(template.parameters().get(parameter).defaultValue());
  }

  @Test
  void theJwtAuthorizerTakesIssuerAndAudienceFromParameters() {
    Map<String, Object> jwt =
        map(template.resource("HttpApiJwtAuthorizer").properties().get("JwtConfiguration"));

    assertThat(jwt.get("Issuer")).isEqualTo(new Intrinsic.Ref("JwtIssuer"));
    assertThat(list(jwt.get("Audience"))).containsExactly(new Intrinsic.Ref("JwtAudience"));
  }

  @Test
  void theStageThrottlesAndWritesAccessLogsToALogGroupWithRetention() {
    Map<String, Object> stage =
        template.resourcesOfType("AWS::ApiGatewayV2::Stage").getFirst().properties();
    Map<String, Object> throttling = map(stage.get("DefaultRouteSettings"));
    Object destination = map(stage.get("AccessLogSettings")).get("DestinationArn");

    assertThat(throttling).containsKeys("ThrottlingBurstLimit", "ThrottlingRateLimit");
    assertThat(destination).isInstanceOf(Intrinsic.GetAtt.class);
    String logGroup = ((Intrinsic.GetAtt) destination).logicalId();
    assertThat(template.resource(logGroup).properties())
        .containsEntry("RetentionInDays", new Intrinsic.Ref("LogRetentionDays"));
  }

  /**
   * Zip functions run java25 with the Quarkus handler (the API's behind ApiEntryPoint, which
   * re-encodes the raw path) and SnapStart; a container-image function (the office worker) has
   * neither runtime nor handler (SAM refuses both on an image, so they are each zip function's own
   * rather than the Globals'), its handler in {@code ImageConfig.Command}, and SnapStart off
   * (Lambda has none for images).
   */
  @Test
  void functionsRunJava25WithSnapStartOnPublishedVersionsTracingAndJsonLogs() {
    Map<String, Object> globals = template.globalsFunction();

    assertThat(globals)
        .doesNotContainKeys("Runtime", "Handler", "CodeUri", "Layers", "PackageType")
        .containsEntry("Tracing", "Active")
        .containsKey("AutoPublishAlias");
    assertThat(map(globals.get("SnapStart"))).containsEntry("ApplyOn", "PublishedVersions");
    assertThat(map(globals.get("LoggingConfig"))).containsEntry("LogFormat", "JSON");
    assertThat(list(globals.get("Architectures")))
        .containsExactly(new Intrinsic.Ref("Architecture"));
    assertThat(template.parameters().get("Architecture").defaultValue()).isEqualTo("arm64");
    String handler = "io.quarkus.amazon.lambda.runtime.QuarkusStreamHandler::handleRequest";
    int images = 0;
    for (Template.Resource function : model.functions()) {
      Map<String, Object> properties = function.properties();
      if ("Image".equals(properties.get("PackageType"))) {
        images++;
        assertThat(properties)
            .as(function.logicalId())
            .doesNotContainKeys("Runtime", "Handler", "CodeUri", "Layers");
        assertThat(list(map(properties.get("ImageConfig")).get("Command")))
            .as(function.logicalId())
            .containsExactly(handler);
        assertThat(map(properties.get("SnapStart"))).containsEntry("ApplyOn", "None");
        assertThat(function.metadata()).containsKeys("DockerContext", "Dockerfile");
      } else {
        assertThat(properties)
            .as(function.logicalId())
            .containsEntry("Runtime", "java25")
            .containsEntry(
                "Handler",
                function.logicalId().equals("CoordinatorApiFunction")
                    ? "dev.derive.coordinator.api.ApiEntryPoint::handleRequest"
                    : handler)
            .doesNotContainKey("SnapStart");
      }
      assertThat(properties)
          .as(function.logicalId())
          .doesNotContainKeys("AutoPublishAlias", "Tracing")
          .containsKeys("Timeout", "MemorySize");
      Object logGroup = map(function.properties().get("LoggingConfig")).get("LogGroup");
      assertThat(logGroup)
          .as(function.logicalId() + " log group")
          .isInstanceOf(Intrinsic.Ref.class);
      assertThat(template.resource(((Intrinsic.Ref) logGroup).name()).properties())
          .containsEntry("RetentionInDays", new Intrinsic.Ref("LogRetentionDays"));
    }
    assertThat(images).as("container-image functions (the office worker)").isEqualTo(1);
  }

  @Test
  void bucketsBlockPublicAccessEncryptAcceptOnlyTlsAndExpireByPrefix() {
    for (Template.Resource bucket : template.resourcesOfType("AWS::S3::Bucket")) {
      Map<String, Object> properties = bucket.properties();
      assertThat(map(properties.get("PublicAccessBlockConfiguration")).values())
          .as(bucket.logicalId())
          .hasSize(4)
          .allMatch(Boolean.TRUE::equals);
      assertThat(properties).as(bucket.logicalId()).containsKey("BucketEncryption");
      assertThat(template.resourcesOfType("AWS::S3::BucketPolicy"))
          .as("TLS-only policy on " + bucket.logicalId())
          .anyMatch(
              policy ->
                  new Intrinsic.Ref(bucket.logicalId()).equals(policy.properties().get("Bucket"))
                      && String.valueOf(policy.properties().get("PolicyDocument"))
                          .contains("aws:SecureTransport=false"));
    }
    assertThat(map(template.resource("SourceBucket").properties().get("VersioningConfiguration")))
        .containsEntry("Status", "Enabled");
    List<Map<String, Object>> rules =
        list(
                map(template
                        .resource("DerivativesBucket")
                        .properties()
                        .get("LifecycleConfiguration"))
                    .get("Rules"))
            .stream()
            .map(TemplateModel::map)
            .toList();
    assertThat(rules)
        .anyMatch(rule("derivatives/", "DerivativeRetentionDays"))
        .anyMatch(rule("intermediates/", "IntermediateRetentionDays"));
  }

  @Test
  void theJobsTableIsOnDemandWithTimeToLiveAndPointInTimeRecovery() {
    Map<String, Object> table = template.resource("JobsTable").properties();

    assertThat(table).containsEntry("BillingMode", "PAY_PER_REQUEST");
    assertThat(map(table.get("TimeToLiveSpecification"))).containsEntry("Enabled", true);
    assertThat(map(table.get("PointInTimeRecoverySpecification")))
        .containsEntry("PointInTimeRecoveryEnabled", true);
  }

  @Test
  void outputsNameTheApiTheBucketsAndEveryQueue() throws IOException {
    String text = Files.readString(RepositoryTemplate.path());
    String outputs = text.substring(text.indexOf("\nOutputs:\n"));

    assertThat(outputs).contains("  ApiUrl:", "  SourceBucketName:", "  DerivativesBucketName:");
    for (Template.Resource queue : template.resourcesOfType(TemplateModel.QUEUE)) {
      assertThat(outputs)
          .as("output of " + queue.logicalId())
          .contains("  " + queue.logicalId() + "Url:\n", "!Ref " + queue.logicalId() + "\n");
    }
  }

  @Test
  void parametersCoverAuthStageRetentionLimitsAndPerCapabilitySizing() {
    assertThat(template.parameters())
        .containsKeys(
            "StageName",
            "ApiAuthMode",
            "JwtIssuer",
            "JwtAudience",
            "PresignedUrlExpirySeconds",
            "DerivativeRetentionDays",
            "IntermediateRetentionDays",
            "MaxSourceBytes",
            "MaxImagePixels");
    for (Template.Resource worker : model.workers().values()) {
      Object memory = worker.properties().get("MemorySize");
      assertThat(memory).as(worker.logicalId() + " MemorySize").isInstanceOf(Intrinsic.Ref.class);
      String concurrency =
          String.valueOf(
              map(map(model.sqsEvents(worker).getFirst().get("Properties")).get("ScalingConfig"))
                  .get("MaximumConcurrency"));
      assertThat(concurrency).as(worker.logicalId() + " MaximumConcurrency").contains("Ref[");
    }
  }

  private static Predicate<Map<String, Object>> rule(String prefix, String retentionParameter) {
    return rule ->
        prefix.equals(rule.get("Prefix"))
            && new Intrinsic.Ref(retentionParameter).equals(rule.get("ExpirationInDays"));
  }

  /** Alarms on {@code namespace/metric} whose dimension names {@code resourceId}. */
  private List<Map<String, Object>> alarmsOn(
      String namespace, String metric, String dimension, String resourceId) {
    return template.resourcesOfType(ALARM).stream()
        .map(Template.Resource::properties)
        .filter(a -> namespace.equals(a.get("Namespace")) && metric.equals(a.get("MetricName")))
        .filter(
            a ->
                list(a.get("Dimensions")).stream()
                    .map(TemplateModel::map)
                    .anyMatch(
                        d ->
                            dimension.equals(d.get("Name"))
                                && refersTo(d.get("Value"), resourceId)))
        .toList();
  }

  private static boolean refersTo(Object value, String resourceId) {
    return (value instanceof Intrinsic.Ref ref && ref.name().equals(resourceId))
        || (value instanceof Intrinsic.GetAtt getAtt && getAtt.logicalId().equals(resourceId));
  }
}
