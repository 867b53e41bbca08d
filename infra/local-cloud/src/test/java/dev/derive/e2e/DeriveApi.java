package dev.derive.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.derive.infra.local.cli.UploadCommand;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/** A small client of Derive's public HTTP API for end-to-end tests: HTTP only, no AWS SDK. */
final class DeriveApi {
  static final Duration JOB_TIMEOUT = Duration.ofSeconds(120);

  final ObjectMapper json = new ObjectMapper();
  private final HttpClient http =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
  private final URI api;
  private final Map<String, String> uploaded = new ConcurrentHashMap<>();

  DeriveApi(URI api) {
    this.api = api;
  }

  /**
   * Uploads {@code file} through {@code POST /v1/uploads} and the presigned PUT, as {@code ./derive
   * upload} does (once per file), and returns its key.
   */
  String upload(Path file) throws IOException, InterruptedException {
    return upload(file, null);
  }

  /** Uploads {@code file} declared as {@code contentType} ({@code null}: guessed from its name). */
  String upload(Path file, String contentType) throws IOException, InterruptedException {
    String known = uploaded.get(file.toString());
    if (known != null) {
      return known;
    }
    UploadCommand command = new UploadCommand(api);
    String key = contentType == null ? command.upload(file) : command.upload(file, contentType);
    uploaded.put(file.toString(), key);
    return key;
  }

  /** POSTs a JSON body to {@code path}. */
  HttpResponse<String> post(String path, String body) throws IOException, InterruptedException {
    return http.send(
        HttpRequest.newBuilder(api.resolve(path))
            .header("content-type", "application/json")
            .POST(HttpRequest.BodyPublishers.ofString(body))
            .build(),
        HttpResponse.BodyHandlers.ofString());
  }

  /** GETs {@code path} of the API. */
  HttpResponse<String> get(String path) throws IOException, InterruptedException {
    return http.send(
        HttpRequest.newBuilder(api.resolve(path)).build(), HttpResponse.BodyHandlers.ofString());
  }

  /** Polls {@code GET /v1/derivatives/{id}} until SUCCEEDED and returns that body. */
  JsonNode awaitSucceeded(String id) throws IOException, InterruptedException {
    JsonNode job = awaitTerminal(id);
    assertThat(job.path("status").asText()).as(job.toString()).isEqualTo("SUCCEEDED");
    return job;
  }

  /** Polls {@code GET /v1/derivatives/{id}} until SUCCEEDED or FAILED and returns that body. */
  JsonNode awaitTerminal(String id) throws IOException, InterruptedException {
    long deadline = System.nanoTime() + JOB_TIMEOUT.toNanos();
    JsonNode job = null;
    while (System.nanoTime() < deadline) {
      HttpResponse<String> response = get("/v1/derivatives/" + id);
      assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
      job = json.readTree(response.body());
      String status = job.path("status").asText();
      if (status.equals("SUCCEEDED") || status.equals("FAILED")) {
        return job;
      }
      assertThat(status).as(response.body()).isIn("PENDING", "RUNNING");
      Thread.sleep(250);
    }
    return fail("job " + id + " did not finish within " + JOB_TIMEOUT + "; last seen " + job);
  }

  /** Downloads the derivative a SUCCEEDED job body points at. */
  byte[] download(JsonNode succeeded) throws IOException, InterruptedException {
    String url = succeeded.path("download").path("url").asText();
    assertThat(url).as(succeeded.toString()).startsWith("http");
    HttpResponse<byte[]> response =
        http.send(
            HttpRequest.newBuilder(URI.create(url)).build(),
            HttpResponse.BodyHandlers.ofByteArray());
    assertThat(response.statusCode()).isEqualTo(200);
    return response.body();
  }

  /** The {@code id} member of a JSON response body. */
  String id(HttpResponse<String> response) throws IOException {
    return json.readTree(response.body()).path("id").asText();
  }
}
