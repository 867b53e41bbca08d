package dev.derive.infra.local;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.derive.infra.endpoint.AwsClients;
import dev.derive.infra.local.cli.CompletionEventRecorder;
import dev.derive.infra.local.cli.DeriveCommand;
import dev.derive.infra.local.cli.EventsCommand;
import dev.derive.infra.local.cli.FunctionOutput;
import dev.derive.infra.local.cli.LocalCloudState;
import dev.derive.infra.local.cli.OperatorCommands;
import dev.derive.infra.local.cli.UploadCommand;
import dev.derive.infra.local.resources.ProvisionedResource;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;

/**
 * Command line of the local cloud.
 *
 * <pre>
 * java -jar infra/local-cloud/target/local-cloud.jar up [--port 3000] [--template template.yaml]
 *     [--stack-name derive-local] [--parameter Name=Value]... [--property LogicalId.Property=Value]...
 * java -jar infra/local-cloud/target/local-cloud.jar upload FILE [--api http://127.0.0.1:3000]
 * java -jar infra/local-cloud/target/local-cloud.jar derive SOURCE TARGET [--width N] [--height N]
 *     [--fit F] [--quality Q] [--page N] [--output FILE] [--api URL] [--timeout 300]
 * </pre>
 *
 * <p>{@code up} starts everything, prints the AWS endpoint, the resources and {@code API:
 * http://127.0.0.1:<port>}, then a line {@code ready in N ms}, streams the functions' logs and
 * stops cleanly on Ctrl-C. {@code upload} puts a file into the source bucket through the API and
 * prints its source key. {@code derive} requests a derivative and downloads it ({@link
 * DeriveCommand}). Exit status 2 for a usage error, 1 if starting (or the derivative) fails.
 */
public final class LocalCloudMain {
  private LocalCloudMain() {}

  /** Runs the command in {@code args}. */
  public static void main(String[] args) throws InterruptedException {
    // Testcontainers (LocalStack mode) brings SLF4J without a binding; keep its notice quiet.
    System.setProperty("slf4j.internal.verbosity", "ERROR");
    if (args.length > 0 && OperatorCommands.NAMES.contains(args[0])) {
      System.exit(OperatorCommands.run(args, stateDir(), System.out, System.err));
      return;
    }
    if (args.length > 0 && args[0].equals("upload")) {
      upload(args);
      return;
    }
    if (args.length > 0 && args[0].equals("derive")) {
      derive(args);
      return;
    }
    if (args.length == 0 || !args[0].equals("up")) {
      usage("expected the command `up`, `upload` or `derive`");
      return;
    }
    Path template = Path.of("template.yaml");
    LocalCloudOptions.Builder builder = null;
    int port = 3000;
    String stackName = null;
    java.util.Map<String, String> parameters = new java.util.LinkedHashMap<>();
    java.util.Map<String, String> properties = new java.util.LinkedHashMap<>();
    for (int i = 1; i < args.length; i++) {
      String option = args[i];
      if (i + 1 >= args.length) {
        usage("missing value after " + option);
        return;
      }
      String value = args[++i];
      switch (option) {
        case "--port" -> port = Integer.parseInt(value);
        case "--template" -> template = Path.of(value);
        case "--stack-name" -> stackName = value;
        case "--parameter" -> {
          int equals = value.indexOf('=');
          if (equals <= 0) {
            usage("--parameter needs Name=Value");
            return;
          }
          parameters.put(value.substring(0, equals), value.substring(equals + 1));
        }
        case "--property" -> {
          int equals = value.indexOf('=');
          if (equals <= 0) {
            usage("--property needs LogicalId.Property[.Key...]=Value");
            return;
          }
          properties.put(value.substring(0, equals), value.substring(equals + 1));
        }
        default -> {
          usage("unknown option " + option);
          return;
        }
      }
    }
    if (!Files.isRegularFile(template)) {
      usage("no template at " + template.toAbsolutePath());
      return;
    }
    builder = LocalCloudOptions.builder(template).httpPort(port);
    output =
        new FunctionOutput(
            System.out, System.console() != null, stateDir().resolve(LocalCloudState.LOG_NAME));
    builder.log(output);
    if (stackName != null) {
      builder.stackName(stackName);
    }
    parameters.forEach(builder::parameter);
    properties.forEach(builder::property);
    up(builder.build());
  }

  /** Where {@code up} leaves its state for the operator commands ({@code -Dderive.state}). */
  private static Path stateDir() {
    return Path.of(System.getProperty("derive.state", ".derive"));
  }

  /** The output of {@code up}: the function log file, the terminal, the EMF summary. */
  private static FunctionOutput output;

  private static void up(LocalCloudOptions options) throws InterruptedException {
    long started = System.nanoTime();
    LocalCloud cloud;
    try {
      cloud = LocalCloud.start(options);
    } catch (RuntimeException e) {
      System.err.println("local cloud failed to start: " + e.getMessage());
      System.exit(1);
      return;
    }
    CountDownLatch stopped = new CountDownLatch(1);
    Runtime.getRuntime()
        .addShutdownHook(
            new Thread(
                () -> {
                  System.out.println("stopping the local cloud");
                  if (recorder != null) {
                    recorder.close();
                  }
                  cloud.close();
                  System.out.println(output.metricsSummary());
                  output.close();
                  try {
                    java.nio.file.Files.deleteIfExists(
                        stateDir().resolve(LocalCloudState.FILE_NAME));
                  } catch (java.io.IOException e) {
                    // a stale state file only makes the next operator command fail to connect
                  }
                  stopped.countDown();
                },
                "local-cloud-stop"));
    System.out.println("AWS endpoint: " + cloud.endpoint().describe());
    for (ProvisionedResource resource : cloud.resources().values()) {
      switch (resource.type()) {
        case "AWS::S3::Bucket" ->
            System.out.println("bucket " + resource.logicalId() + ": " + resource.reference());
        case "AWS::SQS::Queue" ->
            System.out.println("queue " + resource.logicalId() + ": " + resource.reference());
        case "AWS::DynamoDB::Table" ->
            System.out.println("table " + resource.logicalId() + ": " + resource.reference());
        default -> {}
      }
    }
    System.out.println("API: " + cloud.apiUri());
    recordCompletionEvents(cloud);
    try {
      new LocalCloudState(
              cloud.endpoint().uri(),
              cloud.endpoint().region(),
              options.stackName(),
              stateDir().resolve(LocalCloudState.LOG_NAME),
              cloud.apiUri())
          .write(stateDir());
    } catch (java.io.IOException e) {
      System.err.println(
          "cannot write the state for ./derive status|logs|redrive: " + e.getMessage());
    }
    System.out.println("ready in " + (System.nanoTime() - started) / 1_000_000 + " ms");
    stopped.await();
  }

  /** Moves completion events into the journal as they arrive, while {@code up} runs. */
  private static volatile CompletionEventRecorder recorder;

  /**
   * With {@code RecordCompletionEvents=true} (as {@code ./derive up} sets it), keeps the
   * completion-events queue empty by moving each event into the journal {@code ./derive events}
   * prints (docs/completion-events.md).
   */
  private static void recordCompletionEvents(LocalCloud cloud) {
    ProvisionedResource queue = cloud.resources().get(COMPLETION_EVENTS_QUEUE);
    if (queue == null || !queue.type().equals("AWS::SQS::Queue")) {
      return;
    }
    CompletionEventRecorder started =
        new CompletionEventRecorder(
            AwsClients.sqs(cloud.endpoint()),
            queue.reference(),
            stateDir().resolve(EventsCommand.JOURNAL_NAME));
    started.start(System.err::println);
    recorder = started;
  }

  /** The template's queue {@code RecordCompletionEvents} routes every completion event to. */
  private static final String COMPLETION_EVENTS_QUEUE = "CompletionEventsQueue";

  private static void upload(String[] args) throws InterruptedException {
    String fileArg = null;
    String apiArg = null;
    for (int i = 1; i < args.length; i++) {
      if (args[i].equals("--api") && i + 1 < args.length) {
        apiArg = args[++i];
      } else if (!args[i].startsWith("--") && fileArg == null) {
        fileArg = args[i];
      } else {
        usage("upload takes a file and optionally --api URL");
        return;
      }
    }
    if (fileArg == null) {
      usage("upload takes a file and optionally --api URL");
      return;
    }
    URI api = LocalCloudState.api(apiArg, stateDir());
    Path file = Path.of(fileArg);
    try {
      System.out.println(new UploadCommand(api).upload(file));
    } catch (java.io.IOException e) {
      System.err.println("upload of " + file + " failed: " + UploadCommand.describe(e));
      System.exit(1);
    }
  }

  /**
   * {@code derive SOURCE TARGET [--name value]…}: the options may come before, between or after the
   * two arguments; {@code --api} defaults to the running local cloud's API.
   */
  private static void derive(String[] args) throws InterruptedException {
    List<String> positional = new ArrayList<>();
    String apiArg = null;
    Path output = null;
    String timeout = "300";
    Map<String, String> options = new LinkedHashMap<>();
    for (int i = 1; i < args.length; i++) {
      String option = args[i];
      if (!option.startsWith("--")) {
        positional.add(option);
        continue;
      }
      if (i + 1 >= args.length) {
        usage("missing value after " + option);
        return;
      }
      String value = args[++i];
      switch (option) {
        case "--api" -> apiArg = value;
        case "--output" -> output = Path.of(value);
        case "--timeout" -> timeout = value;
        default -> options.put(option.substring(2), value);
      }
    }
    if (positional.size() != 2) {
      usage(
          "derive takes SOURCE and TARGET, got " + (positional.isEmpty() ? "neither" : positional));
      return;
    }
    String source = positional.get(0);
    String target = positional.get(1);
    URI api = LocalCloudState.api(apiArg, stateDir());
    try {
      ObjectNode targetNode = DeriveCommand.target(target, options);
      new DeriveCommand(api, System.err::println, Duration.ofMillis(500))
          .derive(source, targetNode, output, DeriveCommand.timeout(timeout));
    } catch (IllegalArgumentException e) {
      usage(e.getMessage());
    } catch (java.io.IOException e) {
      System.err.println("derive failed: " + UploadCommand.describe(e));
      System.exit(1);
    }
  }

  private static void usage(String problem) {
    System.err.println(problem);
    System.err.println(
        "usage: ./derive up [--port 3000] [--template template.yaml]"
            + " [--stack-name derive-local] [--parameter Name=Value]..."
            + " [--property LogicalId.Property=Value]...\n"
            + "       ./derive upload FILE [--api http://127.0.0.1:3000]\n"
            + "       ./derive derive SOURCE TARGET [--width N] [--height N] [--fit F]"
            + " [--quality Q] [--page N] [--output FILE] [--api URL] [--timeout SECONDS]");
    System.exit(2);
  }
}
