package dev.derive.worker.runtime;

import java.util.concurrent.atomic.AtomicReference;

/**
 * Whether this worker process can still be trusted with steps. It cannot once a step thread ignored
 * its interrupt (it keeps its CPU, memory and files) or a {@link VirtualMachineError} such as
 * {@link OutOfMemoryError} escaped a step; from then on the processor starts no record and asks its
 * {@link ProcessExit} to end the process after the batch response.
 */
final class WorkerHealth {
  private static final System.Logger LOG = System.getLogger(WorkerHealth.class.getName());

  private final AtomicReference<String> poisonedBy = new AtomicReference<>();

  /** Marks the process untrustworthy; the first reason is kept. */
  void poison(String reason) {
    if (poisonedBy.compareAndSet(null, reason)) {
      LOG.log(System.Logger.Level.ERROR, "this worker process can no longer be trusted: " + reason);
    }
  }

  /** Why the process is untrustworthy, or {@code null} while it is healthy. */
  String poisonedBy() {
    return poisonedBy.get();
  }
}
