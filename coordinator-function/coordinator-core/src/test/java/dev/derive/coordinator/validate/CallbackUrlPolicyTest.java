package dev.derive.coordinator.validate;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Which callback URLs {@code POST /v1/derivatives} accepts, deployed and locally. */
class CallbackUrlPolicyTest {
  private final CallbackUrlPolicy deployed = CallbackUrlPolicy.deployed();
  private final CallbackUrlPolicy local = CallbackUrlPolicy.allowingLoopback();

  /** Issue 26 item 3: an IP literal is judged by the address it reaches, in any IPv6 spelling. */
  @ParameterizedTest
  @ValueSource(
      strings = {
        "https://[::169.254.169.254]/",
        "https://[::ffff:169.254.169.254]/",
        "https://[::ffff:a9fe:a9fe]/",
        "https://[64:ff9b::a9fe:a9fe]/",
        "https://[64:ff9b::169.254.169.254]/",
        "https://[2002:a9fe:a9fe::1]/",
        "https://[2001:0:4136:e378:8000:63bf:56fe:5601]/",
        "https://[::ffff:10.0.0.1]:8443/hook",
        "https://[fd00::1]/",
        "https://169.254.169.254/latest/meta-data/"
      })
  void anAddressEmbeddingAPrivateOneIsRefusedDeployedAndLocally(String url) {
    assertThat(deployed.problem(url)).hasValueSatisfying(p -> assertThat(p).contains("public"));
    assertThat(local.problem(url)).hasValueSatisfying(p -> assertThat(p).contains("public"));
  }

  /**
   * An IPv4 host written as one number, in hex or octal, is an address to resolvers
   * (169.254.169.254 here), never a name: refused, whether {@code java.net.URI} reads no host in it
   * or a host with a number as its last label.
   */
  @ParameterizedTest
  @ValueSource(
      strings = {
        "https://2852039166/",
        "https://0xa9fea9fe/",
        "https://0xa9.0xfe.0xa9.0xfe/",
        "https://0251.0376.0251.0376/",
        "https://169.254.43518/",
        "https://08.8.8.8/"
      })
  void anIpv4HostNotWrittenAsFourDecimalNumbersIsRefused(String url) {
    assertThat(deployed.problem(url)).isPresent();
    assertThat(local.problem(url)).isPresent();
  }

  /** Issue 26 item 4: a port the HTTP client cannot use is refused at /callback. */
  @ParameterizedTest
  @ValueSource(
      strings = {
        "https://hooks.example.com:99999/x",
        "https://hooks.example.com:0/x",
        "https://hooks.example.com:65536/x"
      })
  void aPortOutsideOneTo65535IsRefused(String url) {
    assertThat(deployed.problem(url))
        .hasValueSatisfying(p -> assertThat(p).contains("port from 1 to 65535"));
    assertThat(local.problem(url.replace("hooks.example.com", "127.0.0.1")))
        .hasValueSatisfying(p -> assertThat(p).contains("port from 1 to 65535"));
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "https://hooks.example.com/derive",
        "https://hooks.example.com:8443/derive?tenant=7",
        "https://hooks.example.com:65535/",
        "https://93.184.215.14/hook",
        "https://[2606:4700:4700::1111]/hook",
        "https://hooks.example.com./derive"
      })
  void publicHttpsUrlsAreAccepted(String url) {
    assertThat(deployed.problem(url)).isEmpty();
  }

  @Test
  void loopbackIsAcceptedLocallyOnly() {
    assertThat(local.problem("http://127.0.0.1:8125/hook")).isEmpty();
    assertThat(local.problem("http://[::1]:8125/hook")).isEmpty();
    assertThat(local.problem("http://localhost:8125/hook")).isEmpty();
    assertThat(deployed.problem("https://127.0.0.1/hook")).isPresent();
  }
}
