package dev.derive.coordinator.validate;

import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetAddress;

/**
 * Which IP addresses a deployed Derive must not send callbacks to (server-side request forgery):
 * anything not on the public internet. The ranges are IANA's special-purpose registries (RFC 6890
 * and its updates): loopback, "this network", private (RFC 1918), shared (CGNAT, RFC 6598),
 * link-local (incl. the 169.254.169.254 metadata address), IETF protocol assignments, benchmarking
 * (RFC 2544), documentation, multicast and reserved, and in IPv6 loopback, unspecified, unique
 * local (fc00::/7), link-local, site-local and multicast (an IPv4-mapped address is judged as
 * IPv4).
 */
public final class NetworkAddresses {
  private NetworkAddresses() {}

  /** Whether {@code address} is anywhere but the public internet. */
  public static boolean isNonPublic(InetAddress address) {
    if (address.isAnyLocalAddress()
        || address.isLoopbackAddress()
        || address.isLinkLocalAddress()
        || address.isSiteLocalAddress()
        || address.isMulticastAddress()) {
      return true;
    }
    byte[] b = address.getAddress();
    if (address instanceof Inet4Address) {
      int a0 = b[0] & 0xff;
      int a1 = b[1] & 0xff;
      int a2 = b[2] & 0xff;
      return a0 == 0 // this network
          || (a0 == 100 && a1 >= 64 && a1 < 128) // shared address space
          || (a0 == 192 && a1 == 0 && a2 == 0) // IETF protocol assignments
          || (a0 == 192 && a1 == 0 && a2 == 2) // TEST-NET-1
          || (a0 == 198 && (a1 == 18 || a1 == 19)) // benchmarking
          || (a0 == 198 && a1 == 51 && a2 == 100) // TEST-NET-2
          || (a0 == 203 && a1 == 0 && a2 == 113) // TEST-NET-3
          || a0 >= 240; // reserved and broadcast
    }
    if (address instanceof Inet6Address) {
      int first = b[0] & 0xff;
      return (first & 0xfe) == 0xfc // unique local fc00::/7
          || (first == 0x20
              && (b[1] & 0xff) == 0x01
              && (b[2] & 0xff) == 0x0d
              && (b[3] & 0xff) == 0xb8); // documentation 2001:db8::/32
    }
    return true;
  }

  /** Whether {@code address} is a loopback address (127.0.0.0/8, ::1). */
  public static boolean isLoopback(InetAddress address) {
    return address.isLoopbackAddress();
  }
}
