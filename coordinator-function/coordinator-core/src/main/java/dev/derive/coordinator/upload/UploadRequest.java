package dev.derive.coordinator.upload;

/**
 * A validated {@code POST /v1/uploads} body.
 *
 * @param fileName the client's file name, used (sanitised) as the last segment of the key
 * @param contentType the media type the client will send as {@code Content-Type}
 * @param sizeBytes the exact size the client will upload, in bytes
 * @param sha256 the base64 SHA-256 of the bytes the client will upload, or {@code null} when it
 *     declared none
 */
public record UploadRequest(String fileName, String contentType, long sizeBytes, String sha256) {}
