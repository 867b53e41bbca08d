package dev.derive.coordinator.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.derive.coordinator.Declarations;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class CoordinatorConfigTest {
  private static final Map<String, String> REQUIRED =
      Map.of(
          "JOBS_TABLE", "jobs",
          "SOURCE_BUCKET", "s",
          "DERIVATIVES_BUCKET", "d",
          "CAPABILITY_DECLARATIONS", Declarations.LOCATION,
          "IMAGE_QUEUE_URL", "http://q/image");

  private static Map<String, String> with(String... pairs) {
    Map<String, String> environment = new HashMap<>(REQUIRED);
    for (int i = 0; i < pairs.length; i += 2) {
      environment.put(pairs[i], pairs[i + 1]);
    }
    return environment;
  }

  private static CoordinatorConfig config(Map<String, String> environment) {
    return CoordinatorConfigs.from(name -> Optional.ofNullable(environment.get(name)));
  }

  private static DeployedCapabilities deployed(Map<String, String> environment) {
    return CoordinatorConfigs.deployed(name -> Optional.ofNullable(environment.get(name)));
  }

  /**
   * Issue 26 item 13: a step that waits in a queue's backlog longer than its retry horizon was read
   * as stalled (GET said FAILED, later SUCCEEDED): its lease covers the time its message may wait
   * in the queue as well.
   */
  @Test
  void aStepsLeaseCoversItsMessagesTimeInTheQueueAndEveryDelivery() {
    Map<String, String> environment = with("IMAGE_STEP_LEASE_SECONDS", "2220");

    assertThat(deployed(environment).stepLease("image"))
        .isEqualTo(Duration.ofSeconds(2220).plusDays(4));
    assertThat(
            deployed(
                    with(
                        "IMAGE_STEP_LEASE_SECONDS", "2220", "STEP_QUEUE_RETENTION_SECONDS", "3600"))
                .stepLease("image"))
        .isEqualTo(Duration.ofSeconds(2220 + 3600));
  }

  /** Only capabilities with a queue are deployed, with their queue and lease. */
  @Test
  void theDeployedCapabilitiesAreThoseWithAQueue() {
    DeployedCapabilities deployed = deployed(with("IMAGE_STEP_LEASE_SECONDS", "100"));

    assertThat(deployed.catalogue().names()).containsExactly("image");
    assertThat(deployed.queueUrl("image")).isEqualTo("http://q/image");
    assertThat(deployed.stepLease("image")).isEqualTo(Duration.ofSeconds(100).plusDays(4));
    assertThatThrownBy(() -> deployed.queueUrl("pdf"))
        .isInstanceOf(MissingSettingException.class)
        .hasMessageContaining("PDF_QUEUE_URL");
  }

  /** A capability without a declaration (a job planned before it was removed): the job lease. */
  @Test
  void anUndeclaredCapabilityTakesTheJobLeaseAndLambdasLongestTimeout() {
    DeployedCapabilities deployed =
        deployed(with("JOB_LEASE_SECONDS", "900", "GONE_STEP_TIMEOUT_SECONDS", "120"));

    assertThat(deployed.stepLease("gone")).isEqualTo(Duration.ofSeconds(900).plusDays(4));
    assertThat(deployed.stepTimeout("gone")).isEqualTo(Duration.ofSeconds(120));
    assertThat(deployed.stepTimeout("other")).isEqualTo(Duration.ofSeconds(900));
  }

  @Test
  void defaultsAreTheDocumentedOnes() {
    CoordinatorConfig config = config(REQUIRED);

    assertThat(config.jobsTable()).isEqualTo("jobs");
    assertThat(config.presignedUrlExpiry()).isEqualTo(Duration.ofSeconds(300));
    assertThat(config.cacheHitMemory()).isEqualTo(Duration.ofSeconds(30));
    assertThat(config.leases().job()).isEqualTo(Duration.ofSeconds(2220));
    assertThat(config.leases().dispatch()).isEqualTo(Duration.ofSeconds(60));
    assertThat(config.limits().maxSourceBytes()).isEqualTo(100L * 1024 * 1024);
    assertThat(config.callbacks().queueUrl()).isEmpty();
    assertThat(config.callbacks().retryBase()).isEqualTo(Duration.ofSeconds(30));
    assertThat(config.presets().ttl()).isEqualTo(Duration.ofSeconds(60));
    assertThat(config.imageUrls().missWait()).isEqualTo(Duration.ofSeconds(5));
  }

  /** The memory of a hit is at most half a download URL's lifetime. */
  @Test
  void aHitIsRememberedAtMostHalfAUrlsLifetime() {
    assertThat(
            config(with("PRESIGNED_URL_EXPIRY_SECONDS", "40", "CACHE_HIT_MEMORY_SECONDS", "30"))
                .cacheHitMemory())
        .isEqualTo(Duration.ofSeconds(20));
    assertThat(config(with("CACHE_HIT_MEMORY_SECONDS", "0")).cacheHitMemory()).isZero();
  }

  /** A blank value is unset, as an empty variable of a template is. */
  @Test
  void aBlankValueIsUnset() {
    assertThat(config(with("CALLBACK_QUEUE_URL", "  ")).callbacks().queueUrl()).isEmpty();
  }

  /** Every refusal names the variable, so the start's log says what to fix. */
  @Test
  void aMissingOrInvalidSettingIsNamed() {
    Map<String, String> noTable = with();
    noTable.remove("JOBS_TABLE");
    assertThatThrownBy(() -> config(noTable))
        .isInstanceOf(MissingSettingException.class)
        .hasMessageContaining("JOBS_TABLE");
    assertThatThrownBy(() -> config(with("DISPATCH_LEASE_SECONDS", "0")))
        .isInstanceOf(MissingSettingException.class)
        .hasMessageContaining("DISPATCH_LEASE_SECONDS")
        .hasMessageContaining("positive");
    assertThatThrownBy(() -> config(with("CALLBACK_RETRY_BASE_SECONDS", "soon")))
        .isInstanceOf(MissingSettingException.class)
        .hasMessageContaining("CALLBACK_RETRY_BASE_SECONDS");
    assertThatThrownBy(() -> config(with("CACHE_HIT_MEMORY_SECONDS", "-1")))
        .hasMessageContaining("CACHE_HIT_MEMORY_SECONDS");
    assertThatThrownBy(() -> config(with("IMAGE_URL_PLACEHOLDER", "blur")))
        .hasMessageContaining("IMAGE_URL_PLACEHOLDER");
    assertThatThrownBy(() -> deployed(with("IMAGE_STEP_LEASE_SECONDS", "x")))
        .isInstanceOf(MissingSettingException.class)
        .hasMessageContaining("IMAGE_STEP_LEASE_SECONDS");
  }
}
