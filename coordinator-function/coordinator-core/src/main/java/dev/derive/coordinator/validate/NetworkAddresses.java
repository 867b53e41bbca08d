package dev.derive.coordinator.validate;

import java.net.InetAddress;
import java.util.Arrays;

/**
 * Which IP addresses a deployed Derive must not send callbacks to (server-side request forgery):
 * anything not on the public internet, judged on the address's bytes, never on its spelling.
 *
 * <p>IPv4: the blocks of IANA's IPv4 special-purpose address registry (RFC 6890 and its updates)
 * that are not globally reachable, and multicast: "this network" 0/8, private 10/8, 172.16/12 and
 * 192.168/16 (RFC 1918), shared 100.64/10 (RFC 6598), loopback 127/8, link-local 169.254/16 (the
 * 169.254.169.254 metadata address included), IETF protocol assignments 192.0.0/24, the 6to4 relay
 * anycast 192.88.99/24 (RFC 7526), benchmarking 198.18/15, the three documentation blocks,
 * multicast 224/4, reserved 240/4 and broadcast.
 *
 * <p>IPv6: an address that embeds an IPv4 address is judged by the IPv4 address it carries, so
 * {@code ::ffff:169.254.169.254} (IPv4-mapped, RFC 4291 section 2.5.5.2), {@code
 * 64:ff9b::a9fe:a9fe} (NAT64's well-known prefix, RFC 6052) and {@code 2002:a9fe:a9fe::} (6to4, RFC
 * 3056) reach no further than 169.254.169.254 would. Refused outright: the IPv4-compatible block
 * ::/96 (deprecated by RFC 4291, it holds :: and ::1 too) and SIIT's ::ffff:0:0:0/96 (RFC 2765),
 * NAT64's local-use 64:ff9b:1::/48 (RFC 8215), discard-only 100::/64 (RFC 6666), the IETF protocol
 * assignments 2001::/23 (Teredo's 2001::/32 among them, whose client address is hidden and whose
 * server may be anyone's), documentation 2001:db8::/32 and 3fff::/20 (RFC 9637), SRv6 5f00::/16
 * (RFC 9602), unique local fc00::/7, link-local fe80::/10, site-local fec0::/10 and multicast
 * ff00::/8. Sources: https://www.iana.org/assignments/iana-ipv4-special-registry and
 * https://www.iana.org/assignments/iana-ipv6-special-registry.
 */
public final class NetworkAddresses {
  private NetworkAddresses() {}

  /** Whether {@code address} is anywhere but the public internet. */
  public static boolean isNonPublic(InetAddress address) {
    byte[] b = address.getAddress();
    return b.length == 4 ? isNonPublicIpv4(b) : isNonPublicIpv6(b);
  }

  /**
   * Whether {@code address} is a loopback address: 127.0.0.0/8, ::1, or 127.0.0.0/8 mapped into
   * IPv6 ({@code ::ffff:127.0.0.1}).
   */
  public static boolean isLoopback(InetAddress address) {
    byte[] b = address.getAddress();
    if (b.length == 4) {
      return (b[0] & 0xff) == 127;
    }
    if (isMapped(b)) {
      return (b[12] & 0xff) == 127;
    }
    return Arrays.equals(b, new byte[] {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1});
  }

  private static boolean isNonPublicIpv4(byte[] b) {
    int a0 = b[0] & 0xff;
    int a1 = b[1] & 0xff;
    int a2 = b[2] & 0xff;
    return a0 == 0 // "this network"
        || a0 == 10 // private
        || (a0 == 100 && a1 >= 64 && a1 < 128) // shared address space
        || a0 == 127 // loopback
        || (a0 == 169 && a1 == 254) // link-local, the metadata address
        || (a0 == 172 && a1 >= 16 && a1 < 32) // private
        || (a0 == 192 && a1 == 0 && a2 == 0) // IETF protocol assignments
        || (a0 == 192 && a1 == 0 && a2 == 2) // TEST-NET-1
        || (a0 == 192 && a1 == 88 && a2 == 99) // 6to4 relay anycast
        || (a0 == 192 && a1 == 168) // private
        || (a0 == 198 && (a1 == 18 || a1 == 19)) // benchmarking
        || (a0 == 198 && a1 == 51 && a2 == 100) // TEST-NET-2
        || (a0 == 203 && a1 == 0 && a2 == 113) // TEST-NET-3
        || a0 >= 224; // multicast, reserved, broadcast
  }

  private static boolean isNonPublicIpv6(byte[] b) {
    if (isMapped(b)) {
      return isNonPublicIpv4(Arrays.copyOfRange(b, 12, 16));
    }
    if (startsWith(b, 0x00, 0x64, 0xff, 0x9b, 0, 0, 0, 0, 0, 0, 0, 0)) { // NAT64 64:ff9b::/96
      return isNonPublicIpv4(Arrays.copyOfRange(b, 12, 16));
    }
    if (startsWith(b, 0x20, 0x02)) { // 6to4 2002::/16: 2002:AABB:CCDD::
      return isNonPublicIpv4(Arrays.copyOfRange(b, 2, 6));
    }
    int first = b[0] & 0xff;
    return startsWith(b, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0) // ::/96: ::, ::1, IPv4-compatible
        || startsWith(b, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, 0, 0) // SIIT ::ffff:0:0:0/96
        || startsWith(b, 0x00, 0x64, 0xff, 0x9b, 0x00, 0x01) // NAT64 local use 64:ff9b:1::/48
        || startsWith(b, 0x01, 0x00, 0, 0, 0, 0, 0, 0) // discard-only 100::/64
        || (startsWith(b, 0x20, 0x01) && (b[2] & 0xfe) == 0) // 2001::/23, Teredo included
        || startsWith(b, 0x20, 0x01, 0x0d, 0xb8) // documentation 2001:db8::/32
        || (startsWith(b, 0x3f, 0xff) && (b[2] & 0xf0) == 0) // documentation 3fff::/20
        || startsWith(b, 0x5f, 0x00) // SRv6 segment identifiers 5f00::/16
        || (first & 0xfe) == 0xfc // unique local fc00::/7
        || (first == 0xfe && (b[1] & 0x80) == 0x80) // link-local fe80::/10, site-local fec0::/10
        || first == 0xff; // multicast
  }

  private static boolean isMapped(byte[] b) {
    return b.length == 16 && startsWith(b, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff);
  }

  private static boolean startsWith(byte[] b, int... prefix) {
    for (int i = 0; i < prefix.length; i++) {
      if ((b[i] & 0xff) != prefix[i]) {
        return false;
      }
    }
    return true;
  }
}
