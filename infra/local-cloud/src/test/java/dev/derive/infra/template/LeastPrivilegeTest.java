package dev.derive.infra.template;

import static org.assertj.core.api.Assertions.assertThat;

import dev.derive.infra.local.template.Template;
import dev.derive.infra.template.TemplateModel.Grant;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Each function's role allows exactly the actions its code calls, on its own resources: the
 * expected grants are written out per function kind here, and the workers' and the coordinator's
 * SDK calls are read from their source to check nothing they call is missing.
 */
class LeastPrivilegeTest {
  private static final String SOURCE_OBJECTS = "SourceBucket/*";
  private static final String DERIVATIVE_OBJECTS = "DerivativesBucket/derivatives/*";
  private static final String INTERMEDIATE_OBJECTS = "DerivativesBucket/intermediates/*";

  /** SDK v2 client methods and the IAM action each needs (HEAD needs s3:GetObject). */
  private static final Map<String, String> SDK_CALL_ACTIONS =
      Map.ofEntries(
          Map.entry("headObject", "s3:GetObject"),
          Map.entry("getObject", "s3:GetObject"),
          Map.entry("presignGetObject", "s3:GetObject"),
          Map.entry("putObject", "s3:PutObject"),
          Map.entry("presignPutObject", "s3:PutObject"),
          Map.entry("deleteObject", "s3:DeleteObject"),
          Map.entry("copyObject", "s3:PutObject"),
          Map.entry("listObjectsV2", "s3:ListBucket"),
          Map.entry("putItem", "dynamodb:PutItem"),
          Map.entry("getItem", "dynamodb:GetItem"),
          Map.entry("updateItem", "dynamodb:UpdateItem"),
          Map.entry("deleteItem", "dynamodb:DeleteItem"),
          Map.entry("query", "dynamodb:Query"),
          Map.entry("scan", "dynamodb:Scan"),
          Map.entry("transactWriteItems", "dynamodb:PutItem"),
          Map.entry("sendMessage", "sqs:SendMessage"),
          Map.entry("sendMessageBatch", "sqs:SendMessage"));

  private static final Pattern SDK_CALL =
      Pattern.compile("\\b(?:s3|presigner|dynamoDb|sqs)\\.(\\w+)\\(");

  private final TemplateModel model = new TemplateModel();

  /**
   * What submitting a request needs (DerivativeService.submit): read the source and the cache, HEAD
   * missing keys, claim the job, dispatch its first step to any capability.
   */
  private Set<Grant> submitGrants() {
    Set<Grant> grants = new LinkedHashSet<>();
    grants.add(new Grant("s3:GetObject", SOURCE_OBJECTS));
    grants.add(new Grant("s3:GetObjectVersion", SOURCE_OBJECTS));
    grants.add(new Grant("s3:GetObject", DERIVATIVE_OBJECTS));
    grants.add(new Grant("s3:GetObject", INTERMEDIATE_OBJECTS));
    grants.add(new Grant("s3:ListBucket", "SourceBucket"));
    grants.add(new Grant("s3:ListBucket", "DerivativesBucket"));
    grants.add(new Grant("dynamodb:PutItem", "JobsTable"));
    grants.add(new Grant("dynamodb:GetItem", "JobsTable"));
    grants.add(new Grant("dynamodb:UpdateItem", "JobsTable"));
    model.capabilityQueues().forEach(q -> grants.add(new Grant("sqs:SendMessage", q)));
    return grants;
  }

  @Test
  void theCoordinatorApiReadsSourcesPresignsUploadsClaimsJobsAndDispatchesToEveryCapability() {
    Set<Grant> expected = submitGrants();
    expected.add(new Grant("s3:PutObject", "SourceBucket/uploads/*"));
    expected.add(new Grant("events:PutEvents", COMPLETION_BUS));
    expected.add(new Grant("sqs:SendMessage", "CallbackQueue"));

    assertThat(model.grants(model.template.resource("CoordinatorApiFunction")))
        .containsExactlyInAnyOrderElementsOf(expected);
  }

  @Test
  void theProgressFunctionAdvancesJobsAndDispatchesToEveryCapability() {
    Set<Grant> expected = new LinkedHashSet<>();
    expected.add(new Grant("dynamodb:GetItem", "JobsTable"));
    expected.add(new Grant("dynamodb:UpdateItem", "JobsTable"));
    model.capabilityQueues().forEach(q -> expected.add(new Grant("sqs:SendMessage", q)));
    expected.add(new Grant("events:PutEvents", COMPLETION_BUS));
    expected.add(new Grant("sqs:SendMessage", "CallbackQueue"));

    assertThat(model.grants(model.template.resource("CoordinatorProgressFunction")))
        .containsExactlyInAnyOrderElementsOf(expected);
  }

  /**
   * The upload-events function submits like the API, without presigning; a job it ends (its first
   * step not queued) is published with the callbacks other requests registered on it.
   */
  @Test
  void theUploadEventsFunctionReadsSourcesClaimsJobsDispatchesAndPublishesWhatItEnds() {
    Set<Grant> expected = submitGrants();
    expected.add(new Grant("events:PutEvents", COMPLETION_BUS));
    expected.add(new Grant("sqs:SendMessage", "CallbackQueue"));

    assertThat(model.grants(model.template.resource("CoordinatorUploadEventsFunction")))
        .containsExactlyInAnyOrderElementsOf(expected);
  }

  /** The bus completion events go to: the stack's own, or the one {@code EventBusName} names. */
  private static final String COMPLETION_BUS =
      "EventBus or arn:${AWS::Partition}:events:${AWS::Region}:${AWS::AccountId}:event-bus/"
          + "${EventBusName}";

  /** Besides its queue, only the signing secret (a conditional statement, not counted here). */
  @Test
  void theCallbackFunctionOnlyPausesItsOwnQueue() {
    assertThat(model.grants(model.template.resource("CallbackFunction")))
        .containsExactly(new Grant("sqs:ChangeMessageVisibility", "CallbackQueue"));
  }

  /**
   * Besides its inputs, outputs and step results, a worker may put a message of its own queue back
   * as a fresh copy (a process being replaced starts nothing; {@code SqsStepRequeue}), and no other
   * queue's.
   */
  @Test
  void everyWorkerReadsItsInputsWritesItsOutputAndReportsToStepResultsOnly() {
    Set<Grant> common =
        Set.of(
            new Grant("s3:GetObject", SOURCE_OBJECTS),
            new Grant("s3:GetObjectVersion", SOURCE_OBJECTS),
            new Grant("s3:GetObject", DERIVATIVE_OBJECTS),
            new Grant("s3:PutObject", DERIVATIVE_OBJECTS),
            new Grant("s3:GetObject", INTERMEDIATE_OBJECTS),
            new Grant("s3:PutObject", INTERMEDIATE_OBJECTS),
            new Grant("s3:ListBucket", "DerivativesBucket"),
            new Grant("sqs:SendMessage", TemplateModel.STEP_RESULTS_QUEUE));

    assertThat(model.workers()).isNotEmpty();
    model
        .workers()
        .forEach(
            (id, worker) -> {
              Set<Grant> expected = new LinkedHashSet<>(common);
              for (String own : model.consumedQueues(worker)) {
                expected.add(new Grant("sqs:GetQueueUrl", own));
                expected.add(new Grant("sqs:SendMessage", own));
              }
              assertThat(model.grants(worker)).as(id).containsExactlyInAnyOrderElementsOf(expected);
            });
  }

  @Test
  void everyFunctionIsOneOfTheKindsWhoseGrantsAreChecked() {
    Set<String> checked = new LinkedHashSet<>(model.workers().keySet());
    checked.add("CoordinatorApiFunction");
    checked.add("CoordinatorProgressFunction");
    checked.add("CoordinatorUploadEventsFunction");
    checked.add("CallbackFunction");

    assertThat(model.functions())
        .extracting(Template.Resource::logicalId)
        .allMatch(checked::contains);
  }

  @Test
  void noGrantUsesAWildcardActionOrResource() {
    for (Template.Resource function : model.functions()) {
      for (Grant grant : model.grants(function)) {
        assertThat(grant.action()).as(function.logicalId()).doesNotContain("*");
        assertThat(grant.resource()).as(function.logicalId()).isNotEqualTo("*");
        if (!grant.action().startsWith("s3:")) {
          assertThat(grant.resource()).as(function.logicalId() + " " + grant).doesNotContain("*");
        }
      }
    }
  }

  @Test
  void everySdkCallOfAWorkerIsGrantedToIt() {
    for (Map.Entry<String, Template.Resource> worker : model.workers().entrySet()) {
      Path module = moduleOf(worker.getValue());
      Set<String> used = new LinkedHashSet<>(actionsCalledIn(module));
      used.addAll(actionsCalledIn(model.root().resolve("worker-functions/worker-runtime")));
      Set<String> granted = new LinkedHashSet<>();
      model.grants(worker.getValue()).forEach(g -> granted.add(g.action()));

      assertThat(used).as(worker.getKey() + " calls (" + module + ")").isNotEmpty();
      assertThat(granted).as(worker.getKey()).containsAll(used);
    }
  }

  @Test
  void everySdkCallOfTheCoordinatorIsGrantedToTheApiFunction() {
    Set<String> used =
        new LinkedHashSet<>(
            actionsCalledIn(model.root().resolve("coordinator-function/coordinator-core")));
    used.addAll(actionsCalledIn(model.root().resolve("coordinator-function/coordinator-api")));
    Set<String> granted = new LinkedHashSet<>();
    model
        .grants(model.template.resource("CoordinatorApiFunction"))
        .forEach(g -> granted.add(g.action()));

    assertThat(used).contains("dynamodb:PutItem", "sqs:SendMessage");
    assertThat(granted).containsAll(used);
  }

  /** The module folder {@code function} is built from ({@link TemplateModel#module}). */
  private Path moduleOf(Template.Resource function) {
    return model.root().resolve(model.module(function));
  }

  private static Set<String> actionsCalledIn(Path module) {
    Path sources = module.resolve("src/main/java");
    Set<String> actions = new LinkedHashSet<>();
    if (!Files.isDirectory(sources)) {
      throw new AssertionError("no sources at " + sources);
    }
    try (Stream<Path> files = Files.walk(sources)) {
      for (Path file : files.filter(f -> f.toString().endsWith(".java")).toList()) {
        Matcher matcher = SDK_CALL.matcher(Files.readString(file));
        while (matcher.find()) {
          String action = SDK_CALL_ACTIONS.get(matcher.group(1));
          if (action != null) {
            actions.add(action);
          }
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return actions;
  }
}
