package dev.derive.coordinator.api;

import dev.derive.storage.PresignedDownload;

/**
 * A presigned download in a response.
 *
 * @param url presigned GET URL of the derivative
 * @param expiresAt when the URL stops working (RFC 3339 timestamp)
 */
public record DownloadResponse(String url, String expiresAt) {
  static DownloadResponse of(PresignedDownload download) {
    return download == null
        ? null
        : new DownloadResponse(download.url().toString(), download.expiresAt().toString());
  }
}
