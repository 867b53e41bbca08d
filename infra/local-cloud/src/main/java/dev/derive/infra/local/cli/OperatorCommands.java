package dev.derive.infra.local.cli;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import software.amazon.awssdk.core.exception.SdkException;

/**
 * The operator's commands, against the running local cloud by default or a deployed stack with
 * {@code --stack NAME --region REGION}:
 *
 * <ul>
 *   <li>{@code status}: queues, dead-letter queue depths, jobs in flight ({@link StatusCommand});
 *   <li>{@code logs JOB [--since HOURS]}: one job's lines across all functions, in order ({@link
 *       LogsCommand});
 *   <li>{@code redrive CAPABILITY}: a dead-letter queue back into its queue ({@link
 *       RedriveCommand});
 *   <li>{@code events}: the completion events seen, and the dead-lettered callbacks ({@link
 *       EventsCommand}).
 * </ul>
 *
 * Exit status 2 for a usage error, 1 when the stack cannot be reached or refuses.
 */
public final class OperatorCommands {
  /** The commands this class runs. */
  public static final List<String> NAMES = List.of("status", "logs", "redrive", "events");

  private OperatorCommands() {}

  /**
   * Runs {@code args} ({@code args[0]} one of {@link #NAMES}).
   *
   * @param stateDir where a running local cloud keeps its {@link LocalCloudState}
   * @return the process exit status
   */
  public static int run(String[] args, Path stateDir, PrintStream out, PrintStream err) {
    String command = args[0];
    String stack = null;
    String region = System.getenv().getOrDefault("AWS_REGION", System.getenv("AWS_DEFAULT_REGION"));
    Duration since = Duration.ofHours(24);
    List<String> positional = new ArrayList<>();
    for (int i = 1; i < args.length; i++) {
      String arg = args[i];
      if (arg.equals("--help") || arg.equals("-h")) {
        out.print(help(command));
        return 0;
      }
      if (arg.startsWith("--")) {
        if (i + 1 >= args.length) {
          return usage(err, "missing value after " + arg);
        }
        String value = args[++i];
        switch (arg) {
          case "--stack" -> stack = value;
          case "--region" -> region = value;
          case "--state-dir" -> stateDir = Path.of(value);
          case "--since" -> since = Duration.ofHours(Long.parseLong(value));
          default -> {
            return usage(err, "unknown option " + arg);
          }
        }
      } else {
        positional.add(arg);
      }
    }
    int wanted = command.equals("status") || command.equals("events") ? 0 : 1;
    if (positional.size() != wanted) {
      return usage(err, command + (wanted == 0 ? " takes no argument" : " takes one argument"));
    }
    if (stack != null && region == null) {
      return usage(err, "--stack needs --region (or AWS_REGION)");
    }
    try (OperatorTarget target =
        stack == null ? OperatorTarget.local(stateDir) : OperatorTarget.deployed(stack, region)) {
      switch (command) {
        case "status" -> new StatusCommand(target).print(out);
        case "logs" -> {
          int lines = new LogsCommand(target).print(positional.get(0), since, out);
          if (lines == 0) {
            err.println("no lines name job " + positional.get(0));
          }
        }
        case "redrive" -> new RedriveCommand(target).redrive(positional.get(0), out);
        case "events" ->
            new EventsCommand(target, stateDir.resolve(EventsCommand.JOURNAL_NAME)).print(out);
        default -> {
          return usage(err, "unknown command " + command);
        }
      }
      return 0;
    } catch (IllegalArgumentException e) {
      return usage(err, e.getMessage());
    } catch (IOException | SdkException | IllegalStateException e) {
      err.println(command + " failed: " + e.getMessage());
      return 1;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return 1;
    }
  }

  private static int usage(PrintStream err, String problem) {
    err.println(problem);
    err.println(USAGE);
    return 2;
  }

  private static final String USAGE =
      "usage: ./derive status [--stack NAME --region REGION]\n"
          + "       ./derive logs JOB [--since HOURS] [--stack NAME --region REGION]\n"
          + "       ./derive redrive CAPABILITY|step-results|callbacks [--stack NAME --region"
          + " REGION]\n"
          + "       ./derive events [--stack NAME --region REGION]";

  /** What {@code ./derive COMMAND --help} prints: the usage, and for redrive what it is for. */
  static String help(String command) {
    if (!command.equals("redrive")) {
      return USAGE + "\n";
    }
    return """
        usage: ./derive redrive CAPABILITY|step-results|callbacks [--stack NAME --region REGION]

        Moves every message of <stack>-<queue>-dlq back to <stack>-<queue>, body and attributes
        unchanged, and prints how many it moved.

        What it is for:
          callbacks     callbacks that failed every attempt wait in callbacks-dlq (nothing
                        consumes it); once the receiver is fixed, a redrive sends them again.
          CAPABILITY    (image, pdf, text, ...) and step-results: normally finds nothing. The
                        progress function consumes these dead-letter queues and fails each job at
                        once with dead-lettered (retryable), so to run such a job again, request
                        the derivative again. Messages stay there only while that consumer fails
                        or its event source mapping is disabled (to inspect them); a redrive then
                        sends them back to be tried again.
        """;
  }
}
