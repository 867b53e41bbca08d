package dev.derive.storage;

import java.net.URL;
import java.time.Instant;

/**
 * A presigned GET URL for one object.
 *
 * @param url the URL; anyone holding it may read the object until {@code expiresAt}
 * @param expiresAt when the signature stops being accepted
 */
public record PresignedDownload(URL url, Instant expiresAt) {}
