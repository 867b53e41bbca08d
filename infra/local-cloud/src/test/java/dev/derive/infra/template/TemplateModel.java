package dev.derive.infra.template;

import dev.derive.infra.local.RepositoryTemplate;
import dev.derive.infra.local.template.Intrinsic;
import dev.derive.infra.local.template.Template;
import dev.derive.infra.local.template.TemplateReader;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The repository's {@code template.yaml} as the template tests see it: functions, which of them are
 * workers (an SQS event source other than the step-results queue), the queues they consume,
 * dead-letter queues, and IAM statements with resources written in a comparable form ({@code
 * SourceBucket/uploads/*} for {@code !Sub "${SourceBucket.Arn}/uploads/*"}, {@code JobsTable} for
 * {@code !GetAtt JobsTable.Arn}).
 */
final class TemplateModel {
  static final String FUNCTION = "AWS::Serverless::Function";
  static final String QUEUE = "AWS::SQS::Queue";
  static final String STEP_RESULTS_QUEUE = "StepResultsQueue";

  final Template template = TemplateReader.read(RepositoryTemplate.path());

  /** The repository root (the template's folder). */
  Path root() {
    return template.directory();
  }

  List<Template.Resource> functions() {
    return template.resourcesOfType(FUNCTION);
  }

  /**
   * The capability workers by logical id: functions built from {@code worker-functions/} with an
   * SQS event on a queue other than the step-results queue (the coordinator's functions consume
   * queues too: step results, dead letters, upload events, callbacks).
   */
  Map<String, Template.Resource> workers() {
    Map<String, Template.Resource> workers = new LinkedHashMap<>();
    for (Template.Resource function : functions()) {
      boolean workerCode = module(function).startsWith("worker-functions");
      if (workerCode
          && consumedQueues(function).stream().anyMatch(q -> !q.equals(STEP_RESULTS_QUEUE))) {
        workers.put(function.logicalId(), function);
      }
    }
    return workers;
  }

  /**
   * The module {@code function} is built from, relative to the root: {@code worker-functions/x} for
   * a {@code CodeUri} of {@code worker-functions/x/target/function.zip}, the {@code DockerContext}
   * of a container image.
   */
  Path module(Template.Resource function) {
    Object context = function.metadata().get("DockerContext");
    if ("Image".equals(function.properties().get("PackageType")) && context != null) {
      return Path.of(String.valueOf(context));
    }
    return Path.of(String.valueOf(function.properties().get("CodeUri"))).getParent().getParent();
  }

  /** The queues the workers consume: one per capability. */
  Set<String> capabilityQueues() {
    Set<String> queues = new LinkedHashSet<>();
    workers().values().forEach(w -> queues.addAll(consumedQueues(w)));
    return queues;
  }

  /**
   * The logical ids of the work queues {@code function}'s SQS events consume: every queue it reads
   * except dead-letter queues (see {@link #consumedDeadLetterQueues}).
   */
  List<String> consumedQueues(Template.Resource function) {
    List<String> queues = readQueues(function);
    queues.removeAll(deadLetterQueues());
    return queues;
  }

  /** The dead-letter queues {@code function}'s SQS events consume (the progress function's). */
  List<String> consumedDeadLetterQueues(Template.Resource function) {
    List<String> queues = readQueues(function);
    queues.retainAll(deadLetterQueues());
    return queues;
  }

  private List<String> readQueues(Template.Resource function) {
    List<String> queues = new ArrayList<>();
    for (Map<String, Object> event : sqsEvents(function)) {
      if (map(event.get("Properties")).get("Queue") instanceof Intrinsic.GetAtt getAtt) {
        queues.add(getAtt.logicalId());
      }
    }
    return queues;
  }

  List<Map<String, Object>> sqsEvents(Template.Resource function) {
    return events(function).stream().filter(e -> "SQS".equals(e.get("Type"))).toList();
  }

  List<Map<String, Object>> events(Template.Resource function) {
    return map(function.properties().get("Events")).values().stream()
        .map(TemplateModel::map)
        .toList();
  }

  /** Queues named as some queue's {@code deadLetterTargetArn}. */
  Set<String> deadLetterQueues() {
    Set<String> queues = new LinkedHashSet<>();
    for (Template.Resource queue : template.resourcesOfType(QUEUE)) {
      Object target = map(queue.properties().get("RedrivePolicy")).get("deadLetterTargetArn");
      if (target instanceof Intrinsic.GetAtt getAtt) {
        queues.add(getAtt.logicalId());
      }
    }
    return queues;
  }

  /** A function's {@code Timeout}, else the global one, in seconds. */
  int timeoutSeconds(Template.Resource function) {
    Object timeout =
        function.properties().getOrDefault("Timeout", template.globalsFunction().get("Timeout"));
    return Integer.parseInt(String.valueOf(timeout));
  }

  /** One allowed (action, resource) pair of a policy statement. */
  record Grant(String action, String resource) {}

  /**
   * The grants of {@code function}'s inline {@code Statement} policies.
   *
   * @throws AssertionError if a policy is a SAM policy template or a managed policy, whose actions
   *     the template does not show
   */
  Set<Grant> grants(Template.Resource function) {
    Set<Grant> grants = new LinkedHashSet<>();
    for (Object policy : list(function.properties().get("Policies"))) {
      Map<String, Object> document = map(policy);
      if (!document.containsKey("Statement") || document.size() != 1) {
        throw new AssertionError(
            function.logicalId()
                + " has a policy that is not an inline Statement list: "
                + policy
                + " (write the actions out so they can be checked)");
      }
      for (Object item : list(document.get("Statement"))) {
        Map<String, Object> statement = map(item);
        if (!"Allow".equals(statement.get("Effect"))) {
          continue;
        }
        for (Object action : list(statement.get("Action"))) {
          for (Object resource : list(statement.get("Resource"))) {
            grants.add(new Grant(String.valueOf(action), arn(resource)));
          }
        }
      }
    }
    return grants;
  }

  /** A resource ARN in comparable form; a literal stays as written. */
  static String arn(Object resource) {
    return switch (resource) {
      case Intrinsic.GetAtt getAtt when getAtt.attribute().equals("Arn") -> getAtt.logicalId();
      case Intrinsic.Sub sub -> sub.template().replaceAll("\\$\\{([A-Za-z0-9]+)\\.Arn}", "$1");
      case Intrinsic.Ref ref -> "Ref " + ref.name();
      case Intrinsic.If choice -> arn(choice.whenTrue()) + " or " + arn(choice.whenFalse());
      default -> String.valueOf(resource);
    };
  }

  static Map<String, Object> map(Object value) {
    Map<String, Object> map = new LinkedHashMap<>();
    if (value instanceof Map<?, ?> source) {
      source.forEach((k, v) -> map.put(String.valueOf(k), v));
    }
    return map;
  }

  static List<Object> list(Object value) {
    if (value == null) {
      return List.of();
    }
    if (value instanceof List<?> list) {
      return new ArrayList<>(list);
    }
    return List.of(value);
  }
}
