package dev.derive.infra.endpoint;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.net.HttpURLConnection;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * A moto server (https://github.com/getmoto/moto) started as a child process on a free loopback
 * port. One process serves S3, SQS and DynamoDB. It is stopped by {@link #close()} and, should the
 * JVM exit first, by a shutdown hook.
 */
public final class MotoServerEndpoint implements AwsEndpoint {
  /** How long moto may take to answer its first request (it imports every service at start). */
  private static final Duration STARTUP_TIMEOUT = Duration.ofSeconds(60);

  private static final String ATOMIC_SERVER_SCRIPT = "moto_atomic_server.py";

  /** The variable naming the file {@code moto_atomic_server.py} traces each request to. */
  public static final String TRACE_VARIABLE = "DERIVE_ENDPOINT_TRACE";

  /** How long the shutdown hook waits for an explicit {@link #close()} during JVM exit. */
  private static final Duration OWNER_SHUTDOWN_GRACE = Duration.ofSeconds(5);

  private final CountDownLatch closed = new CountDownLatch(1);

  private final Process process;
  private final URI uri;
  private final Thread shutdownHook;

  private MotoServerEndpoint(Process process, URI uri) {
    this.process = process;
    this.uri = uri;
    // A safety net for a JVM that exits without close(). Shutdown hooks run concurrently, so give
    // an owner's own hook (which stops its clients first, then calls close()) a moment to finish.
    this.shutdownHook =
        new Thread(
            () -> {
              try {
                closed.await(OWNER_SHUTDOWN_GRACE.toMillis(), TimeUnit.MILLISECONDS);
              } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
              }
              process.destroyForcibly();
            },
            "moto-server-stop");
    Runtime.getRuntime().addShutdownHook(shutdownHook);
  }

  /**
   * Starts moto on a free port of 127.0.0.1 and waits until it answers. moto runs through {@code
   * moto_atomic_server.py} (beside this class), which applies each request atomically as AWS does
   * (see that file for why).
   *
   * @param log where moto's own output goes (appended); the wrapper script is written beside it
   * @throws EndpointUnavailableException if moto is not installed or does not come up in time
   */
  public static MotoServerEndpoint start(Path log) {
    String trace = System.getenv(TRACE_VARIABLE);
    return start(log, trace == null || trace.isBlank() ? null : Path.of(trace));
  }

  /**
   * Starts moto as {@link #start(Path)} does, appending one line per request to {@code trace}:
   * arrival and end (epoch milliseconds, the server's clock), method, operation ({@code
   * X-Amz-Target} or the query string) and path. It is how a latency question is answered call by
   * call ({@code DERIVE_ENDPOINT_TRACE=FILE ./derive bench …} sets it for the local cloud).
   *
   * @param trace the file to append to; {@code null} for no trace
   * @throws EndpointUnavailableException if moto is not installed or does not come up in time
   */
  public static MotoServerEndpoint start(Path log, Path trace) {
    Path python = findPython();
    int port = freePort();
    Process process;
    List<String> command;
    try {
      Path dir = log.toAbsolutePath().getParent();
      Files.createDirectories(dir);
      Path script = dir.resolve(ATOMIC_SERVER_SCRIPT);
      try (InputStream in = MotoServerEndpoint.class.getResourceAsStream(ATOMIC_SERVER_SCRIPT)) {
        Files.copy(in, script, StandardCopyOption.REPLACE_EXISTING);
      }
      command =
          List.of(
              python.toString(),
              script.toString(),
              "-H",
              "127.0.0.1",
              "-p",
              Integer.toString(port));
      ProcessBuilder builder =
          new ProcessBuilder(command)
              .redirectErrorStream(true)
              .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
      builder.environment().remove(TRACE_VARIABLE);
      if (trace != null) {
        builder.environment().put(TRACE_VARIABLE, trace.toAbsolutePath().toString());
      }
      process = builder.start();
    } catch (IOException e) {
      throw new EndpointUnavailableException("cannot start moto server with " + python, e);
    }
    URI uri = URI.create("http://127.0.0.1:" + port);
    MotoServerEndpoint endpoint = new MotoServerEndpoint(process, uri);
    endpoint.awaitReady(log);
    return endpoint;
  }

  /**
   * Finds a Python interpreter that has moto: the one {@code moto_server} on the PATH was installed
   * with, then those under pyenv's {@code versions/}*{@code /bin/}, then {@code python3} on the
   * PATH.
   */
  static Path findPython() {
    List<Path> candidates = new ArrayList<>();
    onPath("moto_server").ifPresent(script -> candidates.addAll(interpretersOf(script)));
    String pyenvRoot =
        System.getenv().getOrDefault("PYENV_ROOT", System.getProperty("user.home") + "/.pyenv");
    Path versions = Path.of(pyenvRoot, "versions");
    if (Files.isDirectory(versions)) {
      try (Stream<Path> dirs = Files.list(versions)) {
        dirs.sorted(Comparator.reverseOrder())
            .map(d -> d.resolve("bin/moto_server"))
            .filter(Files::isRegularFile)
            .forEach(script -> candidates.addAll(interpretersOf(script)));
      } catch (IOException e) {
        // fall through to python3
      }
    }
    onPath("python3").ifPresent(candidates::add);
    for (Path candidate : candidates) {
      if (Files.isExecutable(candidate) && importsMoto(candidate)) {
        return candidate;
      }
    }
    throw new EndpointUnavailableException(
        "No AWS endpoint: no Python with moto was found (looked for moto_server on PATH, under"
            + " pyenv's versions/*/bin, and python3 on PATH). Install it with"
            + " `pip install 'moto[server]'` (moto 5.x), or set AWS_ENDPOINT_URL to a running"
            + " endpoint such as LocalStack.");
  }

  /** The interpreters a console script may run with: its neighbours, then its shebang's. */
  private static List<Path> interpretersOf(Path script) {
    List<Path> found = new ArrayList<>();
    Path bin = script.toAbsolutePath().getParent();
    found.add(bin.resolve("python3"));
    found.add(bin.resolve("python"));
    try (BufferedReader reader = Files.newBufferedReader(script, StandardCharsets.UTF_8)) {
      String first = reader.readLine();
      if (first != null && first.startsWith("#!")) {
        String[] words = first.substring(2).trim().split("\\s+");
        if (words[0].endsWith("/env") && words.length > 1) {
          onPath(words[1]).ifPresent(found::add);
        } else {
          found.add(Path.of(words[0]));
        }
      }
    } catch (IOException | RuntimeException e) {
      // not a readable script; its neighbours may still do
    }
    return found;
  }

  private static boolean importsMoto(Path python) {
    try {
      Process probe =
          new ProcessBuilder(python.toString(), "-c", "import moto.server, moto.sqs.models")
              .redirectErrorStream(true)
              .redirectOutput(ProcessBuilder.Redirect.DISCARD)
              .start();
      return probe.waitFor() == 0;
    } catch (IOException e) {
      return false;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }

  private static Optional<Path> onPath(String name) {
    String path = System.getenv("PATH");
    if (path == null) {
      return Optional.empty();
    }
    for (String dir : path.split(java.io.File.pathSeparator)) {
      Path candidate = Path.of(dir, name);
      if (Files.isExecutable(candidate)) {
        return Optional.of(candidate);
      }
    }
    return Optional.empty();
  }

  private static int freePort() {
    try (ServerSocket socket = new ServerSocket(0, 0, java.net.InetAddress.getLoopbackAddress())) {
      return socket.getLocalPort();
    } catch (IOException e) {
      throw new EndpointUnavailableException("no free loopback port for moto", e);
    }
  }

  private void awaitReady(Path log) {
    long deadline = System.nanoTime() + STARTUP_TIMEOUT.toNanos();
    while (System.nanoTime() < deadline) {
      if (!process.isAlive()) {
        close();
        throw new EndpointUnavailableException(
            "moto server exited with code " + process.exitValue() + "; see " + log);
      }
      try {
        HttpURLConnection connection =
            (HttpURLConnection) uri.resolve("/moto-api/").toURL().openConnection();
        connection.setConnectTimeout(500);
        connection.setReadTimeout(2000);
        if (connection.getResponseCode() > 0) {
          connection.disconnect();
          return;
        }
      } catch (IOException notYet) {
        // not listening yet
      }
      try {
        Thread.sleep(100);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        break;
      }
    }
    close();
    throw new EndpointUnavailableException(
        "moto server did not answer within " + STARTUP_TIMEOUT.toSeconds() + " s; see " + log);
  }

  @Override
  public URI uri() {
    return uri;
  }

  @Override
  public String describe() {
    return "moto server at " + uri + " (pid " + process.pid() + ")";
  }

  @Override
  public void close() {
    closed.countDown();
    process.destroy();
    try {
      if (!process.waitFor(5, TimeUnit.SECONDS)) {
        process.destroyForcibly();
      }
    } catch (InterruptedException e) {
      process.destroyForcibly();
      Thread.currentThread().interrupt();
    }
    try {
      Runtime.getRuntime().removeShutdownHook(shutdownHook);
    } catch (IllegalStateException shuttingDown) {
      // the hook is running or has run
    }
  }
}
