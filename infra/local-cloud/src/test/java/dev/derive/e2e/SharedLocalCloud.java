package dev.derive.e2e;

import static org.junit.jupiter.api.Assertions.fail;

import dev.derive.infra.local.LocalCloud;
import dev.derive.infra.local.LocalCloudOptions;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.stream.Stream;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * One local cloud for every end-to-end test class of a test run: started on first use from the
 * repository's {@code template.yaml} and the packaged {@code function.zip} artifacts, stopped when
 * JUnit closes its root store at the end of the run.
 *
 * <p>It runs with the parameters {@code ./derive up} gives a developer's stack and the tests need:
 * an image URL signing key and a callback signing key of its own, loopback callback receivers
 * allowed, completion events recorded in a queue, failed callbacks retried after 1 s, and image
 * URLs waiting up to 20 s (a cold image worker may take longer than the default 5 s). Every line of
 * the cloud and its functions is kept ({@link #log()}) and printed.
 */
final class SharedLocalCloud implements ExtensionContext.Store.CloseableResource {
  private final LocalCloud cloud;
  private final Path samples;
  private final Queue<String> log;
  private final String urlSigningKey;
  private final String callbackSigningKey;

  private SharedLocalCloud(
      LocalCloud cloud,
      Path samples,
      Queue<String> log,
      String urlSigningKey,
      String callbackSigningKey) {
    this.cloud = cloud;
    this.samples = samples;
    this.log = log;
    this.urlSigningKey = urlSigningKey;
    this.callbackSigningKey = callbackSigningKey;
  }

  /** The running cloud, started on first call within this JUnit run. */
  static SharedLocalCloud in(ExtensionContext context) {
    return context
        .getRoot()
        .getStore(ExtensionContext.Namespace.GLOBAL)
        .getOrComputeIfAbsent(SharedLocalCloud.class, k -> start(), SharedLocalCloud.class);
  }

  LocalCloud cloud() {
    return cloud;
  }

  /** The sample corpus ({@code -Dderive.samples}, default {@code ../shared/samples}). */
  Path samples() {
    return samples;
  }

  /** Every line the cloud and its functions wrote since it started, in order. */
  Queue<String> log() {
    return log;
  }

  /** The {@code UrlSigningKeys} parameter: one key, hex. */
  String urlSigningKey() {
    return urlSigningKey;
  }

  /** The API URL of the image URL {@code path} ({@code /<options>/<key>}) signed with its key. */
  java.net.URI signed(String path) {
    return cloud.apiUri().resolve("/v1/" + signature(urlSigningKey, path) + path);
  }

  /**
   * An image URL's signature (docs/image-urls.md): HMAC-SHA256 of {@code path} under {@code
   * hexKey}, base64url without padding.
   */
  static String signature(String hexKey, String path) {
    try {
      javax.crypto.Mac mac = javax.crypto.Mac.getInstance("HmacSHA256");
      mac.init(new javax.crypto.spec.SecretKeySpec(HexFormat.of().parseHex(hexKey), "HmacSHA256"));
      return java.util.Base64.getUrlEncoder()
          .withoutPadding()
          .encodeToString(mac.doFinal(path.getBytes(java.nio.charset.StandardCharsets.UTF_8)));
    } catch (java.security.GeneralSecurityException e) {
      throw new IllegalStateException("HmacSHA256 is part of every JDK", e);
    }
  }

  /** The {@code CallbackSigningKey} parameter, hex. */
  String callbackSigningKey() {
    return callbackSigningKey;
  }

  @Override
  public void close() {
    cloud.close();
  }

  private static SharedLocalCloud start() {
    Path root = repositoryRoot();
    Path samples = Path.of(System.getProperty("derive.samples", root + "/../shared/samples"));
    if (!Files.isRegularFile(samples.resolve("MANIFEST.tsv"))) {
      fail(
          "The sample corpus is missing at "
              + samples
              + ": put ../shared/samples beside the clone or pass -Dderive.samples=/path");
    }
    requireFunctionZips(root);
    Queue<String> log = new ConcurrentLinkedQueue<>();
    String urlSigningKey = randomKey();
    String callbackSigningKey = randomKey();
    LocalCloud cloud =
        LocalCloud.start(
            LocalCloudOptions.builder(root.resolve("template.yaml"))
                .workDir(root.resolve("infra/local-cloud/target/e2e-cloud"))
                .httpPort(0)
                .parameter("UrlSigningKeys", urlSigningKey)
                .parameter("ImageUrlWaitSeconds", "20")
                .parameter("CallbackSigningKey", callbackSigningKey)
                .parameter("CallbackAllowLoopback", "true")
                .parameter("RecordCompletionEvents", "true")
                .property("CallbackFunction.Environment.Variables.CALLBACK_RETRY_BASE_SECONDS", "1")
                .log(
                    line -> {
                      log.add(line);
                      System.out.println(line);
                    })
                .build());
    return new SharedLocalCloud(cloud, samples, log, urlSigningKey, callbackSigningKey);
  }

  /** 32 random bytes, hex. */
  private static String randomKey() {
    byte[] key = new byte[32];
    new SecureRandom().nextBytes(key);
    return HexFormat.of().formatHex(key);
  }

  /** The repository's root ({@code -Dderive.root}, default two folders up from this module). */
  static Path repositoryRoot() {
    return Path.of(System.getProperty("derive.root", "../..")).toAbsolutePath().normalize();
  }

  /** Fails the test unless every {@code CodeUri} of {@code root}'s template.yaml is built. */
  static void requireFunctionZips(Path root) {
    try (Stream<String> codeUris = codeUris(root)) {
      codeUris
          .map(root::resolve)
          .filter(zip -> !Files.isRegularFile(zip))
          .findFirst()
          .ifPresent(
              zip -> fail(zip + " is missing: run the tests from the root with ./derive test"));
    }
  }

  /** Every function's CodeUri, read from the template's text. */
  private static Stream<String> codeUris(Path root) {
    try {
      return Files.readAllLines(root.resolve("template.yaml")).stream()
          .map(String::trim)
          .filter(line -> line.startsWith("CodeUri:"))
          .map(line -> line.substring("CodeUri:".length()).trim());
    } catch (java.io.IOException e) {
      return fail("cannot read template.yaml under " + root, e);
    }
  }
}
