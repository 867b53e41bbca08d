package dev.derive.infra.local.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.function.Consumer;
import org.apache.tika.mime.MimeTypeException;
import org.apache.tika.mime.MimeTypes;

/**
 * {@code derive SOURCE TARGET [--width N] [--height N] [--fit F] [--quality Q] [--page N] [--output
 * FILE] [--api URL] [--timeout SECONDS]}: requests a derivative through the public API and
 * downloads it.
 *
 * <ul>
 *   <li>SOURCE is a local file (uploaded first, as {@link UploadCommand} does) or, if no such file
 *       exists, a key in the source bucket;
 *   <li>TARGET is a media type, with the options given as flags ({@code image/jpeg --width 256}),
 *       or a complete JSON target ({@code '{"mediaType":"image/png","width":64}'});
 *   <li>while it waits it prints each status change and each step when it ends, with its duration;
 *   <li>on success it writes the derivative to {@code --output} (default {@code <source
 *       name>.derived.<extension>}) and prints the path; a FAILED job or a problem answer is an
 *       {@link IOException} carrying the API's error.
 * </ul>
 *
 * Uses only the public API, so it works against the local cloud and a deployed stack alike.
 */
public final class DeriveCommand {
  private static final ObjectMapper JSON = new ObjectMapper();

  /** Tika's media type registry (its MIME database's globs): the extension of an output. */
  private static final MimeTypes MEDIA_TYPES = MimeTypes.getDefaultMimeTypes();

  private final HttpClient http =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
  private final URI api;
  private final Consumer<String> progress;
  private final Duration pollInterval;

  /**
   * @param api the API base, e.g. {@code http://127.0.0.1:3000}
   * @param progress receives one line per status change or finished step
   * @param pollInterval the wait between two {@code GET /v1/derivatives/{id}}
   */
  public DeriveCommand(URI api, Consumer<String> progress, Duration pollInterval) {
    this.api = api;
    this.progress = progress;
    this.pollInterval = pollInterval;
  }

  /**
   * The request's {@code target}: {@code target} itself if it is a JSON object, else {@code
   * {"mediaType": target}} with {@code options} added (whole numbers as numbers).
   *
   * @throws IllegalArgumentException if {@code target} starts like JSON but is not an object
   */
  public static ObjectNode target(String target, Map<String, String> options) {
    if (target.trim().startsWith("{")) {
      try {
        JsonNode node = JSON.readTree(target);
        if (node instanceof ObjectNode object) {
          return object;
        }
      } catch (IOException e) {
        throw new IllegalArgumentException("TARGET is not valid JSON: " + e.getMessage(), e);
      }
      throw new IllegalArgumentException("TARGET JSON must be an object");
    }
    ObjectNode node = JSON.createObjectNode();
    node.put("mediaType", target);
    options.forEach(
        (name, value) -> {
          if (value.matches("-?\\d{1,18}")) {
            node.put(name, Long.parseLong(value));
          } else {
            node.put(name, value);
          }
        });
    return node;
  }

  /**
   * The {@code --timeout} option: how long to wait for the derivative, in whole seconds.
   *
   * @throws IllegalArgumentException if {@code seconds} is not a whole number of seconds above 0,
   *     saying so with the option's name
   */
  public static Duration timeout(String seconds) {
    if (seconds == null || !seconds.matches("\\d{1,9}") || Long.parseLong(seconds) == 0) {
      throw new IllegalArgumentException(
          "--timeout takes a whole number of seconds above 0, e.g. --timeout 300, not " + seconds);
    }
    return Duration.ofSeconds(Long.parseLong(seconds));
  }

  /** The default output file for a derivative of {@code source} in {@code mediaType}. */
  public static Path defaultOutput(String source, String mediaType) {
    String name = Path.of(source).getFileName().toString();
    int dot = name.lastIndexOf('.');
    String base = dot > 0 ? name.substring(0, dot) : name;
    return Path.of(base + ".derived." + extension(mediaType));
  }

  /** The usual extension of {@code mediaType} without its dot, {@code bin} for none. */
  static String extension(String mediaType) {
    if (mediaType == null || mediaType.isBlank()) {
      return "bin";
    }
    try {
      String extension =
          MEDIA_TYPES
              .forName(mediaType.toLowerCase(Locale.ROOT).split(";")[0].trim())
              .getExtension();
      return extension.isEmpty() ? "bin" : extension.substring(1);
    } catch (MimeTypeException e) {
      return "bin";
    }
  }

  /**
   * Uploads {@code source} if it is a local file, requests {@code target}, waits until the job ends
   * (at most {@code timeout}) and writes the derivative to {@code output} ({@code null} for the
   * default).
   *
   * @return the file written
   * @throws IllegalArgumentException if the API's schema refuses an option of {@code target}
   *     (checked before anything is uploaded: {@link TargetOptions})
   * @throws IOException if the API refuses the request, the job fails or does not end in time, or
   *     the download fails
   */
  public Path derive(String source, ObjectNode target, Path output, Duration timeout)
      throws IOException, InterruptedException {
    target = checked(target);
    String key = source;
    if (Files.isRegularFile(Path.of(source))) {
      key = new UploadCommand(api).upload(Path.of(source));
      progress.accept("uploaded " + source + " as " + key);
    }
    ObjectNode request = JSON.createObjectNode();
    request.putObject("source").put("key", key);
    request.set("target", target);
    HttpResponse<String> created =
        http.send(
            HttpRequest.newBuilder(api.resolve("/v1/derivatives"))
                .header("content-type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(JSON.writeValueAsString(request)))
                .build(),
            HttpResponse.BodyHandlers.ofString());
    if (created.statusCode() != 200 && created.statusCode() != 202) {
      throw new IOException(
          "POST /v1/derivatives answered " + created.statusCode() + ": " + created.body());
    }
    JsonNode job = JSON.readTree(created.body());
    String id = job.path("id").asText();
    progress.accept(
        "job " + id + ": " + job.path("status").asText() + " (HTTP " + created.statusCode() + ")");
    job = await(id, job, timeout);
    if (!job.path("status").asText().equals("SUCCEEDED")) {
      throw new IOException(
          "job " + id + " " + job.path("status").asText() + ": " + job.path("error"));
    }
    Path file =
        output != null ? output : defaultOutput(source, target.path("mediaType").asText(null));
    HttpResponse<Path> downloaded =
        http.send(
            HttpRequest.newBuilder(URI.create(job.path("download").path("url").asText())).build(),
            HttpResponse.BodyHandlers.ofFile(file));
    if (downloaded.statusCode() != 200) {
      Files.deleteIfExists(file);
      throw new IOException("download answered " + downloaded.statusCode());
    }
    progress.accept("wrote " + file + " (" + Files.size(file) + " bytes)");
    return file;
  }

  /**
   * {@code target} checked against the target schema the API serves ({@code GET /v1/schema}) and
   * typed as it says; as it is when the API serves no schema.
   *
   * @throws IOException if the API does not answer
   */
  private ObjectNode checked(ObjectNode target) throws IOException, InterruptedException {
    HttpResponse<String> schema =
        http.send(
            HttpRequest.newBuilder(api.resolve("/v1/schema")).build(),
            HttpResponse.BodyHandlers.ofString());
    if (schema.statusCode() != 200) {
      return target;
    }
    return TargetOptions.typed(
        JSON.readTree(schema.body()).path("properties").path("target"), target);
  }

  private JsonNode await(String id, JsonNode first, Duration timeout)
      throws IOException, InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    String status = first.path("status").asText();
    Map<Integer, String> reported = new HashMap<>();
    JsonNode job = first;
    while (!isTerminal(job) || (isSucceeded(job) && !job.hasNonNull("download"))) {
      if (System.nanoTime() > deadline) {
        throw new IOException(
            "job " + id + " still " + status + " after " + timeout.toSeconds() + " s");
      }
      Thread.sleep(pollInterval.toMillis());
      HttpResponse<String> response =
          http.send(
              HttpRequest.newBuilder(api.resolve("/v1/derivatives/" + id)).build(),
              HttpResponse.BodyHandlers.ofString());
      if (response.statusCode() != 200) {
        throw new IOException(
            "GET /v1/derivatives/"
                + id
                + " answered "
                + response.statusCode()
                + ": "
                + response.body());
      }
      job = JSON.readTree(response.body());
      if (!job.path("status").asText().equals(status)) {
        status = job.path("status").asText();
        progress.accept("job " + id + ": " + status);
      }
      reportSteps(job, reported);
    }
    reportSteps(job, reported);
    return job;
  }

  private void reportSteps(JsonNode job, Map<Integer, String> reported) {
    JsonNode steps = job.path("steps");
    for (int i = 0; i < steps.size(); i++) {
      JsonNode step = steps.get(i);
      String status = step.path("status").asText();
      if (status.equals(reported.get(i)) || status.equals("PENDING")) {
        continue;
      }
      reported.put(i, status);
      JsonNode operations = step.path("operations");
      progress.accept(
          "  step "
              + (i + 1)
              + " "
              + step.path("capability").asText()
              + (operations.isArray() && !operations.isEmpty() ? " " + names(operations) : "")
              + ": "
              + status
              + (step.hasNonNull("durationMillis")
                  ? " in " + step.path("durationMillis").asLong() + " ms"
                  : "")
              + (step.path("attempts").asInt() > 1
                  ? " after " + step.path("attempts").asInt() + " attempts"
                  : "")
              + (step.path("reused").asBoolean() ? " (reused)" : ""));
    }
  }

  /** {@code ["resize","encode"]} as {@code [resize, encode]}. */
  private static String names(JsonNode array) {
    StringBuilder text = new StringBuilder("[");
    for (JsonNode name : array) {
      text.append(text.length() > 1 ? ", " : "").append(name.asText());
    }
    return text.append(']').toString();
  }

  private static boolean isTerminal(JsonNode job) {
    String status = job.path("status").asText();
    return status.equals("SUCCEEDED") || status.equals("FAILED");
  }

  private static boolean isSucceeded(JsonNode job) {
    return job.path("status").asText().equals("SUCCEEDED");
  }
}
