package dev.derive.worker.runtime;

import java.io.IOException;

/**
 * A step that started late in its invocation (earlier records of the batch used the time) did not
 * finish before the deadline margin. Transient: the record is handed back to SQS and gets a fresh
 * invocation on redelivery.
 */
final class DeadlineExceededException extends IOException {
  DeadlineExceededException(String message) {
    super(message);
  }
}
