package dev.derive.infra.local;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.fail;

import dev.derive.coordinator.config.CoordinatorConfigs;
import dev.derive.infra.local.template.FunctionDefinition;
import dev.derive.infra.local.template.FunctionDefinitions;
import dev.derive.infra.local.template.IntrinsicResolver;
import dev.derive.infra.local.template.StackReferences;
import dev.derive.infra.local.template.Template;
import dev.derive.infra.local.template.TemplateReader;
import dev.derive.protocol.capability.CapabilityDeclarations;
import dev.derive.protocol.capability.CapabilityDescriptor;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;
import java.util.zip.ZipInputStream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Cross-checks the repository's {@code template.yaml} against the artifacts it deploys, generically
 * for every function the template has (functions added later are checked too):
 *
 * <ul>
 *   <li>the handler class exists in the {@code CodeUri} zip, at its root or in a jar under {@code
 *       lib/} (for Quarkus functions {@code io.quarkus.amazon.lambda.runtime.QuarkusStreamHandler}
 *       in the {@code quarkus-amazon-lambda} jar);
 *   <li>every environment variable the function's code requires is defined for that function
 *       (Globals merged). "Required" is read from the artifact itself, two ways: (1) each {@code
 *       ${NAME}} placeholder without a default ({@code ${NAME:default}} is optional) in the {@code
 *       application.properties} at the zip root whose NAME is not a key of that file — Quarkus
 *       resolves such a placeholder from the environment and fails at start-up without it; (2) for
 *       an artifact holding {@code coordinator-core}, the names its configuration mapping requires
 *       ({@link CoordinatorConfigs#requiredVariables}: neither a default nor optional). Variables
 *       Lambda or the local cloud set themselves ({@code AWS_*}, {@code DERIVE_S3_PATH_STYLE})
 *       count as defined;
 *   <li>every SQS event source reads a queue with a {@code RedrivePolicy} whose dead-letter target
 *       is a queue of the template and whose {@code maxReceiveCount} is set, and whose {@code
 *       VisibilityTimeout} (SQS's default 30 s if absent) is at least six times the function's
 *       {@code Timeout}, as AWS advises for SQS event sources.
 * </ul>
 *
 * The function zips must have been built ({@code ./derive build}); a missing one fails the test.
 */
class TemplateCrossCheckTest {
  private static final Pattern PLACEHOLDER = Pattern.compile("\\$\\{([A-Za-z0-9_.\\-]+)(:[^}]*)?}");
  private static final Pattern ENV_NAME = Pattern.compile("[A-Z][A-Z0-9_]*");
  private static final String QUEUE = "AWS::SQS::Queue";

  private static Template template;
  private static List<FunctionDefinition> functions;
  private static final Map<String, String> queueIdByArn = new LinkedHashMap<>();

  @BeforeAll
  static void read() {
    template = TemplateReader.read(RepositoryTemplate.path());
    StackReferences references =
        new StackReferences(template, "cross-check", "us-east-1", Map.of());
    for (Template.Resource resource : template.resources().values()) {
      String id = resource.logicalId();
      String arn = "arn:aws:cross-check:us-east-1:123456789012:" + id;
      references.register(
          id,
          resource.type().equals(QUEUE)
              ? "https://sqs.us-east-1.amazonaws.com/123456789012/" + id
              : id,
          Map.of("Arn", arn, "QueueName", id, "QueueUrl", id, "Name", id, "DomainName", id));
      if (resource.type().equals(QUEUE)) {
        queueIdByArn.put(arn, id);
      }
    }
    functions = FunctionDefinitions.read(template, references, "cross-check");
    assertThat(functions).as("functions in template.yaml").isNotEmpty();
    templateReferences = references;
  }

  private static StackReferences templateReferences;

  @Test
  void everyHandlerExistsInTheArtifactItsFunctionPointsAt() throws IOException {
    List<String> problems = new ArrayList<>();
    for (FunctionDefinition function : functions) {
      String handlerClass = function.handler().split("::")[0];
      String entry = handlerClass.replace('.', '/') + ".class";
      if (!containsClass(artifact(function), entry)) {
        problems.add(
            function.logicalId() + ": " + entry + " is not in " + function.code() + " nor lib/*");
      }
    }
    assertThat(problems).isEmpty();
  }

  @Test
  void everyEnvironmentVariableTheCodeRequiresIsDefinedForItsFunction() throws IOException {
    List<String> problems = new ArrayList<>();
    for (FunctionDefinition function : functions) {
      Set<String> required = requiredVariables(artifact(function));
      for (String name : required) {
        if (!function.environment().containsKey(name) && !providedByLambda(name)) {
          problems.add(function.logicalId() + " reads " + name + " but the template defines none");
        }
      }
    }
    assertThat(problems).isEmpty();
  }

  @Test
  void theCoordinatorRequirementsAreFoundInItsArtifact() throws IOException {
    // Guards the check above against finding nothing: the API function needs the jobs table.
    FunctionDefinition api =
        functions.stream()
            .filter(f -> f.logicalId().equals("CoordinatorApiFunction"))
            .findFirst()
            .orElseThrow();

    assertThat(requiredVariables(artifact(api))).contains("JOBS_TABLE", "SOURCE_BUCKET");
  }

  @Test
  void everySqsTriggeredFunctionReadsADeadLetteredQueueWithSixTimesItsTimeoutOfVisibility() {
    List<String> problems = new ArrayList<>();
    for (FunctionDefinition function : functions) {
      for (FunctionDefinition.SqsEvent event : function.sqsEvents()) {
        String queueId = queueIdByArn.get(event.queueArn());
        if (queueId == null) {
          problems.add(
              function.logicalId() + ": " + event.queueArn() + " is no queue of the stack");
          continue;
        }
        Map<String, Object> queue =
            IntrinsicResolver.resolveMap(
                template.resource(queueId).properties(), templateReferences);
        int visibility =
            Integer.parseInt(String.valueOf(queue.getOrDefault("VisibilityTimeout", 30)));
        if (visibility < 6 * function.timeoutSeconds()) {
          problems.add(
              queueId
                  + ": VisibilityTimeout "
                  + visibility
                  + " s < 6 x "
                  + function.logicalId()
                  + "'s Timeout "
                  + function.timeoutSeconds()
                  + " s");
        }
        if (deadLetterQueueIds().contains(queueId)) {
          continue; // the end of the line: a dead letter stays until it is applied or expires
        }
        if (!(queue.get("RedrivePolicy") instanceof Map<?, ?> redrive)) {
          problems.add(queueId + " (read by " + function.logicalId() + ") has no RedrivePolicy");
          continue;
        }
        Object target = redrive.get("deadLetterTargetArn");
        if (target == null || !queueIdByArn.containsKey(String.valueOf(target))) {
          problems.add(queueId + ": deadLetterTargetArn " + target + " is no queue of the stack");
        }
        if (redrive.get("maxReceiveCount") == null) {
          problems.add(queueId + ": RedrivePolicy without maxReceiveCount");
        }
      }
    }
    assertThat(problems).isEmpty();
  }

  /**
   * Issue 26 item 5: every worker and the progress function reserve concurrency (with the
   * parameters' defaults), so a flood elsewhere in the account cannot take theirs, and each
   * reserves at least what its SQS event source mappings may run at once: an event source mapping
   * whose MaximumConcurrency exceeds its function's reserved concurrency gets throttled (AWS's
   * advice for SQS event sources).
   */
  @Test
  void theWorkersAndTheProgressFunctionReserveWhatTheirEventSourcesRunAtOnce() {
    List<String> problems = new ArrayList<>();
    for (FunctionDefinition function : functions) {
      boolean mustReserve =
          function.logicalId().endsWith("WorkerFunction")
              || function.logicalId().equals("CoordinatorProgressFunction");
      if (function.reservedConcurrency().isEmpty()) {
        if (mustReserve) {
          problems.add(function.logicalId() + " reserves no concurrency");
        }
        continue;
      }
      int atOnce = 0;
      for (FunctionDefinition.SqsEvent event : function.sqsEvents()) {
        atOnce += event.maximumConcurrency().orElse(1000);
      }
      if (function.reservedConcurrency().getAsInt() < atOnce) {
        problems.add(
            function.logicalId()
                + " reserves "
                + function.reservedConcurrency().getAsInt()
                + " but its event source mappings run up to "
                + atOnce);
      }
    }
    assertThat(problems).isEmpty();
  }

  /**
   * Every dead-letter queue is read by an event source mapping (so a dead-lettered step fails its
   * job) and is named {@code …-dlq}, the suffix by which the progress function tells dead letters
   * from step results.
   */
  @Test
  void everyDeadLetterQueueIsConsumedAndNamedAsOne() {
    Set<String> read = new LinkedHashSet<>();
    for (FunctionDefinition function : functions) {
      for (FunctionDefinition.SqsEvent event : function.sqsEvents()) {
        read.add(queueIdByArn.get(event.queueArn()));
      }
    }
    assertThat(deadLetterQueueIds()).isNotEmpty();
    for (String dlq : deadLetterQueueIds()) {
      // dead-letter records, read by no function: failed callbacks, unsubmitted upload events
      if (!dlq.equals("CallbackDeadLetterQueue") && !dlq.equals("UploadEventsDeadLetterQueue")) {
        assertThat(read).as("event sources reading %s", dlq).contains(dlq);
      }
      Object name =
          IntrinsicResolver.resolveMap(template.resource(dlq).properties(), templateReferences)
              .get("QueueName");
      assertThat(String.valueOf(name)).as("QueueName of %s", dlq).endsWith("-dlq");
    }
  }

  /**
   * Every capability declared in the source tree is deployed by the template with the time budget
   * it declares (issue 9 item 4, issue 27): the Globals give its {@code <NAME>_QUEUE_URL}; the
   * function reading that queue has the declared {@code timeoutSeconds} as {@code Timeout} (a
   * RUNNING step past it reads overdue); the declared {@code leaseSeconds} covers {@code
   * maxReceiveCount} deliveries, each hiding the message for at most the longer of the queue's
   * {@code VisibilityTimeout} and the worker's {@code Timeout} plus one visibility heartbeat
   * ({@code STEP_VISIBILITY_TIMEOUT_SECONDS}), so a queued step is never reclaimed while its
   * message may still be delivered. A deployment's {@code <NAME>_STEP_LEASE_SECONDS} override must
   * cover it too.
   */
  @Test
  void everyDeclaredCapabilityIsDeployedWithTheTimeBudgetItDeclares() {
    Map<String, FunctionDefinition> workerByQueue = new LinkedHashMap<>();
    for (FunctionDefinition function : functions) {
      for (FunctionDefinition.SqsEvent event : function.sqsEvents()) {
        workerByQueue.put(queueIdByArn.get(event.queueArn()), function);
      }
    }
    FunctionDefinition api =
        functions.stream()
            .filter(f -> f.logicalId().equals("CoordinatorApiFunction"))
            .findFirst()
            .orElseThrow();
    List<CapabilityDescriptor> declared = CapabilityDeclarations.inThisSourceTree();
    assertThat(declared).as("declarations in the source tree").isNotEmpty();
    List<String> problems = new ArrayList<>();
    for (CapabilityDescriptor capability : declared) {
      String queueUrl = api.environment().get(capability.queueUrlVariable());
      if (queueUrl == null) {
        problems.add(capability.name() + ": no " + capability.queueUrlVariable() + " in Globals");
        continue;
      }
      String queueId = queueUrl.substring(queueUrl.lastIndexOf('/') + 1);
      FunctionDefinition worker = workerByQueue.get(queueId);
      if (worker == null) {
        problems.add(capability.name() + ": no function reads " + queueId);
        continue;
      }
      if (worker.timeoutSeconds() != capability.timeBudget().timeoutSeconds()) {
        problems.add(
            capability.name()
                + ": declared timeoutSeconds "
                + capability.timeBudget().timeoutSeconds()
                + " but "
                + worker.logicalId()
                + " has Timeout "
                + worker.timeoutSeconds());
      }
      Map<String, Object> queue =
          IntrinsicResolver.resolveMap(template.resource(queueId).properties(), templateReferences);
      int visibility =
          Integer.parseInt(String.valueOf(queue.getOrDefault("VisibilityTimeout", 30)));
      Map<?, ?> redrive = (Map<?, ?>) queue.get("RedrivePolicy");
      int receives = Integer.parseInt(String.valueOf(redrive.get("maxReceiveCount")));
      List<Long> leases = new ArrayList<>(List.of((long) capability.timeBudget().leaseSeconds()));
      String override =
          capability.name().toUpperCase(java.util.Locale.ROOT) + "_STEP_LEASE_SECONDS";
      functions.stream()
          .map(f -> f.environment().get(override))
          .filter(java.util.Objects::nonNull)
          .forEach(v -> leases.add(Long.parseLong(v)));
      // A delivery hides its message for the queue's VisibilityTimeout until the worker's first
      // beat, then up to the worker's Timeout plus one beat's visibility (the heartbeat stops with
      // the invocation): the longer of the two bounds each delivery.
      String beat = worker.environment().get("STEP_VISIBILITY_TIMEOUT_SECONDS");
      if (beat == null) {
        problems.add(worker.logicalId() + ": no STEP_VISIBILITY_TIMEOUT_SECONDS");
        continue;
      }
      long heldAtMost = Math.max(visibility, worker.timeoutSeconds() + Long.parseLong(beat));
      for (long lease : leases) {
        if (lease < heldAtMost * receives) {
          problems.add(
              capability.name()
                  + ": lease "
                  + lease
                  + " s < "
                  + heldAtMost
                  + " s (the longer of "
                  + queueId
                  + "'s "
                  + visibility
                  + " s and the worker's Timeout plus a beat) x "
                  + receives);
        }
      }
    }
    assertThat(problems).isEmpty();
  }

  /** The queues some queue's {@code RedrivePolicy} names as its dead-letter target. */
  private static Set<String> deadLetterQueueIds() {
    Set<String> ids = new LinkedHashSet<>();
    for (Template.Resource resource : template.resources().values()) {
      if (!resource.type().equals(QUEUE)) {
        continue;
      }
      Map<String, Object> queue =
          IntrinsicResolver.resolveMap(resource.properties(), templateReferences);
      if (queue.get("RedrivePolicy") instanceof Map<?, ?> redrive) {
        ids.add(queueIdByArn.get(String.valueOf(redrive.get("deadLetterTargetArn"))));
      }
    }
    return ids;
  }

  private static Path artifact(FunctionDefinition function) {
    if (!Files.isRegularFile(function.code())) {
      fail(
          function.code()
              + " (CodeUri of "
              + function.logicalId()
              + ") is missing: ./derive build");
    }
    return function.code();
  }

  /** Whether {@code entry} is at the zip's root or inside one of its {@code lib/*.jar}. */
  private static boolean containsClass(Path zip, String entry) throws IOException {
    try (ZipFile file = new ZipFile(zip.toFile())) {
      if (file.getEntry(entry) != null) {
        return true;
      }
      for (ZipEntry jar : file.stream().toList()) {
        if (jar.getName().startsWith("lib/") && jar.getName().endsWith(".jar")) {
          try (ZipInputStream in = new ZipInputStream(file.getInputStream(jar))) {
            for (ZipEntry inner = in.getNextEntry(); inner != null; inner = in.getNextEntry()) {
              if (inner.getName().equals(entry)) {
                return true;
              }
            }
          }
        }
      }
    }
    return false;
  }

  private static Set<String> requiredVariables(Path zip) throws IOException {
    Set<String> required = new LinkedHashSet<>();
    try (ZipFile file = new ZipFile(zip.toFile())) {
      ZipEntry properties = file.getEntry("application.properties");
      if (properties != null) {
        String text;
        try (InputStream in = file.getInputStream(properties)) {
          text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        required.addAll(placeholdersWithoutDefault(text));
      }
      boolean coordinator =
          file.stream()
              .anyMatch(e -> e.getName().matches("lib/dev\\.derive\\.coordinator-core-.*\\.jar"));
      if (coordinator) {
        required.addAll(coordinatorRequirements());
      }
    }
    return required;
  }

  /** {@code ${NAME}} placeholders without a default whose NAME is an environment-style name. */
  static Set<String> placeholdersWithoutDefault(String propertiesText) throws IOException {
    Properties keys = new Properties();
    keys.load(new StringReader(propertiesText));
    Set<String> names = new LinkedHashSet<>();
    Matcher matcher = PLACEHOLDER.matcher(propertiesText);
    while (matcher.find()) {
      String name = matcher.group(1);
      if (matcher.group(2) == null && ENV_NAME.matcher(name).matches() && !keys.containsKey(name)) {
        names.add(name);
      }
    }
    return names;
  }

  /** The names the coordinator's configuration cannot do without. */
  private static Set<String> coordinatorRequirements() {
    return CoordinatorConfigs.requiredVariables();
  }

  private static boolean providedByLambda(String name) {
    return name.startsWith("AWS_")
        || name.startsWith("LAMBDA_")
        || name.equals("_HANDLER")
        || name.equals("DERIVE_S3_PATH_STYLE")
        || name.equals("TZ");
  }

  @Test
  void placeholdersWithADefaultOrDefinedInTheFileAreNotRequired() throws IOException {
    assertThat(
            placeholdersWithoutDefault(
                "a=${QUEUE_URL}\nb=${LIMIT:5}\nc=${derive.x}\nOWN=1\nd=${OWN}\n"))
        .containsExactly("QUEUE_URL");
  }

  @SuppressWarnings("unused")
  private static InputStream bytes(String text) {
    return new ByteArrayInputStream(text.getBytes(StandardCharsets.UTF_8));
  }
}
