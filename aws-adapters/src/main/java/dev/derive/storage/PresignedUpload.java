package dev.derive.storage;

import java.net.URL;
import java.time.Instant;
import java.util.Map;

/**
 * A presigned PUT of one object.
 *
 * @param url the URL to PUT the bytes to
 * @param headers headers the client must send unchanged (they are part of the signature)
 * @param expiresAt when the signature stops being accepted
 */
public record PresignedUpload(URL url, Map<String, String> headers, Instant expiresAt) {
  public PresignedUpload {
    headers = Map.copyOf(headers);
  }
}
