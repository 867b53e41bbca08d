package dev.derive.coordinator.trace;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.UUID;
import org.junit.jupiter.api.Test;

class ClientTraceIdTest {
  @Test
  void aRequestIdTheClientSentIsTheTraceId() {
    assertThat(ClientTraceId.of("order-42.thumb", null, "Root=1-5759e988-bd862e3fe1be46a994272793"))
        .isEqualTo("order-42.thumb");
  }

  @Test
  void aW3cTraceparentGivesItsTraceId() {
    assertThat(
            ClientTraceId.of(null, "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01", null))
        .isEqualTo("4bf92f3577b34da6a3ce929d0e0e4736");
  }

  @Test
  void anXRayHeaderGivesItsRoot() {
    assertThat(
            ClientTraceId.of(
                null,
                null,
                "Self=1-67891234-12456789abcdef012345678;Root=1-5759e988-bd862e3fe1be46a994272793;"
                    + "Sampled=1"))
        .isEqualTo("1-5759e988-bd862e3fe1be46a994272793");
  }

  @Test
  void anIdWithALineBreakOrTooLongIsIgnoredForTheNextHeader() {
    assertThat(
            ClientTraceId.of(
                "a\nb", "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01", null))
        .isEqualTo("4bf92f3577b34da6a3ce929d0e0e4736");
    assertThat(ClientTraceId.of("x".repeat(ClientTraceId.MAX_LENGTH + 1), null, null))
        .matches(id -> UUID.fromString(id) != null);
  }

  @Test
  void withoutAnyHeaderTheIdIsANewUuid() {
    String first = ClientTraceId.of(null, null, null);
    assertThat(UUID.fromString(first).toString()).isEqualTo(first);
    assertThat(ClientTraceId.of(null, "garbage", "Sampled=1")).isNotEqualTo(first);
  }
}
