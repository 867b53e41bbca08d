package dev.derive.worker.office;

import com.sun.star.document.MacroExecMode;
import com.sun.star.document.UpdateDocMode;
import dev.derive.protocol.message.StepErrorTypes;
import dev.derive.worker.runtime.PermanentStepFailure;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.Map;
import java.util.OptionalInt;
import java.util.concurrent.CancellationException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Stream;
import org.jodconverter.core.office.OfficeException;
import org.jodconverter.local.office.LocalOfficeManager;
import org.jodconverter.local.office.PasswordProtectedException;

/**
 * The worker's warm LibreOffice: one {@code soffice} process, started once per worker process and
 * kept between steps (JODConverter's {@link LocalOfficeManager}, a pool of one), listening on a
 * loopback port of its own. JODConverter restarts it after a conversion overran its deadline
 * (killing it), after it died, and every {@value #MAX_CONVERSIONS_PER_PROCESS} conversions; the
 * next conversion waits for the restart.
 *
 * <p>Every document is loaded hidden, read-only, with macros never executed and no link updated
 * ({@link #LOAD_PROPERTIES}), under the hardened profile of {@link OfficeProfile}.
 */
public final class OfficeProcess implements AutoCloseable {
  /**
   * What to install on Debian when LibreOffice is missing: its headless packages and the fonts
   * documents need (Latin metric-compatible, Arabic and Hebrew, CJK).
   */
  public static final String INSTALL =
      "apt-get install -y --no-install-recommends libreoffice-writer"
          + " libreoffice-calc libreoffice-impress libreoffice-draw libreoffice-math"
          + " fonts-liberation2 fonts-crosextra-carlito fonts-crosextra-caladea fonts-noto-core"
          + " fonts-noto-cjk";

  /** Conversions after which the process is replaced, bounding what a leak can grow to. */
  static final int MAX_CONVERSIONS_PER_PROCESS = 200;

  /**
   * How every document is loaded: without a window, read-only (no lock file, no write-back), with
   * macros never executed, and without updating links (DDE, OLE, external data) or asking to.
   */
  static final Map<String, Object> LOAD_PROPERTIES =
      Map.of(
          "Hidden",
          true,
          "ReadOnly",
          true,
          "MacroExecutionMode",
          MacroExecMode.NEVER_EXECUTE,
          "UpdateDocMode",
          UpdateDocMode.NO_UPDATE);

  /** The longest wait for the process to start or stop, in milliseconds. */
  private static final long PROCESS_TIMEOUT_MILLIS = 60_000;

  /** The longest wait for JODConverter to notice a killed process, in milliseconds. */
  private static final long LOSS_NOTICED_MILLIS = 5_000;

  private final OfficeSettings settings;
  private final Path workingDirectory;
  private LocalOfficeManager manager;

  /**
   * @param settings where LibreOffice is, the conversion deadline and the page limit
   * @param workingDirectory a folder of this process only (created on start, deleted on close): the
   *     profile template and JODConverter's instance profiles live there
   */
  public OfficeProcess(OfficeSettings settings, Path workingDirectory) {
    this.settings = settings;
    this.workingDirectory = workingDirectory;
  }

  /**
   * Starts the office process unless it runs; waits until it accepts conversions.
   *
   * @throws IllegalStateException if LibreOffice is not installed where {@link OfficeSettings} says
   *     (the message says what to install) or does not start
   * @throws IOException if the working folder cannot be prepared
   */
  public synchronized void start() throws IOException {
    if (manager != null) {
      return;
    }
    Path home = settings.officeHome();
    if (!Files.isRegularFile(home.resolve("program").resolve("soffice.bin"))) {
      throw new IllegalStateException(
          "LibreOffice is not installed at "
              + home
              + " (no program/soffice.bin): the office capability converts with it. On Debian"
              + " or Ubuntu: "
              + INSTALL
              + " (or set OFFICE_HOME to an installation)");
    }
    Path profile =
        OfficeProfile.write(Files.createDirectories(workingDirectory).resolve("profile"));
    LocalOfficeManager starting =
        LocalOfficeManager.builder()
            .officeHome(home.toFile())
            .portNumbers(freeLoopbackPort())
            .workingDir(workingDirectory.toFile())
            .templateProfileDir(profile.toFile())
            .processTimeout(PROCESS_TIMEOUT_MILLIS)
            .taskExecutionTimeout(settings.conversionTimeoutMillis())
            .taskQueueTimeout(settings.conversionTimeoutMillis() + PROCESS_TIMEOUT_MILLIS)
            .maxTasksPerProcess(MAX_CONVERSIONS_PER_PROCESS)
            // start() returns once the process accepts conversions, or throws
            .startFailFast(true)
            .build();
    try {
      starting.start();
    } catch (OfficeException e) {
      throw new IllegalStateException("LibreOffice did not start from " + home, e);
    }
    manager = starting;
  }

  /**
   * Converts {@code input} to a PDF at {@code output}: pages 1 to {@code lastPage} (all of a
   * shorter document), or the whole document.
   *
   * @throws PermanentStepFailure {@code password-required}, {@code corrupt-input}, {@code
   *     unsupported-input}, {@code input-too-large} (more pages than the limit), {@code timeout}
   *     (past the conversion deadline; the process was killed and restarted) or {@code
   *     worker-failed} (the process died; it was restarted)
   * @throws IOException when no office process became free in time (the step is retried)
   * @throws InterruptedIOException when the calling thread was interrupted (the process is
   *     replaced, as the conversion may still run)
   */
  public void convert(Path input, Path output, OptionalInt lastPage) throws IOException {
    LocalOfficeManager running = running();
    PdfExportTask task =
        new PdfExportTask(
            input.toFile(), output.toFile(), LOAD_PROPERTIES, lastPage, settings.maxPages());
    try {
      running.execute(task);
    } catch (OfficeException e) {
      throw failure(e);
    }
  }

  /**
   * What {@code e}, JODConverter's report of a failed conversion, means for the step. After a
   * conversion past its deadline or a process that died, the office process is replaced before the
   * failure is reported, so the next conversion finds a fresh one: JODConverter restarts the
   * process too, but asynchronously, and a conversion handed to it before it noticed the lost
   * connection was cancelled with it.
   */
  private IOException failure(OfficeException e) throws IOException {
    if (e instanceof PasswordProtectedException) {
      throw new PermanentStepFailure(
          StepErrorTypes.PASSWORD_REQUIRED,
          "the document is protected with a password; it is not opened without it",
          e);
    }
    for (Throwable cause = e.getCause(); cause != null; cause = cause.getCause()) {
      if (cause instanceof PermanentStepFailure failure) {
        if (failure.type().equals(StepErrorTypes.CORRUPT_INPUT) && !running().isRunning()) {
          // a document LibreOffice "could not open" because the process died while loading it
          awaitRestart();
          throw died(e);
        }
        throw failure;
      }
      if (cause instanceof TimeoutException) {
        awaitRestart();
        throw new PermanentStepFailure(
            StepErrorTypes.TIMEOUT,
            "LibreOffice did not finish converting the document within "
                + settings.conversionTimeoutMillis() / 1000
                + " s; its process was stopped and a new one started",
            e);
      }
      if (cause instanceof CancellationException
          || cause instanceof com.sun.star.lang.DisposedException) {
        awaitRestart();
        throw died(e);
      }
      if (cause instanceof InterruptedException) {
        Thread.interrupted(); // JODConverter set the flag again; stopping the process waits
        try {
          replace();
        } finally {
          Thread.currentThread().interrupt();
        }
        InterruptedIOException interrupted =
            new InterruptedIOException("interrupted while LibreOffice converted the document");
        interrupted.initCause(e);
        return interrupted;
      }
    }
    return new IOException("LibreOffice did not take the conversion: " + e.getMessage(), e);
  }

  private static PermanentStepFailure died(OfficeException e) {
    return new PermanentStepFailure(
        StepErrorTypes.WORKER_FAILED,
        "LibreOffice stopped while converting the document (its process exited); a new one was"
            + " started, and a new request tries again",
        e);
  }

  /**
   * Waits until JODConverter has noticed that the office process is gone (at once after a kill) and
   * has connected the one it starts in its place; replaces the manager if that does not happen in
   * time (its restart failed).
   */
  private void awaitRestart() throws IOException {
    LocalOfficeManager current = running();
    long lossBy = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(LOSS_NOTICED_MILLIS);
    while (current.isRunning() && System.nanoTime() < lossBy) {
      pause(10);
    }
    long upBy = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(PROCESS_TIMEOUT_MILLIS);
    while (!current.isRunning() && System.nanoTime() < upBy) {
      pause(50);
    }
    if (!current.isRunning()) {
      replace();
    }
  }

  private static void pause(long millis) throws InterruptedIOException {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("interrupted while LibreOffice restarted");
    }
  }

  /**
   * Stops the process and starts a new one, for a conversion that may still be running (no
   * JODConverter restart is under way then: the process never lost its connection).
   */
  private synchronized void replace() throws IOException {
    stopQuietly();
    start();
  }

  private synchronized LocalOfficeManager running() throws IOException {
    start();
    return manager;
  }

  /** Stops the office process and deletes the working folder. */
  @Override
  public synchronized void close() {
    stopQuietly();
    if (!Files.exists(workingDirectory)) {
      return;
    }
    try (Stream<Path> files = Files.walk(workingDirectory)) {
      for (Path file : files.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(file);
      }
    } catch (IOException e) {
      throw new UncheckedIOException("could not delete " + workingDirectory, e);
    }
  }

  private void stopQuietly() {
    if (manager == null) {
      return;
    }
    try {
      manager.stop();
    } catch (OfficeException e) {
      System.getLogger(OfficeProcess.class.getName())
          .log(System.Logger.Level.WARNING, "LibreOffice did not stop cleanly", e);
    } finally {
      manager = null;
    }
  }

  /** A loopback port free now, for the office process to accept its UNO connection on. */
  private static int freeLoopbackPort() throws IOException {
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return socket.getLocalPort();
    }
  }
}
