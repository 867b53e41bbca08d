package dev.derive.coordinator.aws;

import dev.derive.coordinator.url.SigningKeySource;
import java.time.Clock;
import java.time.Duration;
import software.amazon.awssdk.services.secretsmanager.SecretsManagerClient;

/** Signing keys kept in a Secrets Manager secret (URL signing, callback signing). */
public final class SecretsManagerSigningKeys {
  private SecretsManagerSigningKeys() {}

  /**
   * The keys in a Secrets Manager secret's {@code SecretString} (hex keys separated by white space
   * or commas, the signing key first), re-read every {@code ttl}.
   *
   * @param secretId the secret's ARN or name
   * @throws software.amazon.awssdk.core.exception.SdkException if it cannot be read at start-up
   */
  public static SigningKeySource fromSecret(
      SecretsManagerClient client, String secretId, Duration ttl, Clock clock) {
    return new SigningKeySource(
        () -> client.getSecretValue(b -> b.secretId(secretId)).secretString(), ttl, clock);
  }
}
