package dev.derive.coordinator.validate;

import dev.derive.protocol.capability.RequestSchema;
import java.net.InetAddress;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.UnknownHostException;
import java.util.Locale;
import java.util.Optional;

/**
 * Which {@code callback} URLs a request may name ({@code docs/completion-events.md}): an absolute
 * {@code https} URL of at most {@value #MAX_LENGTH} characters with a host, without credentials
 * ({@code user:password@}) or a fragment, with no port or one from 1 to 65535, and an IPv4 host
 * only as four decimal numbers. Deployed, a host given as an IP address must be public ({@link
 * NetworkAddresses}; names are checked again when the callback is sent, after DNS). For local work
 * ({@code CALLBACK_ALLOW_LOOPBACK=true}, set by the local cloud) a loopback host ({@code
 * localhost}, 127.0.0.0/8, {@code [::1]}) is allowed as well, over {@code http} too.
 */
public final class CallbackUrlPolicy {
  /** Longest callback URL accepted, in characters (a common browser and CDN limit). */
  public static final int MAX_LENGTH = RequestSchema.MAX_CALLBACK_LENGTH;

  /** Highest TCP port (RFC 9293 section 3.1: 16 bits); port 0 is reserved. */
  static final int MAX_PORT = 65535;

  private static final String OCTET = "(25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])";
  private static final String DOTTED_QUAD = OCTET + "(\\." + OCTET + "){3}";

  private final boolean allowLoopback;

  private CallbackUrlPolicy(boolean allowLoopback) {
    this.allowLoopback = allowLoopback;
  }

  /** The policy of a deployment: public https receivers only. */
  public static CallbackUrlPolicy deployed() {
    return new CallbackUrlPolicy(false);
  }

  /** The policy of local work: public https receivers, and loopback ones over http or https. */
  public static CallbackUrlPolicy allowingLoopback() {
    return new CallbackUrlPolicy(true);
  }

  /** Whether loopback receivers are allowed. */
  public boolean allowsLoopback() {
    return allowLoopback;
  }

  /** What is wrong with {@code url} as a callback, as a sentence; empty when it may be used. */
  public Optional<String> problem(String url) {
    if (url.length() > MAX_LENGTH) {
      return Optional.of("must be at most " + MAX_LENGTH + " characters");
    }
    if (ControlCharacters.anyIn(url)) {
      return Optional.of("must not hold control characters");
    }
    URI uri;
    try {
      uri = new URI(url);
    } catch (URISyntaxException e) {
      return Optional.of("must be an absolute https URL (" + e.getReason() + ")");
    }
    String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
    if (!uri.isAbsolute() || uri.isOpaque() || !(scheme.equals("https") || scheme.equals("http"))) {
      return Optional.of("must be an absolute https URL");
    }
    if (uri.getRawUserInfo() != null) {
      return Optional.of("must not carry credentials (user:password@); use the signature instead");
    }
    if (uri.getHost() == null || uri.getHost().isEmpty()) {
      return Optional.of("must name a host");
    }
    if (uri.getRawFragment() != null) {
      return Optional.of("must not have a fragment (#…)");
    }
    if (uri.getPort() == 0 || uri.getPort() > MAX_PORT) {
      return Optional.of("must have a port from 1 to " + MAX_PORT + ", not " + uri.getPort());
    }
    if (looksNumeric(uri.getHost()) && literalAddress(uri.getHost()).isEmpty()) {
      return Optional.of(
          "must write an IPv4 host as four decimal numbers (a.b.c.d), not " + uri.getHost());
    }
    boolean loopback = isLoopbackHost(uri.getHost());
    if (loopback && allowLoopback) {
      return Optional.empty();
    }
    if (!scheme.equals("https")) {
      return Optional.of("must be an https URL");
    }
    if (loopback
        || literalAddress(uri.getHost()).map(NetworkAddresses::isNonPublic).orElse(false)) {
      return Optional.of("must name a public host, not a loopback, private or link-local address");
    }
    return Optional.empty();
  }

  /**
   * Whether {@code host} is meant as an IPv4 address: its last label is a number, decimal or hex
   * ({@code 2852039166}, {@code 0xa9fea9fe}, {@code 0251.0376.0251.0376}), which no DNS name's top
   * label is (RFC 3696 section 2) but which resolvers and URL parsers read as an address.
   */
  static boolean looksNumeric(String host) {
    String h = host.endsWith(".") ? host.substring(0, host.length() - 1) : host;
    String last = h.substring(h.lastIndexOf('.') + 1).toLowerCase(Locale.ROOT);
    return last.matches("[0-9]+|0x[0-9a-f]*");
  }

  /** Whether {@code host} (as in a URI) is {@code localhost} or a loopback IP literal. */
  static boolean isLoopbackHost(String host) {
    String h = host.toLowerCase(Locale.ROOT);
    if (h.equals("localhost") || h.endsWith(".localhost")) {
      return true;
    }
    return literalAddress(h).map(NetworkAddresses::isLoopback).orElse(false);
  }

  /**
   * The address {@code host} spells when it is an IP literal in its standard form: an IPv6 address
   * in brackets, or an IPv4 address as four decimal numbers of 0-255 without leading zeros (never a
   * DNS lookup).
   */
  static Optional<InetAddress> literalAddress(String host) {
    String h =
        host.startsWith("[") && host.endsWith("]") ? host.substring(1, host.length() - 1) : host;
    boolean literal = h.matches(DOTTED_QUAD) || (h.contains(":") && h.matches("[0-9a-fA-F:.]+"));
    if (!literal) {
      return Optional.empty();
    }
    try {
      return Optional.of(InetAddress.getByName(h)); // a literal: parsed, not resolved
    } catch (UnknownHostException malformed) {
      return Optional.empty();
    }
  }
}
