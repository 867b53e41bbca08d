package dev.derive.worker.office;

import static dev.derive.worker.runtime.SampleCorpus.samples;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.derive.protocol.MediaTypes;
import dev.derive.worker.runtime.PermanentStepFailure;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The office process failing under a conversion: one that hangs (stopped with SIGSTOP, as a
 * LibreOffice stuck in a loop would be) is killed at the conversion deadline, one that crashes
 * (SIGKILL mid-conversion) is noticed; either way the step fails with a stable type and a sentence,
 * a new office process is started, and the next document converts.
 */
class OfficeProcessFaultTest {
  /** Long enough for a cold Writer on a busy machine, short enough for the test. */
  private static final long DEADLINE_MILLIS = 20_000;

  private static OfficeProcess office;
  private static OfficeTransformer transformer;
  private static Path workingDirectory;

  @TempDir Path dir;

  @BeforeAll
  static void startAnOfficeOfItsOwn() throws IOException {
    workingDirectory = TestOffice.workingDirectory("faults");
    OfficeSettings settings =
        new OfficeSettings(
            TestOffice.SETTINGS.officeHome(),
            DEADLINE_MILLIS,
            TestOffice.SETTINGS.maxPages(),
            TestOffice.SETTINGS.maxInflatedBytes());
    office = new OfficeProcess(settings, workingDirectory);
    office.start();
    transformer = new OfficeTransformer(office, settings);
  }

  @AfterAll
  static void stop() {
    office.close();
  }

  @Test
  void aHungConversionIsStoppedAtItsDeadlineAndTheNextOneConverts() throws Exception {
    convertQuickDocument();
    ProcessHandle hung = officeProcess();
    signal("STOP", hung);

    assertThatThrownBy(this::convertQuickDocument)
        .isInstanceOfSatisfying(
            PermanentStepFailure.class,
            failure -> {
              assertThat(failure.type()).isEqualTo("timeout");
              assertThat(failure.detail())
                  .isEqualTo(
                      "LibreOffice did not finish converting the document within 20 s; its"
                          + " process was stopped and a new one started");
            });

    assertThat(hung.onExit().get(10, TimeUnit.SECONDS).isAlive()).isFalse();
    assertThat(officeProcess().pid()).isNotEqualTo(hung.pid());
    assertThat(convertQuickDocument()).isEqualTo(1);
  }

  /**
   * The process dies under a conversion: it is stopped first, so the conversion is surely still in
   * flight (a stopped process finishes nothing), then killed.
   */
  @Test
  void aCrashedOfficeProcessFailsTheStepAndTheNextOneConverts() throws Exception {
    convertQuickDocument();
    ProcessHandle victim = officeProcess();
    signal("STOP", victim);
    CompletableFuture<Integer> conversion =
        CompletableFuture.supplyAsync(
            () -> {
              try {
                return convertQuickDocument();
              } catch (IOException e) {
                throw new UncheckedIOException(e);
              }
            });
    Thread.sleep(1_000);
    signal("KILL", victim);

    assertThatThrownBy(conversion::join)
        .cause()
        .isInstanceOfSatisfying(
            PermanentStepFailure.class,
            failure -> {
              assertThat(failure.type()).isEqualTo("worker-failed");
              assertThat(failure.detail())
                  .isEqualTo(
                      "LibreOffice stopped while converting the document (its process exited); a"
                          + " new one was started, and a new request tries again");
            });
    assertThat(officeProcess().pid()).isNotEqualTo(victim.pid());
    assertThat(convertQuickDocument()).isEqualTo(1);
  }

  /** Converts documents/quick.docx; its page count. */
  private int convertQuickDocument() throws IOException {
    Path output = Files.createTempFile(dir, "quick-", ".pdf");
    transformer.transform(
        TestOffice.step(MediaTypes.APPLICATION_DOCX, Map.of()),
        samples().resolve("documents/quick.docx"),
        output);
    try (ConvertedPdf pdf = ConvertedPdf.read(output)) {
      return pdf.pages();
    }
  }

  /** The soffice.bin of this test's office process (its profile lives in the working folder). */
  private static ProcessHandle officeProcess() {
    List<ProcessHandle> found =
        ProcessHandle.current()
            .descendants()
            .filter(ProcessHandle::isAlive)
            .filter(p -> p.info().command().orElse("").endsWith("soffice.bin"))
            .filter(
                p ->
                    Arrays.stream(p.info().arguments().orElse(new String[0]))
                        .anyMatch(a -> a.contains(workingDirectory.toString())))
            .toList();
    assertThat(found).as("this test's soffice.bin").hasSize(1);
    return found.get(0);
  }

  private static void signal(String signal, ProcessHandle process) throws Exception {
    assertThat(
            new ProcessBuilder("kill", "-" + signal, Long.toString(process.pid()))
                .inheritIO()
                .start()
                .waitFor())
        .isZero();
  }
}
