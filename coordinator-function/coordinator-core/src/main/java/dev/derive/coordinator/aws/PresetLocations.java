package dev.derive.coordinator.aws;

import dev.derive.coordinator.preset.PresetSource;
import java.nio.file.Path;
import java.util.function.Supplier;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.ssm.SsmClient;

/**
 * The {@link PresetSource} a {@code PRESETS_LOCATION} names: {@code ssm:<parameter name>} (a String
 * or SecureString parameter of up to 8 KB in the standard tier), {@code s3://<bucket>/<key>} (an
 * object, UTF-8, for documents over SSM's limits) or {@code file:<path>} (local work).
 */
public final class PresetLocations {
  private PresetLocations() {}

  /**
   * The source {@code location} names.
   *
   * @param ssm makes the SSM client, only for an {@code ssm:} location
   * @param s3 makes the S3 client, only for an {@code s3://} location
   * @throws IllegalArgumentException for any other form
   */
  public static PresetSource of(String location, Supplier<SsmClient> ssm, Supplier<S3Client> s3) {
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
      return source(
          location, () -> client.getObjectAsBytes(b -> b.bucket(bucket).key(key)).asUtf8String());
    }
    if (location.startsWith("ssm:") && location.length() > 4) {
      SsmClient client = ssm.get();
      String name = location.substring(4);
      return source(
          location,
          () -> client.getParameter(b -> b.name(name).withDecryption(true)).parameter().value());
    }
    if (location.startsWith("file:") && location.length() > 5) {
      return PresetSource.file(location, Path.of(location.substring(5)));
    }
    throw new IllegalArgumentException(
        "PRESETS_LOCATION must be ssm:<parameter name>, s3://<bucket>/<key> or file:<path>, got "
            + location);
  }

  private static PresetSource source(String location, Supplier<String> read) {
    return new PresetSource() {
      @Override
      public String read() {
        return read.get();
      }

      @Override
      public String location() {
        return location;
      }
    };
  }
}
