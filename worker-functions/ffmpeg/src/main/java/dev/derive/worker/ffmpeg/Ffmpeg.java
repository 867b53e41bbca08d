package dev.derive.worker.ffmpeg;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;

/**
 * Bytedeco's prebuilt {@code ffmpeg} and {@code ffprobe} (FFmpeg 7.1, LGPL), found in one folder
 * and run as separate processes: a crash or a hang of FFmpeg on a hostile file ends that process,
 * never the worker, and the process gets no environment but its library path (so no AWS
 * credentials). Each run has a deadline after which the process is killed, and a bound on the bytes
 * it may print.
 *
 * <p>Where the executables are: the setting {@value #PATH_PROPERTY} (system property) or {@value
 * #PATH_ENVIRONMENT} (environment), default {@value #DEFAULT_PATH} where Lambda extracts the layer;
 * it names the folder holding them, or a folder with {@code ffmpeg/} or {@code <platform>/ffmpeg/}
 * in it (the layout of {@code target/layer} in this module, which the tests use). The libraries
 * beside them are found through {@code LD_LIBRARY_PATH}, set for the child only.
 */
public final class Ffmpeg {
  /** The system property naming where the executables are. */
  public static final String PATH_PROPERTY = "derive.ffmpeg.path";

  /** The environment variable naming where the executables are. */
  public static final String PATH_ENVIRONMENT = "DERIVE_FFMPEG_PATH";

  /** Where Lambda extracts the layer. */
  public static final String DEFAULT_PATH = "/opt";

  /** The most of its error stream kept for an exception's message, in characters. */
  private static final int ERROR_TAIL_CHARS = 2_000;

  /** One of the two executables. */
  public enum Tool {
    FFMPEG("ffmpeg"),
    FFPROBE("ffprobe");

    private final String file;

    Tool(String file) {
      this.file = file;
    }
  }

  private static volatile Ffmpeg shared;

  private final Path folder;

  private Ffmpeg(Path folder) {
    this.folder = folder;
  }

  /**
   * The executables of this process's setting, found once.
   *
   * @throws FfmpegUnavailableException if none of the candidate folders holds both executables
   */
  public static Ffmpeg shared() {
    Ffmpeg found = shared;
    if (found == null) {
      synchronized (Ffmpeg.class) {
        found = shared;
        if (found == null) {
          found = locate(candidates());
          shared = found;
        }
      }
    }
    return found;
  }

  /** The executables in {@code folder} (for tests and the bench). */
  public static Ffmpeg in(Path folder) {
    return locate(List.of(folder.toAbsolutePath()));
  }

  /** Whether the executables of this process's setting can be found. */
  public static boolean available() {
    try {
      shared();
      return true;
    } catch (FfmpegUnavailableException e) {
      return false;
    }
  }

  /** The folders looked in, in order, for the current setting. */
  public static List<Path> candidates() {
    String setting = System.getProperty(PATH_PROPERTY, System.getenv(PATH_ENVIRONMENT));
    Path path = Path.of(setting == null || setting.isBlank() ? DEFAULT_PATH : setting);
    path = path.toAbsolutePath();
    return List.of(path, path.resolve("ffmpeg"), path.resolve(platform()).resolve("ffmpeg"));
  }

  /**
   * The platform name of this JVM, as the layer folders are named: {@code linux-x64} or {@code
   * linux-arm64}.
   */
  public static String platform() {
    String arch = System.getProperty("os.arch", "").toLowerCase(Locale.ROOT);
    return arch.equals("aarch64") || arch.equals("arm64") ? "linux-arm64" : "linux-x64";
  }

  private static Ffmpeg locate(List<Path> candidates) {
    List<String> reasons = new ArrayList<>();
    for (Path folder : candidates) {
      Path ffmpeg = folder.resolve(Tool.FFMPEG.file);
      Path ffprobe = folder.resolve(Tool.FFPROBE.file);
      if (Files.isExecutable(ffmpeg) && Files.isExecutable(ffprobe)) {
        return new Ffmpeg(folder);
      }
      reasons.add(
          folder
              + (Files.isDirectory(folder)
                  ? " has no executable ffmpeg and ffprobe"
                  : " does not exist"));
    }
    throw new FfmpegUnavailableException(
        "FFmpeg is not installed here: "
            + String.join("; ", reasons)
            + " (set "
            + PATH_ENVIRONMENT
            + " to the folder of the FFmpeg layer, worker-functions/ffmpeg/target/layer when built)");
  }

  /** The folder holding the executables and their libraries. */
  public Path folder() {
    return folder;
  }

  /**
   * Runs {@code tool} with {@code arguments} and returns what it printed on its standard output.
   *
   * @param stdin bytes written to its standard input, or {@code null} for none
   * @param maxOutputBytes the most it may print; past that it is killed and the run fails
   * @param timeout the time it is given; past that it is killed
   * @throws FfmpegTimeoutException past {@code timeout}, or if this thread is interrupted (the
   *     process is killed first; the interrupt flag is kept)
   * @throws FfmpegException if it exits non-zero (FFmpeg's last error lines as the message) or
   *     prints too much
   * @throws FfmpegUnavailableException if it cannot be started
   */
  public byte[] run(
      Tool tool, List<String> arguments, byte[] stdin, long maxOutputBytes, Duration timeout) {
    List<String> command = new ArrayList<>();
    command.add(folder.resolve(tool.file).toString());
    command.addAll(arguments);
    ProcessBuilder builder = new ProcessBuilder(command);
    builder.environment().clear();
    builder.environment().put("LD_LIBRARY_PATH", folder.toString());
    Process process;
    try {
      process = builder.start();
    } catch (IOException e) {
      throw new FfmpegUnavailableException(
          "cannot start " + command.getFirst() + ": " + e.getMessage());
    }
    Output output = new Output(maxOutputBytes, process);
    StringBuilder errors = new StringBuilder();
    Thread reader = Thread.ofVirtual().start(() -> output.drain(process.getInputStream()));
    Thread errorReader = Thread.ofVirtual().start(() -> tail(process.getErrorStream(), errors));
    Thread writer = Thread.ofVirtual().start(() -> write(process.getOutputStream(), stdin));
    try {
      if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
        kill(process);
        throw new FfmpegTimeoutException(
            timeout,
            tool.file + " did not finish within " + timeout.toMillis() + " ms and was killed");
      }
      reader.join();
      errorReader.join();
      writer.join();
    } catch (InterruptedException e) {
      kill(process);
      Thread.currentThread().interrupt();
      throw new FfmpegTimeoutException(timeout, tool.file + " was killed: its step was stopped");
    }
    if (output.overflowed) {
      throw new FfmpegException(
          -1, tool.file + " printed more than " + maxOutputBytes + " bytes and was killed");
    }
    int exit = process.exitValue();
    if (exit != 0) {
      String message;
      synchronized (errors) {
        message = errors.toString().strip();
      }
      throw new FfmpegException(
          exit, message.isEmpty() ? tool.file + " exited with " + exit : message);
    }
    return output.bytes();
  }

  private static void kill(Process process) {
    process.descendants().forEach(ProcessHandle::destroyForcibly);
    process.destroyForcibly();
    try {
      process.waitFor(2, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private static void write(OutputStream stdin, byte[] bytes) {
    try (stdin) {
      if (bytes != null) {
        stdin.write(bytes);
      }
    } catch (IOException e) {
      // the process stopped reading (it failed or was killed): its exit status tells why
    }
  }

  /** Keeps the last {@value #ERROR_TAIL_CHARS} characters of {@code stream} in {@code tail}. */
  private static void tail(InputStream stream, StringBuilder tail) {
    byte[] buffer = new byte[8192];
    try (stream) {
      int n;
      while ((n = stream.read(buffer)) > 0) {
        synchronized (tail) {
          tail.append(new String(buffer, 0, n, StandardCharsets.UTF_8));
          if (tail.length() > ERROR_TAIL_CHARS) {
            tail.delete(0, tail.length() - ERROR_TAIL_CHARS);
          }
        }
      }
    } catch (IOException e) {
      // the process ended
    }
  }

  /** The standard output, collected up to its bound; past it the process is killed. */
  private static final class Output {
    private final long max;
    private final Process process;
    private byte[] bytes;
    private int length;
    private volatile boolean overflowed;

    Output(long max, Process process) {
      this.max = max;
      this.process = process;
      this.bytes = new byte[(int) Math.min(max, 1 << 20)];
    }

    void drain(InputStream stream) {
      try (stream) {
        while (true) {
          if (length == bytes.length) {
            if (length >= max) {
              if (stream.read() < 0) {
                return;
              }
              overflowed = true;
              kill(process);
              return;
            }
            bytes =
                Arrays.copyOf(
                    bytes, (int) Math.min(max, Math.min(Integer.MAX_VALUE - 8, (long) length * 2)));
          }
          int n = stream.read(bytes, length, bytes.length - length);
          if (n < 0) {
            return;
          }
          length += n;
        }
      } catch (IOException e) {
        // the process ended
      }
    }

    byte[] bytes() {
      return length == bytes.length ? bytes : Arrays.copyOf(bytes, length);
    }
  }
}
