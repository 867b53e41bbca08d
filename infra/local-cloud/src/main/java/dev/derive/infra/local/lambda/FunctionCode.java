package dev.derive.infra.local.lambda;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Comparator;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipInputStream;

/**
 * Lays out a function's deployment package as Lambda's task root ({@code /var/task}): a {@code
 * CodeUri} zip is extracted into a fresh folder; a folder is used as it is. An extraction is reused
 * while the zip is unchanged (same path, size and modification time, recorded in {@value #STAMP}
 * once extraction has completed), so a restart does not extract again.
 */
public final class FunctionCode {
  /** The file in an extracted task root naming the zip it came from. */
  public static final String STAMP = ".derive-code-stamp";

  private FunctionCode() {}

  /**
   * The task root for {@code code}.
   *
   * @param code the {@code CodeUri}: a zip file or a folder
   * @param extractTo the folder to (re)create and extract a zip into
   * @throws FunctionStartException if {@code code} does not exist (the message says to build it) or
   *     cannot be extracted
   */
  public static Path taskRoot(String logicalId, Path code, Path extractTo) {
    if (Files.isDirectory(code)) {
      return code;
    }
    if (!Files.isRegularFile(code)) {
      throw new FunctionStartException(
          "the code of "
              + logicalId
              + " ("
              + code
              + ") does not exist: build it first, e.g. ./mvnw -B package -DskipTests");
    }
    try {
      String stamp = stamp(code);
      Path stampFile = extractTo.resolve(STAMP);
      if (Files.isRegularFile(stampFile) && Files.readString(stampFile).equals(stamp)) {
        return extractTo.toAbsolutePath().normalize();
      }
      deleteRecursively(extractTo);
      Files.createDirectories(extractTo);
      Path root = extractTo.toAbsolutePath().normalize();
      extract(code, root);
      Files.writeString(stampFile, stamp);
      return root;
    } catch (IOException e) {
      throw new FunctionStartException("cannot extract " + code + " into " + extractTo, e);
    }
  }

  /** What identifies one version of {@code file}: its absolute path, size and modification time. */
  static String stamp(Path file) throws IOException {
    return file.toAbsolutePath().normalize()
        + "\n"
        + Files.size(file)
        + "\n"
        + Files.getLastModifiedTime(file).toMillis();
  }

  /**
   * Extracts every entry of {@code zipFile} under {@code root}, replacing files already there (the
   * loader maps a shared object readable without an execute bit, so permissions are not kept).
   *
   * @throws FunctionStartException if an entry would land outside {@code root}
   */
  static void extract(Path zipFile, Path root) throws IOException {
    extractEntries(zipFile, root);
    keepExecutableBits(zipFile, root);
  }

  /**
   * Sets the executable bits of the files whose zip entries carry them (Unix mode in the external
   * attributes), as Lambda does when it extracts a package or layer: the FFmpeg layer's {@code
   * ffmpeg} must stay runnable.
   */
  private static void keepExecutableBits(Path zipFile, Path root) throws IOException {
    try (java.nio.file.FileSystem zip =
            java.nio.file.FileSystems.newFileSystem(
                zipFile, java.util.Map.of("enablePosixFileAttributes", "true"));
        Stream<Path> entries = Files.walk(zip.getPath("/"))) {
      for (Path entry : entries.filter(Files::isRegularFile).toList()) {
        java.util.Set<java.nio.file.attribute.PosixFilePermission> permissions =
            Files.readAttributes(entry, java.nio.file.attribute.PosixFileAttributes.class)
                .permissions();
        if (permissions != null
            && permissions.contains(java.nio.file.attribute.PosixFilePermission.OWNER_EXECUTE)) {
          Path target = root.resolve(entry.toString().substring(1)).normalize();
          if (target.startsWith(root) && Files.isRegularFile(target)) {
            target.toFile().setExecutable(true, false);
          }
        }
      }
    }
  }

  private static void extractEntries(Path zipFile, Path root) throws IOException {
    try (ZipInputStream zip = new ZipInputStream(Files.newInputStream(zipFile))) {
      ZipEntry entry;
      while ((entry = zip.getNextEntry()) != null) {
        Path target = root.resolve(entry.getName()).normalize();
        if (!target.startsWith(root)) {
          throw new FunctionStartException(
              zipFile + " holds an entry outside " + root + ": " + entry.getName());
        }
        if (entry.isDirectory()) {
          Files.createDirectories(target);
        } else {
          Files.createDirectories(target.getParent());
          copy(zip, target);
        }
      }
    }
  }

  private static void copy(InputStream in, Path target) throws IOException {
    Files.copy(in, target, StandardCopyOption.REPLACE_EXISTING);
  }

  static void deleteRecursively(Path folder) throws IOException {
    if (!Files.exists(folder)) {
      return;
    }
    try (Stream<Path> paths = Files.walk(folder)) {
      for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
        Files.delete(path);
      }
    }
  }
}
