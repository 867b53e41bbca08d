package dev.derive.infra.endpoint;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.services.s3.S3Client;

/** The endpoint modes and how a mode that cannot start fails. */
class AwsEndpointsTest {
  @TempDir Path dir;

  @Test
  void theLocalStackModeStartsLocalStackWhereDockerRunsAndOtherwiseFailsSayingDockerIsNeeded() {
    if (LocalStackEndpoint.dockerAvailable()) {
      try (AwsEndpoint endpoint = AwsEndpoints.start(AwsEndpoints.Mode.LOCALSTACK, dir);
          S3Client s3 = AwsClients.s3(endpoint)) {
        s3.createBucket(b -> b.bucket("derive-mode-check"));
        assertThat(s3.listBuckets().buckets()).anyMatch(b -> b.name().equals("derive-mode-check"));
      }
    } else {
      assertThatThrownBy(() -> AwsEndpoints.start(AwsEndpoints.Mode.LOCALSTACK, dir))
          .isInstanceOf(EndpointUnavailableException.class)
          .hasMessageContaining("needs a Docker engine")
          .hasMessageContaining("derive.endpoint=moto");
    }
  }

  @Test
  void anUnknownModeIsRefusedWithTheModesThereAre() {
    String before = System.getProperty(AwsEndpoints.PROPERTY);
    System.setProperty(AwsEndpoints.PROPERTY, "docker");
    try {
      assertThatThrownBy(AwsEndpoints::selectedMode)
          .isInstanceOf(EndpointUnavailableException.class)
          .hasMessageContaining("moto, localstack or external");
    } finally {
      if (before == null) {
        System.clearProperty(AwsEndpoints.PROPERTY);
      } else {
        System.setProperty(AwsEndpoints.PROPERTY, before);
      }
    }
  }

  @Test
  void theModeIsReadFromTheProperty() {
    String before = System.getProperty(AwsEndpoints.PROPERTY);
    System.setProperty(AwsEndpoints.PROPERTY, "LocalStack");
    try {
      assertThat(AwsEndpoints.selectedMode()).isEqualTo(AwsEndpoints.Mode.LOCALSTACK);
    } finally {
      if (before == null) {
        System.clearProperty(AwsEndpoints.PROPERTY);
      } else {
        System.setProperty(AwsEndpoints.PROPERTY, before);
      }
    }
  }
}
