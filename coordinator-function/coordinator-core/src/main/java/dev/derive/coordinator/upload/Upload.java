package dev.derive.coordinator.upload;

import dev.derive.storage.PresignedUpload;

/**
 * A place to upload one source: the key the source will have, and the presigned PUT that stores it
 * there without AWS credentials.
 *
 * @param key source key to name in {@code POST /v1/derivatives}
 * @param put the presigned PUT
 */
public record Upload(String key, PresignedUpload put) {}
