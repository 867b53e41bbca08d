package dev.derive.infra.local.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.net.URLConnection;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;

/**
 * {@code upload FILE [--api URL]}: uploads a local file as a new source through the API ({@code
 * POST /v1/uploads}, then a PUT to the presigned URL) and prints its source key. Works against the
 * local cloud and a deployed stack alike, since it uses only the public API.
 */
public final class UploadCommand {
  private static final ObjectMapper JSON = new ObjectMapper();

  private final HttpClient http =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
  private final URI api;

  /** Talks to the API at {@code api}, e.g. {@code http://127.0.0.1:3000}. */
  public UploadCommand(URI api) {
    this.api = api;
  }

  /**
   * Uploads {@code file} and returns the source key it was stored under.
   *
   * @throws IOException if the file cannot be read or the API or the upload refuses it (the message
   *     carries the API's problem detail)
   */
  public String upload(Path file) throws IOException, InterruptedException {
    String guessed = URLConnection.guessContentTypeFromName(file.getFileName().toString());
    return upload(file, guessed == null ? "application/octet-stream" : guessed);
  }

  /**
   * Uploads {@code file} declared as {@code contentType}, with its SHA-256 (which the upload URL
   * then signs and S3 keeps, so Derive knows the same bytes uploaded again), and returns its source
   * key. Derive identifies sources by their bytes, so the declared type only labels the stored
   * object.
   *
   * @throws IOException if the file cannot be read or the API or the upload refuses it
   */
  public String upload(Path file, String contentType) throws IOException, InterruptedException {
    byte[] bytes = Files.readAllBytes(file);
    String declaration =
        JSON.writeValueAsString(
            Map.of(
                "fileName",
                file.getFileName().toString(),
                "contentType",
                contentType,
                "size",
                bytes.length,
                "sha256",
                sha256(bytes)));
    HttpResponse<String> created =
        http.send(
            HttpRequest.newBuilder(api.resolve("/v1/uploads"))
                .header("content-type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(declaration))
                .build(),
            HttpResponse.BodyHandlers.ofString());
    if (created.statusCode() != 201) {
      throw new IOException(
          "POST /v1/uploads answered " + created.statusCode() + ": " + created.body());
    }
    JsonNode upload = JSON.readTree(created.body());
    HttpRequest.Builder put =
        HttpRequest.newBuilder(URI.create(upload.path("upload").path("url").asText()))
            .PUT(HttpRequest.BodyPublishers.ofByteArray(bytes));
    upload
        .path("upload")
        .path("headers")
        .fields()
        .forEachRemaining(h -> put.header(h.getKey(), h.getValue().asText()));
    HttpResponse<String> stored = http.send(put.build(), HttpResponse.BodyHandlers.ofString());
    if (stored.statusCode() / 100 != 2) {
      throw new IOException("upload PUT answered " + stored.statusCode() + ": " + stored.body());
    }
    return upload.path("key").asText();
  }

  private static String sha256(byte[] bytes) {
    try {
      return java.util.Base64.getEncoder()
          .encodeToString(java.security.MessageDigest.getInstance("SHA-256").digest(bytes));
    } catch (java.security.NoSuchAlgorithmException e) {
      throw new IllegalStateException("every Java has SHA-256", e);
    }
  }

  /**
   * Says what went wrong in words a user can act on: a missing file, an API that does not answer,
   * or the API's own message.
   */
  public static String describe(IOException e) {
    if (e instanceof java.nio.file.NoSuchFileException missing) {
      return "no such file: " + missing.getFile();
    }
    if (e instanceof java.nio.file.AccessDeniedException denied) {
      return "cannot read " + denied.getFile();
    }
    if (e instanceof java.net.ConnectException || e.getMessage() == null) {
      return "the API does not answer ("
          + e.getClass().getSimpleName()
          + "); is ./derive up running, or is --api right?";
    }
    return e.getMessage();
  }
}
