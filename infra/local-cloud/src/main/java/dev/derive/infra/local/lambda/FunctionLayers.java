package dev.derive.infra.local.lambda;

import dev.derive.infra.local.template.LayerDefinition;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * Lays out a function's layers as Lambda does in {@code /opt}: each layer's content extracted in
 * the order of the function's {@code Layers}, a later layer's files replacing an earlier one's.
 * Locally every function has its own {@code /opt} folder (empty without layers, as {@code /opt} is
 * on Lambda); the launcher points the function at it ({@link #localPath}). The folder is reused
 * while every layer's content is unchanged (path, size and modification time of each zip, recorded
 * in {@value #STAMP} once extraction has completed).
 */
public final class FunctionLayers {
  /** The file in an extracted {@code /opt} folder naming the layer contents it came from. */
  public static final String STAMP = ".derive-layers-stamp";

  /** Where Lambda extracts layers. */
  public static final String OPT = "/opt";

  private FunctionLayers() {}

  /**
   * The {@code /opt} folder of {@code logicalId}, (re)built in {@code folder}.
   *
   * @throws FunctionStartException if a layer's content does not exist (the message says to build
   *     it) or cannot be extracted
   */
  public static Path opt(String logicalId, List<LayerDefinition> layers, Path folder) {
    Path root = folder.toAbsolutePath().normalize();
    try {
      List<String> stamps = new ArrayList<>();
      for (LayerDefinition layer : layers) {
        Path content = layer.content();
        if (Files.isRegularFile(content)) {
          stamps.add(FunctionCode.stamp(content));
        } else if (Files.isDirectory(content)) {
          stamps.add(content.toAbsolutePath().normalize() + "\n(folder, copied every start)");
        } else {
          throw new FunctionStartException(
              "the layer "
                  + layer.logicalId()
                  + " of "
                  + logicalId
                  + " ("
                  + content
                  + ") does not exist: build it first, e.g. ./mvnw -B package -DskipTests");
        }
      }
      String stamp = String.join("\n", stamps);
      Path stampFile = root.resolve(STAMP);
      boolean folders = layers.stream().anyMatch(l -> Files.isDirectory(l.content()));
      if (!folders && Files.isRegularFile(stampFile) && Files.readString(stampFile).equals(stamp)) {
        return root;
      }
      FunctionCode.deleteRecursively(root);
      Files.createDirectories(root);
      for (LayerDefinition layer : layers) {
        if (Files.isDirectory(layer.content())) {
          copyTree(layer.content(), root);
        } else {
          FunctionCode.extract(layer.content(), root);
        }
      }
      Files.writeString(stampFile, stamp);
      return root;
    } catch (IOException e) {
      throw new FunctionStartException("cannot lay out the layers of " + logicalId, e);
    }
  }

  /**
   * {@code value} with every {@code :}-separated entry that is {@value #OPT} or lies under it moved
   * to {@code opt} (e.g. {@code /opt/lib} becomes {@code <opt>/lib}); other entries unchanged.
   */
  public static String localPath(String value, Path opt) {
    String[] entries = value.split(":", -1);
    for (int i = 0; i < entries.length; i++) {
      if (entries[i].equals(OPT)) {
        entries[i] = opt.toString();
      } else if (entries[i].startsWith(OPT + "/")) {
        entries[i] = opt + entries[i].substring(OPT.length());
      }
    }
    return String.join(":", entries);
  }

  private static void copyTree(Path from, Path to) throws IOException {
    try (Stream<Path> paths = Files.walk(from)) {
      for (Path source : paths.toList()) {
        Path target = to.resolve(from.relativize(source).toString());
        if (Files.isDirectory(source)) {
          Files.createDirectories(target);
        } else {
          Files.copy(source, target, StandardCopyOption.REPLACE_EXISTING);
        }
      }
    }
  }
}
