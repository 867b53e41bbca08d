package dev.derive.infra.endpoint;

import java.io.IOException;
import java.net.HttpURLConnection;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * A moto server (https://github.com/getmoto/moto) started as a child process on a free loopback
 * port. One process serves S3, SQS and DynamoDB. It is stopped by {@link #close()} and, should the
 * JVM exit first, by a shutdown hook.
 */
public final class MotoServerEndpoint implements AwsEndpoint {
  /** How long moto may take to answer its first request (it imports every service at start). */
  private static final Duration STARTUP_TIMEOUT = Duration.ofSeconds(60);

  private final Process process;
  private final URI uri;
  private final Thread shutdownHook;

  private MotoServerEndpoint(Process process, URI uri) {
    this.process = process;
    this.uri = uri;
    this.shutdownHook = new Thread(process::destroyForcibly, "moto-server-stop");
    Runtime.getRuntime().addShutdownHook(shutdownHook);
  }

  /**
   * Starts moto on a free port of 127.0.0.1 and waits until it answers.
   *
   * @param log where moto's own output goes (appended)
   * @throws EndpointUnavailableException if moto is not installed or does not come up in time
   */
  public static MotoServerEndpoint start(Path log) {
    List<String> command = new ArrayList<>(findLauncher());
    int port = freePort();
    command.addAll(List.of("-H", "127.0.0.1", "-p", Integer.toString(port)));
    Process process;
    try {
      Files.createDirectories(log.toAbsolutePath().getParent());
      process =
          new ProcessBuilder(command)
              .redirectErrorStream(true)
              .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()))
              .start();
    } catch (IOException e) {
      throw new EndpointUnavailableException("cannot start moto server " + command, e);
    }
    URI uri = URI.create("http://127.0.0.1:" + port);
    MotoServerEndpoint endpoint = new MotoServerEndpoint(process, uri);
    endpoint.awaitReady(log);
    return endpoint;
  }

  /**
   * Finds a way to run moto: {@code moto_server} on the PATH, then under pyenv's {@code
   * versions/}*{@code /bin/}, then {@code python3 -m moto.server} if that module imports.
   */
  static List<String> findLauncher() {
    Optional<Path> onPath = onPath("moto_server");
    if (onPath.isPresent()) {
      return List.of(onPath.get().toString());
    }
    String pyenvRoot =
        System.getenv().getOrDefault("PYENV_ROOT", System.getProperty("user.home") + "/.pyenv");
    Path versions = Path.of(pyenvRoot, "versions");
    if (Files.isDirectory(versions)) {
      try (Stream<Path> dirs = Files.list(versions)) {
        Optional<Path> pyenv =
            dirs.map(d -> d.resolve("bin/moto_server"))
                .filter(Files::isExecutable)
                .max(Comparator.naturalOrder());
        if (pyenv.isPresent()) {
          return List.of(pyenv.get().toString());
        }
      } catch (IOException e) {
        // fall through to python3
      }
    }
    Optional<Path> python = onPath("python3");
    if (python.isPresent() && pythonHasMoto(python.get())) {
      return List.of(python.get().toString(), "-m", "moto.server");
    }
    throw new EndpointUnavailableException(
        "No AWS endpoint: moto_server was not found on PATH, under pyenv's versions/*/bin, nor as"
            + " python3 -m moto.server. Install it with `pip install 'moto[server]'` (moto 5.x), or"
            + " set AWS_ENDPOINT_URL to a running endpoint such as LocalStack.");
  }

  private static boolean pythonHasMoto(Path python) {
    try {
      Process probe =
          new ProcessBuilder(python.toString(), "-c", "import moto.server")
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
    process.destroy();
    try {
      if (!process.waitFor(5, java.util.concurrent.TimeUnit.SECONDS)) {
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
