package dev.derive.infra.local.lambda;

import dev.derive.infra.local.template.FunctionDefinition;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Semaphore;

/**
 * The execution environments of one function: warm instances are reused (most recently used first),
 * new ones are started on demand up to the concurrency limit, and callers beyond it wait for a free
 * one (locally there is no throttling error). An instance that timed out or crashed is discarded
 * and replaced by the next invocation.
 */
public final class FunctionPool implements AutoCloseable {
  /**
   * Lambda's limit on a synchronous invocation's payload: "6 MB", in fact 6,291,456 bytes (the
   * figure its {@code RequestEntityTooLargeException} names).
   */
  public static final int MAX_REQUEST_BYTES = 6_291_456;

  /** The error type Lambda's Invoke answers for a payload over {@link #MAX_REQUEST_BYTES}. */
  public static final String REQUEST_TOO_LARGE = "RequestEntityTooLargeException";

  private final FunctionDefinition function;
  private final String functionArn;
  private final FunctionFiles files;
  private final FunctionLauncher launcher;
  private final FunctionLog log;
  private final Duration initTimeout;
  private final int maxConcurrency;
  private final Semaphore permits;
  private final Deque<FunctionInstance> idle = new ArrayDeque<>();
  private final Set<FunctionInstance> all = ConcurrentHashMap.newKeySet();
  private volatile boolean closed;

  /**
   * @param files the extracted code and layers
   * @param maxConcurrency the most instances running at once
   * @param initTimeout how long an instance may take to initialise
   */
  public FunctionPool(
      FunctionDefinition function,
      String functionArn,
      FunctionFiles files,
      FunctionLauncher launcher,
      FunctionLog log,
      int maxConcurrency,
      Duration initTimeout) {
    this.function = function;
    this.functionArn = functionArn;
    this.files = files;
    this.launcher = launcher;
    this.log = log;
    this.initTimeout = initTimeout;
    this.maxConcurrency = maxConcurrency;
    this.permits = new Semaphore(maxConcurrency, true);
  }

  /**
   * Starts one instance and waits for it to initialise, so the first invocation is warm.
   *
   * @throws FunctionStartException if it cannot start or initialise
   */
  public void warmUp() {
    FunctionInstance instance = startInstance();
    synchronized (idle) {
      idle.push(instance);
    }
  }

  /**
   * Invokes the function with {@code event} (JSON bytes) and waits for the result. An instance that
   * cannot start yields a {@code Runtime.InitError} failure; an event over {@link
   * #MAX_REQUEST_BYTES} a {@link #REQUEST_TOO_LARGE} failure without invoking anything.
   */
  public InvocationResult invoke(byte[] event) {
    if (event.length > MAX_REQUEST_BYTES) {
      return InvocationResult.Failure.of(
          REQUEST_TOO_LARGE,
          "Request must be smaller than "
              + MAX_REQUEST_BYTES
              + " bytes for the InvokeFunction operation");
    }
    try {
      permits.acquire();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return InvocationResult.Failure.of("Runtime.Unknown", "interrupted while waiting");
    }
    try {
      if (closed) {
        return InvocationResult.Failure.of("Runtime.Unknown", "the local cloud is stopping");
      }
      FunctionInstance instance;
      try {
        instance = takeIdle();
        if (instance == null) {
          instance = startInstance();
        }
      } catch (FunctionStartException e) {
        return InvocationResult.Failure.of("Runtime.InitError", e.getMessage());
      }
      InvocationResult result = instance.invoke(event);
      if (instance.usable() && !closed) {
        synchronized (idle) {
          idle.push(instance);
        }
      } else {
        all.remove(instance);
        instance.close();
      }
      return result;
    } finally {
      permits.release();
    }
  }

  private FunctionInstance takeIdle() {
    synchronized (idle) {
      while (!idle.isEmpty()) {
        FunctionInstance instance = idle.pop();
        if (instance.usable()) {
          return instance;
        }
        all.remove(instance);
        instance.close();
      }
      return null;
    }
  }

  private FunctionInstance startInstance() {
    FunctionInstance instance = FunctionInstance.start(function, functionArn, files, launcher, log);
    all.add(instance);
    try {
      instance.awaitInitialized(initTimeout);
    } catch (FunctionStartException e) {
      all.remove(instance);
      throw e;
    }
    return instance;
  }

  /**
   * The process ids of the instances running an invocation right now, for tests that need to lose
   * an execution environment mid-invocation as Lambda can (kill the process: the invocation fails
   * with {@code Runtime.ExitError} and the next one starts a new instance).
   */
  public List<Long> busyProcessIds() {
    return all.stream().filter(FunctionInstance::busy).map(FunctionInstance::pid).toList();
  }

  /** The most instances that run at once. */
  public int maxConcurrency() {
    return maxConcurrency;
  }

  /** The function this pool runs. */
  public FunctionDefinition function() {
    return function;
  }

  /** Stops every instance. */
  @Override
  public void close() {
    closed = true;
    all.forEach(FunctionInstance::close);
    all.clear();
    synchronized (idle) {
      idle.clear();
    }
  }
}
