package dev.derive.coordinator.preset;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import software.amazon.awssdk.services.ssm.SsmClient;

/**
 * Where the presets document is read from. {@link #of} understands the location forms of {@code
 * PRESETS_LOCATION}: {@code ssm:<parameter name>} (a String or SecureString parameter of up to 8 KB
 * in the standard tier) and {@code file:<path>} (local work).
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
   * @throws IllegalArgumentException for any other form
   */
  static PresetSource of(String location, java.util.function.Supplier<SsmClient> ssm) {
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
        "PRESETS_LOCATION must be ssm:<parameter name> or file:<path>, got " + location);
  }
}
