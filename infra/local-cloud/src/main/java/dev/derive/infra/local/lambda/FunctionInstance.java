package dev.derive.infra.local.lambda;

import dev.derive.infra.local.template.FunctionDefinition;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Locale;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * One execution environment of a function: a JVM and the Runtime API it polls. It runs one
 * invocation at a time; after a timeout or a crash it is no longer {@link #usable()} and its
 * process is gone.
 */
public final class FunctionInstance implements AutoCloseable {
  private final FunctionDefinition function;
  private final String functionArn;
  private final FunctionLog log;
  private final RuntimeApiServer api;
  private final Process process;
  private final long startedAtMs;
  private volatile boolean usable = true;
  private volatile Invocation current;
  private boolean initReported;

  private FunctionInstance(
      FunctionDefinition function,
      String functionArn,
      FunctionLog log,
      RuntimeApiServer api,
      Process process,
      long startedAtMs) {
    this.function = function;
    this.functionArn = functionArn;
    this.log = log;
    this.api = api;
    this.process = process;
    this.startedAtMs = startedAtMs;
  }

  /**
   * Starts an instance; initialisation goes on in the background (see {@link #awaitInitialized}).
   *
   * @param functionArn the ARN reported to the function as {@code Invoked-Function-Arn}
   * @throws FunctionStartException if the JVM cannot be started
   */
  public static FunctionInstance start(
      FunctionDefinition function,
      String functionArn,
      FunctionFiles files,
      FunctionLauncher launcher,
      FunctionLog log) {
    RuntimeApiServer api = RuntimeApiServer.start();
    long startedAt = System.currentTimeMillis();
    Process process;
    try {
      process = launcher.start(function, files, api.address());
    } catch (RuntimeException e) {
      api.close();
      throw e;
    }
    FunctionInstance instance =
        new FunctionInstance(function, functionArn, log, api, process, startedAt);
    pump(process.getInputStream(), log, function.logicalId() + "-stdout");
    pump(process.getErrorStream(), log, function.logicalId() + "-stderr");
    process
        .onExit()
        .thenAccept(
            exited -> {
              instance.usable = false;
              String message = "Runtime exited with " + exitDescription(exited.exitValue());
              Invocation lost = instance.current;
              if (lost != null && !lost.result().isDone()) {
                // the process died with an invocation in flight: Lambda's two lines for it
                log.line("RequestId: " + lost.requestId() + " Error: " + message);
                log.line("Runtime.ExitError");
              }
              api.fail(InvocationResult.Failure.of("Runtime.ExitError", message));
            });
    return instance;
  }

  /**
   * Waits until the runtime asks for its first invocation (its handler class is loaded and
   * initialised), then writes Lambda's {@code INIT_REPORT} line (its {@code platform.initReport}:
   * the Init Duration, phase and status) before any invocation reaches the instance, so a reader of
   * the log sees the instance as Init left it (the bench counts its loaded classes there).
   *
   * @throws FunctionStartException if initialisation fails, the process exits, or it takes longer
   *     than {@code timeout}
   */
  public void awaitInitialized(Duration timeout) {
    try {
      long initializedAtMs = api.initialized().get(timeout.toMillis(), TimeUnit.MILLISECONDS);
      log.line(
          String.format(
              Locale.ROOT,
              "INIT_REPORT Init Duration: %.2f ms\tPhase: init\tStatus: success",
              (double) (initializedAtMs - startedAtMs)));
    } catch (TimeoutException e) {
      close();
      throw new FunctionStartException(
          function.logicalId() + " did not initialise within " + timeout.toSeconds() + " s");
    } catch (ExecutionException e) {
      close();
      throw new FunctionStartException(
          function.logicalId() + " failed to initialise: " + e.getCause().getMessage(), e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      close();
      throw new FunctionStartException(function.logicalId() + ": interrupted while starting", e);
    }
  }

  /**
   * Runs one invocation and waits for its result, at most the function's {@code Timeout}; past it
   * the result is a {@code Sandbox.Timedout} failure and the instance is stopped. Writes {@code
   * START}, {@code END} and {@code REPORT} lines to the function log.
   */
  public InvocationResult invoke(byte[] event) {
    String requestId = UUID.randomUUID().toString();
    long timeoutMs = function.timeoutSeconds() * 1000L;
    long start = System.nanoTime();
    long deadline = System.currentTimeMillis() + timeoutMs;
    Invocation invocation =
        new Invocation(
            requestId,
            event,
            deadline,
            functionArn,
            "Root=1-"
                + Long.toHexString(deadline / 1000)
                + "-"
                + requestId.replace("-", "").substring(0, 24)
                + ";Sampled=0",
            new CompletableFuture<>());
    log.line("START RequestId: " + requestId + " Version: $LATEST");
    current = invocation;
    api.submit(invocation);
    InvocationResult result;
    try {
      result = invocation.result().get(timeoutMs, TimeUnit.MILLISECONDS);
    } catch (TimeoutException e) {
      String message =
          String.format(Locale.ROOT, "Task timed out after %.2f seconds", timeoutMs / 1000.0);
      log.line(Instant.now() + " " + requestId + " " + message);
      result =
          InvocationResult.Failure.of(
              "Sandbox.Timedout", "RequestId: " + requestId + " Error: " + message);
      invocation.result().complete(result);
      usable = false;
    } catch (ExecutionException e) {
      result = InvocationResult.Failure.of("Runtime.Unknown", String.valueOf(e.getCause()));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      result = InvocationResult.Failure.of("Runtime.Unknown", "interrupted");
      invocation.result().complete(result);
      usable = false;
    }
    current = null;
    double durationMs = (System.nanoTime() - start) / 1_000_000.0;
    log.line("END RequestId: " + requestId);
    log.line(report(requestId, durationMs));
    if (!usable) {
      close(); // a timed-out or interrupted environment is not reused (Lambda resets it)
    }
    return result;
  }

  private String report(String requestId, double durationMs) {
    StringBuilder line =
        new StringBuilder(
            String.format(
                Locale.ROOT,
                "REPORT RequestId: %s\tDuration: %.2f ms\tBilled Duration: %d ms\tMemory Size: %d"
                    + " MB\tMax Memory Used: %d MB",
                requestId,
                durationMs,
                (long) Math.ceil(durationMs),
                function.memorySizeMb(),
                maxMemoryUsedMb()));
    if (!initReported
        && api.initialized().isDone()
        && !api.initialized().isCompletedExceptionally()) {
      initReported = true;
      line.append(
          String.format(
              Locale.ROOT,
              "\tInit Duration: %.2f ms",
              (double) (api.initialized().join() - startedAtMs)));
    }
    return line.toString();
  }

  /** The process's peak resident set (VmHWM from /proc), 0 where /proc is not available. */
  private long maxMemoryUsedMb() {
    try {
      for (String line :
          Files.readAllLines(Path.of("/proc", Long.toString(process.pid()), "status"))) {
        if (line.startsWith("VmHWM:")) {
          return Long.parseLong(line.replaceAll("[^0-9]", "")) / 1024;
        }
      }
    } catch (IOException | RuntimeException unavailable) {
      // process gone or no procfs
    }
    return 0;
  }

  /** Whether the instance may take another invocation. */
  public boolean usable() {
    return usable && process.isAlive();
  }

  /** The JVM's process id. */
  public long pid() {
    return process.pid();
  }

  /** Whether an invocation is in flight: submitted, and its result not yet returned. */
  public boolean busy() {
    return current != null;
  }

  /**
   * How Lambda words an exit status: {@code signal: killed} for SIGKILL (the JVM reports 128 + the
   * signal number), {@code error: exit status N} for a plain exit.
   */
  static String exitDescription(int status) {
    if (status <= 128 || status > 128 + 64) {
      return "error: exit status " + status;
    }
    return "signal: "
        + switch (status - 128) {
          case 6 -> "aborted";
          case 9 -> "killed";
          case 11 -> "segmentation fault";
          case 15 -> "terminated";
          default -> Integer.toString(status - 128);
        };
  }

  @Override
  public void close() {
    usable = false;
    process.destroy();
    try {
      if (!process.waitFor(3, TimeUnit.SECONDS)) {
        process.destroyForcibly();
      }
    } catch (InterruptedException e) {
      process.destroyForcibly();
      Thread.currentThread().interrupt();
    }
    api.close();
  }

  private static void pump(InputStream stream, FunctionLog log, String name) {
    Thread thread =
        new Thread(
            () -> {
              try (BufferedReader reader =
                  new BufferedReader(new InputStreamReader(stream, StandardCharsets.UTF_8))) {
                String line;
                while ((line = reader.readLine()) != null) {
                  log.line(line);
                }
              } catch (IOException closed) {
                // process ended
              }
            },
            name);
    thread.setDaemon(true);
    thread.start();
  }
}
