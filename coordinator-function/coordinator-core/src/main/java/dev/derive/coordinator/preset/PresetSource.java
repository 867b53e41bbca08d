package dev.derive.coordinator.preset;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Where the presets document is read from: a file ({@link #file}), an SSM parameter or an S3 object
 * ({@code dev.derive.coordinator.aws.PresetLocations} reads the forms of {@code PRESETS_LOCATION}).
 */
public interface PresetSource {
  /**
   * Reads the document now.
   *
   * @throws UncheckedIOException if it cannot be read
   * @throws RuntimeException whatever the store answered if it does not answer or refuses
   */
  String read();

  /** The location, as configured, for messages. */
  String location();

  /**
   * The source of a {@code file:<path>} location (local work); the AWS forms are read by {@code
   * dev.derive.coordinator.aws.PresetLocations}.
   *
   * @param location the location as configured, for messages
   * @param path the file, read as UTF-8
   */
  static PresetSource file(String location, Path path) {
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
}
