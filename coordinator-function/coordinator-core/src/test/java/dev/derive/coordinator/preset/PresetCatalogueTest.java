package dev.derive.coordinator.preset;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.derive.coordinator.Declarations;
import dev.derive.coordinator.LocalAws;
import dev.derive.coordinator.lifecycle.MutableClock;
import dev.derive.coordinator.validate.RequestValidator;
import dev.derive.infra.endpoint.AwsEndpoint;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.ssm.SsmClient;
import software.amazon.awssdk.services.ssm.model.ParameterType;

/** The presets document read from SSM on a real endpoint (moto) and from a file. */
class PresetCatalogueTest {
  private static SsmClient ssm;
  private static S3Client s3;
  private final RequestValidator validator = new RequestValidator(Declarations.ALL);
  private final MutableClock clock = new MutableClock(Instant.parse("2026-01-01T00:00:00Z"));

  @BeforeAll
  static void client() {
    AwsEndpoint endpoint = LocalAws.endpoint();
    ssm =
        SsmClient.builder()
            .endpointOverride(endpoint.uri())
            .region(Region.of(endpoint.region()))
            .credentialsProvider(
                StaticCredentialsProvider.create(
                    AwsBasicCredentials.create(endpoint.accessKeyId(), endpoint.secretAccessKey())))
            .httpClient(UrlConnectionHttpClient.create())
            .build();
    s3 = dev.derive.infra.endpoint.AwsClients.s3(endpoint);
  }

  @AfterAll
  static void close() {
    ssm.close();
    s3.close();
  }

  private static String parameter(String document) {
    String name = "/derive/presets-" + UUID.randomUUID();
    put(name, document);
    return name;
  }

  private static void put(String name, String document) {
    ssm.putParameter(
        b -> b.name(name).value(document).type(ParameterType.SECURE_STRING).overwrite(true));
  }

  private static String preset(String name, int width) {
    return "{\"" + name + "\":{\"target\":{\"mediaType\":\"image/jpeg\",\"width\":" + width + "}}}";
  }

  private PresetCatalogue catalogue(String location) {
    return new PresetCatalogue(
        dev.derive.coordinator.aws.PresetLocations.of(location, () -> ssm, () -> s3),
        validator,
        Duration.ofSeconds(60),
        clock);
  }

  @Test
  void withoutALocationTheBuiltInPresetsAreInForce() {
    PresetCatalogue catalogue = new PresetCatalogue(null, validator, Duration.ofSeconds(60), clock);

    assertThat(catalogue.current().find("thumb")).isPresent();
  }

  @Test
  void presetsAreReadFromAnSsmSecureStringParameter() {
    PresetCatalogue catalogue = catalogue("ssm:" + parameter(preset("avatar", 48)));

    assertThat(catalogue.current().all()).extracting(Preset::name).containsExactly("avatar");
    assertThat(catalogue.current().require("avatar", "/preset").target().get("width").intValue())
        .isEqualTo(48);
  }

  @Test
  void aChangedDocumentIsInForceOnceTheTtlHasPassed() {
    String name = parameter(preset("avatar", 48));
    PresetCatalogue catalogue = catalogue("ssm:" + name);
    put(name, preset("banner", 1200));

    clock.advance(Duration.ofSeconds(59));
    assertThat(catalogue.current().find("avatar")).isPresent();
    clock.advance(Duration.ofSeconds(1));
    assertThat(catalogue.current().all()).extracting(Preset::name).containsExactly("banner");
  }

  @Test
  void anInvalidDocumentAfterStartKeepsTheLastGoodPresets() {
    String name = parameter(preset("avatar", 48));
    PresetCatalogue catalogue = catalogue("ssm:" + name);
    put(name, preset("avatar", 0));

    clock.advance(Duration.ofSeconds(61));

    assertThat(catalogue.current().find("avatar")).isPresent();
  }

  @Test
  void anInvalidDocumentAtStartIsAConfigurationError() {
    String location = "ssm:" + parameter(preset("avatar", 0));

    assertThatThrownBy(() -> catalogue(location))
        .isInstanceOf(InvalidPresetsException.class)
        .hasMessageContaining("/avatar/target/width");
  }

  @Test
  void aMissingParameterAtStartIsAnError() {
    assertThatThrownBy(() -> catalogue("ssm:/derive/no-such-parameter"))
        .hasMessageContaining("no-such-parameter");
  }

  @Test
  void presetsAreReadFromAFileLocally(@TempDir Path dir) throws Exception {
    Path file = dir.resolve("presets.json");
    Files.writeString(file, preset("local", 64));

    assertThat(catalogue("file:" + file).current().find("local")).isPresent();
  }

  @Test
  void presetsAreReadFromAnS3Object() {
    String bucket = "presets-" + UUID.randomUUID();
    s3.createBucket(b -> b.bucket(bucket));
    s3.putObject(
        b -> b.bucket(bucket).key("derive/presets.json"),
        RequestBody.fromString(preset("banner", 1200)));

    PresetCatalogue catalogue = catalogue("s3://" + bucket + "/derive/presets.json");

    assertThat(catalogue.current().find("banner")).isPresent();
    assertThat(catalogue.current().find("thumb"))
        .as("the document replaces the built-in")
        .isEmpty();
  }

  @Test
  void anotherLocationFormIsRefused() {
    assertThatThrownBy(() -> catalogue("https://example.com/presets.json"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("ssm:<parameter name>, s3://<bucket>/<key> or file:<path>");
    assertThatThrownBy(() -> catalogue("s3://bucket-only"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("needs a bucket and a key");
  }
}
