package dev.derive.infra.local.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code ./derive COMMAND --help}: answered without a running cloud or a stack. */
class OperatorCommandsTest {
  @TempDir Path noCloud;

  private final ByteArrayOutputStream out = new ByteArrayOutputStream();
  private final ByteArrayOutputStream err = new ByteArrayOutputStream();

  private int run(String... args) {
    return OperatorCommands.run(
        args,
        noCloud,
        new PrintStream(out, true, StandardCharsets.UTF_8),
        new PrintStream(err, true, StandardCharsets.UTF_8));
  }

  @Test
  void redriveHelpSaysWhatARedriveIsForWithoutTouchingAQueue() {
    assertThat(run("redrive", "--help")).isZero();

    String help = out.toString(StandardCharsets.UTF_8);
    assertThat(help).startsWith("usage: ./derive redrive CAPABILITY|step-results|callbacks");
    assertThat(help.replaceAll("\\s+", " "))
        .contains("callbacks callbacks that failed every attempt wait in callbacks-dlq")
        .contains("to run such a job again, request the derivative again")
        .contains("event source mapping is disabled");
    assertThat(err.toString(StandardCharsets.UTF_8)).isEmpty();
  }

  @Test
  void everyCommandAnswersHelpWithItsUsage() {
    for (String command : OperatorCommands.NAMES) {
      out.reset();
      assertThat(run(command, "-h")).as(command).isZero();
      assertThat(out.toString(StandardCharsets.UTF_8)).as(command).contains("./derive " + command);
    }
  }

  @Test
  void anUnknownOptionIsAUsageErrorThatListsTheCommands() {
    assertThat(run("redrive", "--nope", "x")).isEqualTo(2);

    assertThat(err.toString(StandardCharsets.UTF_8))
        .startsWith("unknown option --nope")
        .contains("./derive redrive CAPABILITY|step-results|callbacks");
  }
}
