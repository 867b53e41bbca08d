package dev.derive.coordinator.url;

import static org.assertj.core.api.Assertions.assertThat;

import dev.derive.coordinator.LocalAws;
import dev.derive.coordinator.lifecycle.MutableClock;
import dev.derive.infra.endpoint.AwsEndpoint;
import java.time.Duration;
import java.time.Instant;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.secretsmanager.SecretsManagerClient;

/** Signing keys read from a Secrets Manager secret on a real endpoint (moto), and rotated there. */
class SigningKeySecretTest {
  private static final String PATH = "/w:64/photos/cat.jpg";

  @Test
  void keysAreReadFromTheSecretAndARotationIsInForceAfterTheTtl() {
    AwsEndpoint endpoint = LocalAws.endpoint();
    try (SecretsManagerClient client =
        SecretsManagerClient.builder()
            .endpointOverride(endpoint.uri())
            .region(Region.of(endpoint.region()))
            .credentialsProvider(
                StaticCredentialsProvider.create(
                    AwsBasicCredentials.create(endpoint.accessKeyId(), endpoint.secretAccessKey())))
            .httpClient(UrlConnectionHttpClient.create())
            .build()) {
      String oldKey = "0a".repeat(32);
      String newKey = "0b".repeat(32);
      String name = "derive/url-signing-" + UUID.randomUUID();
      client.createSecret(b -> b.name(name).secretString(oldKey));
      MutableClock clock = new MutableClock(Instant.parse("2026-01-01T00:00:00Z"));
      SigningKeySource source =
          dev.derive.coordinator.aws.SecretsManagerSigningKeys.fromSecret(
              client, name, Duration.ofSeconds(300), clock);
      String oldSignature = source.current().sign(PATH);

      client.putSecretValue(b -> b.secretId(name).secretString(newKey + "\n" + oldKey));
      clock.advance(Duration.ofSeconds(300));

      assertThat(source.current().verifies(oldSignature, PATH)).isTrue();
      assertThat(source.current().sign(PATH))
          .isEqualTo(UrlSigningKeys.parse(newKey).sign(PATH))
          .isNotEqualTo(oldSignature);
    }
  }
}
