package dev.derive.coordinator.preset;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.Supplier;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.ssm.SsmClient;

/**
 * Where the presets document is read from. {@link #of} understands the location forms of {@code
 * PRESETS_LOCATION}: {@code ssm:<parameter name>} (a String or SecureString parameter of up to 8 KB
 * in the standard tier), {@code s3://<bucket>/<key>} (an object, UTF-8, for documents over SSM's
 * limits) and {@code file:<path>} (local work).
 */
public interface PresetSource {
  /**
   * Reads the document now.
   *
   * @throws UncheckedIOException if it cannot be read
   * @throws software.amazon.awssdk.core.exception.SdkException if AWS does not answer or refuses
   */
  String read();

  /** The location, as configured, for messages. */
  String location();

  /**
   * The source a {@code PRESETS_LOCATION} names.
   *
   * @param ssm makes the SSM client, only for an {@code ssm:} location
   * @param s3 makes the S3 client, only for an {@code s3://} location
   * @throws IllegalArgumentException for any other form
   */
  static PresetSource of(String location, Supplier<SsmClient> ssm, Supplier<S3Client> s3) {
    if (location.startsWith("s3://")) {
      String path = location.substring(5);
      int slash = path.indexOf('/');
      if (slash <= 0 || slash == path.length() - 1) {
        throw new IllegalArgumentException(
            "PRESETS_LOCATION s3://<bucket>/<key> needs a bucket and a key, got " + location);
      }
      S3Client client = s3.get();
      String bucket = path.substring(0, slash);
      String key = path.substring(slash + 1);
      return new PresetSource() {
        @Override
        public String read() {
          return client.getObjectAsBytes(b -> b.bucket(bucket).key(key)).asUtf8String();
        }

        @Override
        public String location() {
          return location;
        }
      };
    }
    if (location.startsWith("ssm:") && location.length() > 4) {
      SsmClient client = ssm.get();
      String name = location.substring(4);
      return new PresetSource() {
        @Override
        public String read() {
          return client.getParameter(b -> b.name(name).withDecryption(true)).parameter().value();
        }

        @Override
        public String location() {
          return location;
        }
      };
    }
    if (location.startsWith("file:") && location.length() > 5) {
      Path path = Path.of(location.substring(5));
      return new PresetSource() {
        @Override
        public String read() {
          try {
            return Files.readString(path, StandardCharsets.UTF_8);
          } catch (IOException e) {
            throw new UncheckedIOException("cannot read presets file " + path, e);
          }
        }

        @Override
        public String location() {
          return location;
        }
      };
    }
    throw new IllegalArgumentException(
        "PRESETS_LOCATION must be ssm:<parameter name>, s3://<bucket>/<key> or file:<path>, got "
            + location);
  }
}
