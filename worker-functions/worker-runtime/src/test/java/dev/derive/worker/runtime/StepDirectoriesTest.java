package dev.derive.worker.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The sweep at worker init: the step folders of processes that died mid-step go, those of live
 * processes (this one, another worker sharing the temp directory) and anything else stay. The
 * processes are real: a finished {@code true} is a dead owner, a running {@code sleep} a live one.
 */
class StepDirectoriesTest {
  @TempDir Path temp;

  private Process sleeper;

  @AfterEach
  void stopSleeper() {
    if (sleeper != null) {
      sleeper.destroyForcibly();
    }
  }

  @Test
  void aFolderOfAProcessThatEndedIsDeletedWithItsFiles() throws Exception {
    Process ended = new ProcessBuilder("true").start();
    ended.waitFor();
    Path stale = Files.createDirectory(temp.resolve(StepDirectories.PREFIX + ended.pid() + "-1-7"));
    Files.write(stale.resolve("input.tmp"), new byte[4096]);

    assertThat(StepDirectories.sweepStale(temp, Instant.now())).isEqualTo(1);

    assertThat(stale).doesNotExist();
  }

  @Test
  void aFolderOfAnEarlierProcessWithThisProcesssPidIsDeleted() throws IOException {
    // Lambda's new runtime process may get the pid of the one that was killed
    ProcessHandle self = ProcessHandle.current();
    long started = self.info().startInstant().orElseThrow().toEpochMilli();
    Path stale =
        Files.createDirectory(
            temp.resolve(StepDirectories.PREFIX + self.pid() + "-" + (started - 60_000) + "-7"));

    StepDirectories.sweepStale(temp, Instant.now());

    assertThat(stale).doesNotExist();
  }

  @Test
  void theFoldersOfLiveProcessesAreKept() throws IOException {
    sleeper = new ProcessBuilder("sleep", "60").start();
    Path mine = StepDirectories.create(temp);
    Path anotherWorkers =
        Files.createTempDirectory(temp, StepDirectories.ownerPrefix(sleeper.toHandle()));
    Files.writeString(anotherWorkers.resolve("input.tmp"), "in use");

    assertThat(StepDirectories.sweepStale(temp, Instant.now())).isZero();

    assertThat(mine).isDirectory();
    assertThat(anotherWorkers.resolve("input.tmp")).exists();
  }

  @Test
  void aFolderWithoutAnOwnerIsDeletedOnlyWhenOlderThanAnyStep() throws IOException {
    Path old = Files.createDirectory(temp.resolve(StepDirectories.PREFIX + "4711815"));
    Path young = Files.createDirectory(temp.resolve(StepDirectories.PREFIX + "4711816"));
    Instant now = Instant.now();
    Files.setLastModifiedTime(
        old, FileTime.from(now.minus(StepDirectories.MAX_STEP_AGE).minus(Duration.ofMinutes(1))));

    StepDirectories.sweepStale(temp, now);

    assertThat(old).doesNotExist();
    assertThat(young).isDirectory();
  }

  @Test
  void anythingElseInTheTempDirectoryIsLeftAlone() throws Exception {
    Process ended = new ProcessBuilder("true").start();
    ended.waitFor();
    Path other = Files.createDirectory(temp.resolve("derive-priming-" + ended.pid() + "-1-7"));
    Path file = Files.createFile(temp.resolve(StepDirectories.PREFIX + ended.pid() + "-1-8"));

    assertThat(StepDirectories.sweepStale(temp, Instant.now())).isZero();

    assertThat(other).isDirectory();
    assertThat(file).isRegularFile();
  }

  @Test
  void aMissingTempDirectoryIsNoFailure() {
    assertThat(StepDirectories.sweepStale(temp.resolve("gone"), Instant.now())).isZero();
  }
}
