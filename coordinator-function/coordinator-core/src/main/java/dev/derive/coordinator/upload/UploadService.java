package dev.derive.coordinator.upload;

import com.fasterxml.jackson.databind.JsonNode;
import dev.derive.coordinator.identity.SourceTooLargeException;
import dev.derive.coordinator.validate.ControlCharacters;
import dev.derive.coordinator.validate.InvalidRequestException;
import dev.derive.coordinator.validate.MediaTypeSyntax;
import dev.derive.coordinator.validate.Violation;
import dev.derive.protocol.MediaTypes;
import dev.derive.storage.ObjectStore;
import java.text.Normalizer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Iterator;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.function.Supplier;

/**
 * {@code POST /v1/uploads}: validates a declared upload and hands out a presigned PUT into the
 * source bucket at {@code uploads/<uuid>/<sanitised file name>}, so clients upload without AWS
 * credentials. The size is capped by {@code MAX_SOURCE_BYTES} and signed into the URL, and so is
 * the SHA-256 the client may declare ({@code sha256}): S3 then refuses other bytes and keeps the
 * checksum, by which the source is identified (see {@link
 * dev.derive.coordinator.plan.DerivativeFingerprint}), so the same bytes uploaded again make no
 * derivative again. The content type must be a media type by RFC 9110's grammar and no string may
 * hold a control character, since both end up in the key or in the headers the client is told to
 * send.
 */
public final class UploadService {
  /** Longest file name segment kept in a key, in characters. */
  static final int MAX_FILE_NAME_CHARS = 200;

  private static final Set<String> FIELDS = Set.of("fileName", "contentType", "size", "sha256");

  /** Bytes of a SHA-256 digest. */
  private static final int SHA256_BYTES = 32;

  private final ObjectStore objects;
  private final String sourceBucket;
  private final long maxSourceBytes;
  private final Duration lifetime;
  private final Supplier<UUID> ids;

  /**
   * @param maxSourceBytes largest upload accepted, in bytes
   * @param lifetime how long the presigned PUT stays valid
   * @param ids where upload ids come from (random UUIDs in production)
   */
  public UploadService(
      ObjectStore objects,
      String sourceBucket,
      long maxSourceBytes,
      Duration lifetime,
      Supplier<UUID> ids) {
    this.objects = objects;
    this.sourceBucket = sourceBucket;
    this.maxSourceBytes = maxSourceBytes;
    this.lifetime = lifetime;
    this.ids = ids;
  }

  /**
   * Validates {@code body} and presigns the upload.
   *
   * @throws InvalidRequestException naming each offending member by JSON pointer
   * @throws SourceTooLargeException if the declared size is over {@code MAX_SOURCE_BYTES}
   */
  public Upload create(JsonNode body) {
    UploadRequest request = validate(body);
    if (request.sizeBytes() > maxSourceBytes) {
      throw SourceTooLargeException.declaredUpload(
          request.fileName(), request.sizeBytes(), maxSourceBytes);
    }
    String key = "uploads/" + ids.get() + "/" + sanitise(request.fileName());
    return new Upload(
        key,
        objects.presignPut(
            sourceBucket,
            key,
            request.contentType(),
            request.sizeBytes(),
            request.sha256(),
            lifetime));
  }

  /**
   * Checks the body's members and types.
   *
   * @throws InvalidRequestException listing every violation
   */
  static UploadRequest validate(JsonNode body) {
    List<Violation> violations = new ArrayList<>();
    if (body == null || !body.isObject()) {
      throw new InvalidRequestException(List.of(new Violation("", "must be a JSON object")));
    }
    List<Violation> control = ControlCharacters.in(body);
    if (!control.isEmpty()) {
      // the file name goes into the key and the content type into the upload's signed headers
      throw new InvalidRequestException(control);
    }
    for (Iterator<String> names = body.fieldNames(); names.hasNext(); ) {
      String name = names.next();
      if (!FIELDS.contains(name)) {
        violations.add(new Violation("/" + name, "unknown field"));
      }
    }
    JsonNode fileName = body.get("fileName");
    if (fileName == null || !fileName.isTextual() || fileName.textValue().isBlank()) {
      violations.add(new Violation("/fileName", "must be a non-empty string"));
    } else if (fileName.textValue().length() > 1024) {
      violations.add(new Violation("/fileName", "must be at most 1024 characters"));
    }
    JsonNode contentType = body.get("contentType");
    String mediaType = null;
    if (contentType == null || !contentType.isTextual()) {
      violations.add(new Violation("/contentType", "must be a media type such as image/jpeg"));
    } else if (!MediaTypeSyntax.isValid(contentType.textValue().strip())) {
      violations.add(
          new Violation(
              "/contentType",
              "must be a media type such as image/jpeg, type/subtype with optional ;"
                  + " name=value parameters (RFC 9110 section 8.3.1)"));
    } else {
      mediaType = MediaTypes.essence(contentType.textValue());
    }
    JsonNode size = body.get("size");
    if (size != null && size.isIntegralNumber() && !size.canConvertToLong()) {
      // its longValue() would wrap around (10^20 reads as 7766279631452241919)
      violations.add(
          new Violation("/size", "must be a whole number of bytes from 1 to " + Long.MAX_VALUE));
    } else if (size == null || !size.isIntegralNumber() || size.longValue() < 1) {
      violations.add(new Violation("/size", "must be a whole number of bytes, at least 1"));
    }
    JsonNode sha256 = body.get("sha256");
    if (sha256 != null && !sha256.isNull() && !isSha256(sha256)) {
      violations.add(
          new Violation(
              "/sha256",
              "must be the base64 SHA-256 of the bytes to upload (44 characters, e.g. from"
                  + " openssl dgst -sha256 -binary FILE | base64)"));
    }
    if (!violations.isEmpty()) {
      throw new InvalidRequestException(violations);
    }
    return new UploadRequest(
        fileName.textValue(),
        mediaType,
        size.longValue(),
        sha256 == null || sha256.isNull() ? null : sha256.textValue());
  }

  private static boolean isSha256(JsonNode value) {
    if (!value.isTextual()) {
      return false;
    }
    try {
      return Base64.getDecoder().decode(value.textValue()).length == SHA256_BYTES
          && value.textValue().length() == 44;
    } catch (IllegalArgumentException notBase64) {
      return false;
    }
  }

  /**
   * Makes a file name safe as the last key segment: the base name only, letters, digits, dot, dash
   * and underscore (accents folded, anything else a dash), no leading dot, at most {@value
   * #MAX_FILE_NAME_CHARS} characters; {@code file} if nothing is left.
   */
  static String sanitise(String fileName) {
    String base =
        fileName.substring(Math.max(fileName.lastIndexOf('/'), fileName.lastIndexOf('\\')) + 1);
    String folded = Normalizer.normalize(base, Normalizer.Form.NFKD).replaceAll("\\p{M}", "");
    String safe =
        folded
            .replaceAll("[^A-Za-z0-9._-]+", "-")
            .replaceAll("-{2,}", "-")
            .replaceAll("^[.-]+", "");
    if (safe.length() > MAX_FILE_NAME_CHARS) {
      safe = safe.substring(safe.length() - MAX_FILE_NAME_CHARS);
    }
    return safe.isEmpty() ? "file" : safe;
  }
}
