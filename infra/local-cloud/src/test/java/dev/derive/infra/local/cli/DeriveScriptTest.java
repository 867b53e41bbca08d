package dev.derive.infra.local.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.derive.infra.local.RepositoryTemplate;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The repository's {@code ./derive} script and {@code scripts/prerequisites.sh}, run as a user runs
 * them: every command answers {@code --help} at once, and a missing system package is either
 * installed or named with the exact command.
 */
class DeriveScriptTest {
  private static final Path ROOT = RepositoryTemplate.path().toAbsolutePath().getParent();

  /** The state folder the script is pointed at ({@code DERIVE_STATE}), not the clone's. */
  @org.junit.jupiter.api.io.TempDir Path state;

  /**
   * Each command prints its own usage and exits 0 within seconds, before building or starting
   * anything (a build would print "derive: packaging" and take minutes).
   */
  @ParameterizedTest
  @ValueSource(
      strings = {
        "up", "test", "build", "upload", "derive", "sign", "status", "logs", "redrive", "events",
        "bench"
      })
  void everyCommandPrintsItsUsageAtOnce(String command) throws Exception {
    Run run = run(List.of("./derive", command, "--help"));

    assertThat(run.exit()).as(run.output()).isZero();
    assertThat(run.output())
        .startsWith("  ./derive " + command)
        .doesNotContain("derive: packaging", "missing value", "derive: installing");
  }

  /**
   * A missing package, for a user who may not install it: the script stops at once with the reason
   * and the exact apt-get command (here with {@code id} and {@code sudo} standing in for an
   * unprivileged user).
   */
  @Test
  void aMissingPackageIsNamedWithTheCommandThatInstallsIt() throws Exception {
    String script =
        ". scripts/prerequisites.sh;"
            + " derive_needs() { echo 'no-such-command-derive|pkg-one pkg-two|a reason'; };"
            + " id() { echo 1000; }; sudo() { return 1; };"
            + " derive_prerequisites test";
    Run run = run(List.of("bash", "-c", script));

    assertThat(run.exit()).isNotZero();
    assertThat(run.output())
        .contains("missing Debian packages pkg-one pkg-two, for a reason")
        .contains("sudo sh -c 'apt-get update && apt-get install -y pkg-one pkg-two'");
  }

  /**
   * A key with a space and a non-ASCII letter: the printed URL carries it percent-encoded as UTF-8
   * (so it can be sent as printed), and its signature is the HMAC of the path as the function
   * receives it from API Gateway, decoded: the key as stored (docs/image-urls.md).
   */
  @Test
  void signPercentEncodesTheKeyAndSignsThePathAsSent() throws Exception {
    String key = "00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff";
    ProcessBuilder sign =
        new ProcessBuilder("./derive", "sign", "rs:inside:256:256/uploads/my photo \u00e9.jpg");
    sign.environment().put("DERIVE_URL_SIGNING_KEY", key);
    // no local cloud running: the default API
    sign.environment().put("DERIVE_STATE", state.toString());
    Run run = run(sign);

    assertThat(run.exit()).as(run.output()).isZero();
    String url = run.output().strip();
    String path = "/rs:inside:256:256/uploads/my photo \u00e9.jpg";
    javax.crypto.Mac mac = javax.crypto.Mac.getInstance("HmacSHA256");
    mac.init(
        new javax.crypto.spec.SecretKeySpec(java.util.HexFormat.of().parseHex(key), "HmacSHA256"));
    String signature =
        java.util.Base64.getUrlEncoder()
            .withoutPadding()
            .encodeToString(mac.doFinal(path.getBytes(StandardCharsets.UTF_8)));
    assertThat(url)
        .isEqualTo(
            "http://127.0.0.1:3000/v1/"
                + signature
                + "/rs:inside:256:256/uploads/my%20photo%20%C3%A9.jpg");
  }

  /** {@code --api} before the path is read as the option, and an unknown option is refused. */
  @Test
  void signTakesItsOptionOnEitherSideOfThePathAndRefusesUnknownOnes() throws Exception {
    String key = "00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff";
    ProcessBuilder before =
        new ProcessBuilder("./derive", "sign", "--api", "http://127.0.0.1:3190", "w:64/a.jpg");
    before.environment().put("DERIVE_URL_SIGNING_KEY", key);
    ProcessBuilder after =
        new ProcessBuilder("./derive", "sign", "w:64/a.jpg", "--api", "http://127.0.0.1:3190");
    after.environment().put("DERIVE_URL_SIGNING_KEY", key);
    ProcessBuilder unknown = new ProcessBuilder("./derive", "sign", "--port", "3190", "w:64/a.jpg");
    unknown.environment().put("DERIVE_URL_SIGNING_KEY", key);

    Run first = run(before);
    Run second = run(after);
    Run refused = run(unknown);

    assertThat(first.exit()).as(first.output()).isZero();
    assertThat(first.output().strip())
        .startsWith("http://127.0.0.1:3190/v1/")
        .endsWith("/w:64/a.jpg")
        .isEqualTo(second.output().strip());
    assertThat(refused.exit()).isEqualTo(2);
    assertThat(refused.output()).contains("unknown option --port");
  }

  /**
   * {@code ./derive up --port 3190} records its API's URL in {@code local-cloud.json}: {@code sign}
   * (as {@code upload} and {@code derive}) calls that API, not {@code :3000}, and {@code --api}
   * still wins (found by a newcomer's trial: they defaulted to :3000 whatever the port).
   */
  @Test
  void signUsesTheApiTheRunningLocalCloudRecordedUnlessToldAnother() throws Exception {
    String key = "00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff";
    new LocalCloudState(
            java.net.URI.create("http://127.0.0.1:45999"),
            "us-east-1",
            "derive-local",
            state.resolve("functions.log"),
            java.net.URI.create("http://127.0.0.1:3190"))
        .write(state);
    ProcessBuilder recorded = new ProcessBuilder("./derive", "sign", "w:64/a.jpg");
    ProcessBuilder told =
        new ProcessBuilder("./derive", "sign", "w:64/a.jpg", "--api", "http://127.0.0.1:3270");
    for (ProcessBuilder sign : List.of(recorded, told)) {
      sign.environment().put("DERIVE_URL_SIGNING_KEY", key);
      sign.environment().put("DERIVE_STATE", state.toString());
    }

    Run first = run(recorded);
    Run second = run(told);

    assertThat(first.exit()).as(first.output()).isZero();
    assertThat(first.output().strip()).startsWith("http://127.0.0.1:3190/v1/");
    assertThat(second.output().strip()).startsWith("http://127.0.0.1:3270/v1/");
  }

  /**
   * {@code ./derive up} makes thumb, preview and info on upload, as its usage says: info holds the
   * ThumbHash an image URL's placeholder is drawn from, which the API only reads (it never starts
   * that job), so without it a local cloud's URLs showed the fallback image while made. Every
   * preset it names is one a capability declares (an unknown one fails each upload's job).
   */
  @Test
  void upMakesThumbPreviewAndInfoOnUploadAsItsUsageSays() throws Exception {
    Run presets =
        run(
            List.of(
                "bash",
                "-c",
                "eval \"$(grep -E '^LOCAL_UPLOAD_PRESETS=' derive)\"; printf %s"
                    + " \"$LOCAL_UPLOAD_PRESETS\""));
    Run usage = run(List.of("./derive", "up", "--help"));

    assertThat(presets.exit()).as(presets.output()).isZero();
    assertThat(presets.output()).isEqualTo("uploads/=thumb,preview,info");
    assertThat(usage.output()).contains("(UploadPresets=" + presets.output() + ")");
    assertThat(java.nio.file.Files.readString(ROOT.resolve("derive")))
        .contains("--parameter \"UploadPresets=$LOCAL_UPLOAD_PRESETS\"");
    java.util.Set<String> declared = new java.util.TreeSet<>();
    try (var files = java.nio.file.Files.newDirectoryStream(ROOT.resolve("worker-functions"))) {
      for (Path module : files) {
        Path declaration = module.resolve("src/main/resources/META-INF/derive/capability.json");
        if (java.nio.file.Files.exists(declaration)) {
          new com.fasterxml.jackson.databind.ObjectMapper()
              .readTree(declaration.toFile())
              .path("presets")
              .fieldNames()
              .forEachRemaining(declared::add);
        }
      }
    }
    for (String preset : presets.output().substring("uploads/=".length()).split(",")) {
      assertThat(declared).as("a declared preset").contains(preset);
    }
  }

  private record Run(int exit, String output) {}

  private static Run run(List<String> command) throws IOException, InterruptedException {
    return run(new ProcessBuilder(command));
  }

  private static Run run(ProcessBuilder builder) throws IOException, InterruptedException {
    List<String> command = builder.command();
    Process process = builder.directory(ROOT.toFile()).redirectErrorStream(true).start();
    process.getOutputStream().close();
    if (!process.waitFor(60, TimeUnit.SECONDS)) {
      process.destroyForcibly();
      throw new AssertionError(command + " did not end within 60 s");
    }
    return new Run(
        process.exitValue(),
        new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8));
  }
}
