package dev.derive.worker.runtime;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.time.Duration;
import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * The per-step scratch folders under the temp directory, named after the process that owns them
 * ({@code derive-step-<pid>-<process start, epoch ms>-<random>}), and the sweep that deletes the
 * ones a dead process left behind.
 *
 * <p>A step deletes its folder when it ends, but a worker killed mid-step (out of memory, the
 * function's timeout, a crash) cannot, and Lambda keeps {@code /tmp} for the next process of the
 * same execution environment: a few such kills fill its 512 MiB. So every worker sweeps at init. A
 * folder is stale when no process with its owner's pid is alive, or the one alive started at
 * another time (a new process that got the dead one's pid, as happens in a Lambda sandbox). A
 * folder of a live process is never touched, so processes sharing one temp directory (the local
 * cloud's instances, tests) are safe from each other. A folder whose name carries no owner (an
 * older worker's) is stale once it is older than the longest Lambda invocation.
 */
final class StepDirectories {
  private static final System.Logger LOG = System.getLogger(StepDirectories.class.getName());

  /** The name prefix of every step folder. */
  static final String PREFIX = "derive-step-";

  /** No step lives longer than the longest Lambda invocation: 15 minutes. */
  static final Duration MAX_STEP_AGE = Duration.ofMillis(StepWorker.MAX_LAMBDA_TIMEOUT_MILLIS);

  private StepDirectories() {}

  /** Creates a fresh step folder of this process under {@code tempDirectory}. */
  static Path create(Path tempDirectory) throws IOException {
    return Files.createTempDirectory(tempDirectory, ownerPrefix(ProcessHandle.current()));
  }

  /** {@code derive-step-<pid>-<start>-}: the prefix of the folders {@code process} owns. */
  static String ownerPrefix(ProcessHandle process) {
    return PREFIX + process.pid() + "-" + startMillis(process) + "-";
  }

  /**
   * Deletes the stale step folders under {@code tempDirectory} (see the class comment) and logs
   * what it freed; never fails (what cannot be listed or deleted is logged and left).
   *
   * @return how many folders were deleted
   */
  static int sweepStale(Path tempDirectory, Instant now) {
    List<Path> stale;
    try (Stream<Path> entries = Files.list(tempDirectory)) {
      stale =
          entries
              .filter(path -> path.getFileName().toString().startsWith(PREFIX))
              .filter(Files::isDirectory)
              .filter(path -> isStale(path, now))
              .toList();
    } catch (IOException | UncheckedIOException e) {
      LOG.log(System.Logger.Level.WARNING, "cannot list temp directory " + tempDirectory, e);
      return 0;
    }
    long bytes = 0;
    int deleted = 0;
    for (Path folder : stale) {
      bytes += size(folder);
      if (deleteTree(folder)) {
        deleted++;
      }
    }
    if (deleted > 0) {
      LOG.log(
          System.Logger.Level.INFO,
          "deleted "
              + deleted
              + " step folder(s) ("
              + bytes
              + " bytes) that a worker process ended mid-step left in "
              + tempDirectory);
    }
    return deleted;
  }

  /** Whether {@code folder} (a step folder) belongs to no live process. */
  static boolean isStale(Path folder, Instant now) {
    String[] parts = folder.getFileName().toString().substring(PREFIX.length()).split("-", 3);
    if (parts.length == 3) {
      try {
        long pid = Long.parseLong(parts[0]);
        long started = Long.parseLong(parts[1]);
        Optional<ProcessHandle> owner = ProcessHandle.of(pid).filter(ProcessHandle::isAlive);
        // a live process of that pid owns it unless it started at another time (pid reused);
        // an unknown start on either side counts as the owner
        return owner.isEmpty()
            || (started != 0
                && startMillis(owner.get()) != 0
                && startMillis(owner.get()) != started);
      } catch (NumberFormatException e) {
        // not an owner-named folder: judged by its age below
      }
    }
    try {
      Instant modified = Files.getLastModifiedTime(folder).toInstant();
      return modified.plus(MAX_STEP_AGE).isBefore(now);
    } catch (IOException e) {
      return false;
    }
  }

  /**
   * Deletes {@code folder} and everything in it, logging what cannot be deleted; whether it is
   * gone.
   */
  static boolean deleteTree(Path folder) {
    try (Stream<Path> paths = Files.walk(folder)) {
      paths.sorted(Comparator.reverseOrder()).forEach(StepDirectories::deleteQuietly);
    } catch (IOException | UncheckedIOException e) {
      LOG.log(System.Logger.Level.WARNING, "cannot list temp directory " + folder, e);
      deleteQuietly(folder);
    }
    return !Files.exists(folder);
  }

  private static void deleteQuietly(Path file) {
    try {
      Files.deleteIfExists(file);
    } catch (IOException e) {
      LOG.log(System.Logger.Level.WARNING, "cannot delete temp file " + file, e);
    }
  }

  private static long size(Path folder) {
    try (Stream<Path> paths = Files.walk(folder)) {
      return paths
          .mapToLong(
              path -> {
                try {
                  BasicFileAttributes attributes =
                      Files.readAttributes(path, BasicFileAttributes.class);
                  return attributes.isRegularFile() ? attributes.size() : 0;
                } catch (IOException e) {
                  return 0;
                }
              })
          .sum();
    } catch (IOException | UncheckedIOException e) {
      return 0;
    }
  }

  /** When {@code process} started, in epoch milliseconds; 0 if the platform does not say. */
  private static long startMillis(ProcessHandle process) {
    return process.info().startInstant().map(Instant::toEpochMilli).orElse(0L);
  }
}
