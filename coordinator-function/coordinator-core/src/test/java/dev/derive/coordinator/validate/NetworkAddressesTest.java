package dev.derive.coordinator.validate;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetAddress;
import java.net.UnknownHostException;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Which addresses a callback may reach, judged on their bytes whatever the spelling. */
class NetworkAddressesTest {

  private static InetAddress address(String literal) throws UnknownHostException {
    return InetAddress.getByName(literal); // a literal: parsed, never resolved
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "169.254.169.254", // the metadata address
        "10.1.2.3",
        "172.16.0.1",
        "192.168.1.1",
        "100.64.0.1",
        "127.0.0.1",
        "0.0.0.0",
        "192.0.0.170",
        "192.88.99.1",
        "198.18.0.1",
        "224.0.0.1",
        "255.255.255.255"
      })
  void privateLinkLocalLoopbackAndSpecialIpv4AddressesAreNotPublic(String literal)
      throws UnknownHostException {
    assertThat(NetworkAddresses.isNonPublic(address(literal))).isTrue();
  }

  /** Issue 26 item 3: every IPv6 spelling that carries a private IPv4 address reaches it. */
  @ParameterizedTest
  @ValueSource(
      strings = {
        "::169.254.169.254", // IPv4-compatible (deprecated)
        "::a9fe:a9fe",
        "::ffff:169.254.169.254", // IPv4-mapped
        "::ffff:0:a9fe:a9fe", // SIIT IPv4-translated
        "64:ff9b::a9fe:a9fe", // NAT64, well-known prefix
        "64:ff9b::10.0.0.1",
        "64:ff9b:1::a9fe:a9fe", // NAT64, local-use prefix
        "2002:a9fe:a9fe::", // 6to4 of 169.254.169.254
        "2002:7f00:1::1", // 6to4 of 127.0.0.1
        "2002:c0a8:101:1::1", // 6to4 of 192.168.1.1
        "2001:0:4136:e378:8000:63bf:56fe:5601", // Teredo of 169.254.169.254 (obfuscated)
        "2001::1", // any Teredo address
        "::1",
        "::",
        "fd00::1",
        "fe80::1",
        "fec0::1",
        "ff02::1",
        "100::1",
        "2001:db8::1",
        "3fff::1",
        "5f00::1"
      })
  void ipv6AddressesEmbeddingPrivateIpv4OrInSpecialBlocksAreNotPublic(String literal)
      throws UnknownHostException {
    assertThat(NetworkAddresses.isNonPublic(address(literal))).isTrue();
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "93.184.215.14",
        "8.8.8.8",
        "2606:4700:4700::1111",
        "2a00:1450:4001:80b::200e",
        "64:ff9b::5db8:d70e", // NAT64 of a public address: reachable through a NAT64 gateway
        "2002:5db8:d70e::1", // 6to4 of a public address
        "::ffff:8.8.8.8"
      })
  void publicAddressesAndEmbeddingsOfPublicIpv4ArePublic(String literal)
      throws UnknownHostException {
    assertThat(NetworkAddresses.isNonPublic(address(literal))).isFalse();
  }

  @ParameterizedTest
  @ValueSource(strings = {"127.0.0.1", "127.8.9.10", "::1", "::ffff:127.0.0.1"})
  void loopbackAddressesAreLoopback(String literal) throws UnknownHostException {
    assertThat(NetworkAddresses.isLoopback(address(literal))).isTrue();
  }

  @ParameterizedTest
  @ValueSource(strings = {"10.0.0.1", "169.254.169.254", "::", "2002:7f00:1::1", "8.8.8.8"})
  void otherAddressesAreNotLoopback(String literal) throws UnknownHostException {
    assertThat(NetworkAddresses.isLoopback(address(literal))).isFalse();
  }
}
