package dev.derive.protocol.capability;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.PathMatcher;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/**
 * Reads capability declarations: one JSON file per capability, owned by its worker module at
 * {@value #RESOURCE} (in the spirit of Alfresco T-Engines' engine configuration), into {@link
 * CapabilityDescriptor}s. The shape and its rules are in docs/capability-declarations.md; every
 * member is checked (unknown members, types, a default outside its own range, a group naming an
 * undeclared parameter …) and a broken declaration is an {@link InvalidDeclarationException} naming
 * the file and the member. (the shape is read by {@link DeclarationReader}).
 */
public final class CapabilityDeclarations {
  /** Where a worker module keeps its declaration, on its class path. */
  public static final String RESOURCE = "META-INF/derive/capability.json";

  /** The declarations of a source tree, relative to its root (tests and tools read them so). */
  public static final String SOURCE_TREE_PATTERN =
      "worker-functions/*/src/main/resources/" + RESOURCE;

  private static final ObjectMapper JSON = new ObjectMapper();

  private CapabilityDeclarations() {}

  /**
   * Reads one declaration.
   *
   * @param origin where it came from, for messages
   * @throws InvalidDeclarationException if it is not a valid declaration
   */
  public static CapabilityDescriptor parse(String json, String origin) {
    JsonNode root;
    try {
      root = JSON.readTree(json);
    } catch (JsonProcessingException e) {
      throw new InvalidDeclarationException(origin, "not JSON: " + e.getOriginalMessage(), e);
    }
    try {
      return DeclarationReader.capability(root);
    } catch (IllegalArgumentException e) {
      throw new InvalidDeclarationException(origin, e.getMessage(), e);
    }
  }

  /**
   * Every declaration at {@code location}, sorted by capability name (the order the planner breaks
   * ties in): a folder, whose {@code *.json} files at any depth are read, or a path with {@code *}
   * in some of its segments ({@code /src/worker-functions/}{@code *}{@code /…/capability.json}),
   * whose matching files are read.
   *
   * @throws InvalidDeclarationException if a file is not a valid declaration, two declare the same
   *     name, or nothing is found
   */
  public static List<CapabilityDescriptor> load(String location) {
    List<Path> files = location.contains("*") ? matching(location) : jsonFilesUnder(location);
    if (files.isEmpty()) {
      throw new InvalidDeclarationException(
          location,
          "no capability declarations found (each worker module's "
              + RESOURCE
              + "; on AWS the coordinator's CapabilityDeclarations layer)");
    }
    List<CapabilityDescriptor> declarations = new ArrayList<>();
    for (Path file : files) {
      try {
        declarations.add(parse(Files.readString(file), file.toString()));
      } catch (IOException e) {
        throw new InvalidDeclarationException(file.toString(), "cannot be read", e);
      }
    }
    return sorted(declarations, location);
  }

  /**
   * The declarations in the source tree whose root is {@code root} ({@value #SOURCE_TREE_PATTERN}):
   * what tests and tools outside the worker modules read, so that each declaration exists once.
   */
  public static List<CapabilityDescriptor> inSourceTree(Path root) {
    return load(root.toAbsolutePath().normalize() + "/" + SOURCE_TREE_PATTERN);
  }

  /**
   * The root of this source tree, for tests and tools run in it: the {@code derive.root} system
   * property (the root POM gives it to every test), else the nearest folder above the working
   * directory that holds {@code worker-functions}.
   *
   * @throws IllegalStateException if there is neither
   */
  public static Path sourceTreeRoot() {
    String property = System.getProperty("derive.root");
    if (property != null && !property.isBlank()) {
      return Path.of(property);
    }
    for (Path at = Path.of("").toAbsolutePath(); at != null; at = at.getParent()) {
      if (Files.isDirectory(at.resolve("worker-functions"))) {
        return at;
      }
    }
    throw new IllegalStateException(
        "no source tree: set -Dderive.root to the folder holding worker-functions");
  }

  /** The declarations of this source tree ({@link #inSourceTree} of {@link #sourceTreeRoot}). */
  public static List<CapabilityDescriptor> inThisSourceTree() {
    return inSourceTree(sourceTreeRoot());
  }

  /**
   * Every declaration on {@code loader}'s class path at {@value #RESOURCE}, sorted by name: one in
   * a worker function, each worker module's in a tool that runs several.
   *
   * @throws InvalidDeclarationException if one is invalid or two declare the same name
   */
  public static List<CapabilityDescriptor> onClassPath(ClassLoader loader) {
    List<CapabilityDescriptor> declarations = new ArrayList<>();
    try {
      for (URL url : Collections.list(loader.getResources(RESOURCE))) {
        try (InputStream in = url.openStream()) {
          declarations.add(parse(new String(in.readAllBytes(), StandardCharsets.UTF_8), "" + url));
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + RESOURCE + " from the class path", e);
    }
    return sorted(declarations, RESOURCE);
  }

  /**
   * The one declaration on {@code loader}'s class path: the capability of this worker.
   *
   * @throws InvalidDeclarationException if there is none, more than one, or it is invalid
   */
  public static CapabilityDescriptor ofThisWorker(ClassLoader loader) {
    List<CapabilityDescriptor> found = onClassPath(loader);
    if (found.size() != 1) {
      throw new InvalidDeclarationException(
          RESOURCE,
          "a worker has exactly one capability declaration on its class path, found "
              + found.stream().map(CapabilityDescriptor::name).toList());
    }
    return found.getFirst();
  }

  private static List<CapabilityDescriptor> sorted(
      List<CapabilityDescriptor> declarations, String origin) {
    List<CapabilityDescriptor> byName = new ArrayList<>(declarations);
    byName.sort(Comparator.comparing(CapabilityDescriptor::name));
    for (int i = 1; i < byName.size(); i++) {
      if (byName.get(i).name().equals(byName.get(i - 1).name())) {
        throw new InvalidDeclarationException(
            origin, "two declarations of the capability " + byName.get(i).name());
      }
    }
    return List.copyOf(byName);
  }

  private static List<Path> jsonFilesUnder(String folder) {
    Path root = Path.of(folder);
    if (!Files.isDirectory(root)) {
      return List.of();
    }
    try (Stream<Path> paths = Files.walk(root)) {
      return paths
          .filter(p -> Files.isRegularFile(p) && p.getFileName().toString().endsWith(".json"))
          .sorted()
          .toList();
    } catch (IOException e) {
      throw new InvalidDeclarationException(folder, "cannot be listed", e);
    }
  }

  /** The files matching {@code pattern}, {@code *} standing for any name within one segment. */
  private static List<Path> matching(String pattern) {
    List<Path> found = new ArrayList<>(List.of(Path.of(pattern.startsWith("/") ? "/" : ".")));
    for (String segment : pattern.split("/")) {
      if (segment.isEmpty()) {
        continue;
      }
      List<Path> next = new ArrayList<>();
      for (Path at : found) {
        if (!segment.contains("*")) {
          next.add(at.resolve(segment));
          continue;
        }
        if (!Files.isDirectory(at)) {
          continue;
        }
        PathMatcher matcher = FileSystems.getDefault().getPathMatcher("glob:" + segment);
        try (Stream<Path> entries = Files.list(at)) {
          entries.filter(e -> matcher.matches(e.getFileName())).sorted().forEach(next::add);
        } catch (IOException e) {
          throw new InvalidDeclarationException(at.toString(), "cannot be listed", e);
        }
      }
      found = next;
    }
    return found.stream().filter(Files::isRegularFile).toList();
  }
}
