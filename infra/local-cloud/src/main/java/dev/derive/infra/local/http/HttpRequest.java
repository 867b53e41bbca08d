package dev.derive.infra.local.http;

import java.util.List;
import java.util.Map;

/**
 * An HTTP request as the local API received it.
 *
 * @param method e.g. {@code GET}
 * @param rawPath the path as sent, still percent-encoded
 * @param rawQueryString the query as sent, without {@code ?}; empty if none
 * @param headers the header fields in arrival order (names as sent)
 * @param body the body bytes (empty if none)
 * @param sourceIp the client's address
 * @param protocol e.g. {@code HTTP/1.1}
 */
public record HttpRequest(
    String method,
    String rawPath,
    String rawQueryString,
    List<Map.Entry<String, String>> headers,
    byte[] body,
    String sourceIp,
    String protocol) {}
