package dev.derive.infra.local.sqs;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.Set;
import org.junit.jupiter.api.Test;

class BatchItemFailuresTest {
  private final Set<String> batch = Set.of("m1", "m2", "m3");

  @Test
  void reportedItemsFail() {
    assertThat(failed("{\"batchItemFailures\":[{\"itemIdentifier\":\"m2\"}]}"))
        .containsExactly("m2");
  }

  @Test
  void anEmptyOrNullResponseMeansEverythingSucceeded() {
    assertThat(failed("")).isEmpty();
    assertThat(failed("null")).isEmpty();
    assertThat(failed("{\"batchItemFailures\":[]}")).isEmpty();
  }

  @Test
  void anUnknownOrEmptyIdentifierFailsTheWholeBatch() {
    assertThat(failed("{\"batchItemFailures\":[{\"itemIdentifier\":\"other\"}]}")).isEqualTo(batch);
    assertThat(failed("{\"batchItemFailures\":[{\"itemIdentifier\":\"\"}]}")).isEqualTo(batch);
    assertThat(failed("not json")).isEqualTo(batch);
  }

  private Set<String> failed(String response) {
    return BatchItemFailures.failedIds(response.getBytes(StandardCharsets.UTF_8), batch);
  }
}
