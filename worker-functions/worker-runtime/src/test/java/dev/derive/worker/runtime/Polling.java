package dev.derive.worker.runtime;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;

/** Waiting in tests for a condition another thread makes true. */
final class Polling {
  private Polling() {}

  /** Polls {@code condition} every millisecond for up to 10 s; whether it came to hold. */
  static boolean until(BooleanSupplier condition) {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() > deadline) {
        return false;
      }
      LockSupport.parkNanos(1_000_000);
    }
    return true;
  }
}
