package dev.derive.infra.local.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What a running {@code ./derive up} tells the commands run in another terminal: its AWS endpoint,
 * region and stack name, the file it appends every function line to, and its HTTP API's URL (which
 * {@code upload}, {@code derive} and {@code sign} call unless {@code --api} says otherwise: {@code
 * up --port N} moves it off {@value #DEFAULT_API}). Written as {@value #FILE_NAME} in the state
 * folder ({@code .derive/} of the clone) when the local cloud is ready, deleted when it stops.
 *
 * @param endpoint the AWS endpoint (moto, LocalStack …)
 * @param region the region requests are signed for
 * @param stackName the local stack's name ({@code AWS::StackName})
 * @param functionLog the file holding every function line, each as {@code [LogicalId] line}
 * @param api the HTTP API's base URL, e.g. {@code http://127.0.0.1:3000}
 */
public record LocalCloudState(
    URI endpoint, String region, String stackName, Path functionLog, URI api) {
  /** The API's URL when no local cloud says otherwise: {@code ./derive up}'s default port. */
  public static final String DEFAULT_API = "http://127.0.0.1:3000";

  /** The state file's name in the state folder. */
  public static final String FILE_NAME = "local-cloud.json";

  /** The function log's name in the state folder. */
  public static final String LOG_NAME = "functions.log";

  private static final ObjectMapper JSON = new ObjectMapper();

  /** Writes this state into {@code stateDir}. */
  public void write(Path stateDir) throws IOException {
    Files.createDirectories(stateDir);
    Map<String, String> state = new LinkedHashMap<>();
    state.put("endpoint", endpoint.toString());
    state.put("region", region);
    state.put("stackName", stackName);
    state.put("functionLog", functionLog.toAbsolutePath().toString());
    state.put("api", api.toString());
    Files.writeString(stateDir.resolve(FILE_NAME), JSON.writeValueAsString(state));
  }

  /**
   * Reads the state a running local cloud wrote into {@code stateDir}.
   *
   * @throws IOException if there is none (no {@code ./derive up} running) or it is unreadable
   */
  public static LocalCloudState read(Path stateDir) throws IOException {
    Path file = stateDir.resolve(FILE_NAME);
    if (!Files.isRegularFile(file)) {
      throw new IOException(
          "no local cloud is running (no "
              + file
              + "): start one with ./derive up, or name a deployed stack with --stack NAME"
              + " --region REGION");
    }
    JsonNode state = JSON.readTree(file.toFile());
    return new LocalCloudState(
        URI.create(state.path("endpoint").asText()),
        state.path("region").asText("us-east-1"),
        state.path("stackName").asText(),
        Path.of(state.path("functionLog").asText()),
        URI.create(state.path("api").asText(DEFAULT_API)));
  }

  /**
   * The API a command talks to: {@code explicit} (its {@code --api}) if given, else the running
   * local cloud's, else {@value #DEFAULT_API}.
   *
   * @param explicit the command's {@code --api} value, or {@code null}
   */
  public static URI api(String explicit, Path stateDir) {
    if (explicit != null) {
      return URI.create(explicit);
    }
    try {
      return read(stateDir).api();
    } catch (IOException | RuntimeException e) {
      // no local cloud running (or its state unreadable): the default, which then does not answer
      return URI.create(DEFAULT_API);
    }
  }
}
