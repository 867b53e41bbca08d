package dev.derive.protocol.capability;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.derive.protocol.MediaTypes;
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
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Stream;

/**
 * Reads capability declarations: one JSON file per capability, owned by its worker module at
 * {@value #RESOURCE} (in the spirit of Alfresco T-Engines' engine configuration), into {@link
 * CapabilityDescriptor}s. The shape and its rules are in docs/capability-declarations.md; every
 * member is checked (unknown members, types, a default outside its own range, a group naming an
 * undeclared parameter …) and a broken declaration is an {@link InvalidDeclarationException} naming
 * the file and the member.
 *
 * <p>About 330 lines: the reader of one document shape, member by member; split, its parts would
 * only be called from here.
 */
public final class CapabilityDeclarations {
  /** Where a worker module keeps its declaration, on its class path. */
  public static final String RESOURCE = "META-INF/derive/capability.json";

  /** The declarations of a source tree, relative to its root (tests and tools read them so). */
  public static final String SOURCE_TREE_PATTERN =
      "worker-functions/*/src/main/resources/" + RESOURCE;

  private static final ObjectMapper JSON = new ObjectMapper();

  private static final Set<String> CAPABILITY_MEMBERS =
      Set.of(
          "name",
          "description",
          "timeBudget",
          "limits",
          "conversions",
          "operations",
          "formats",
          "imageUrls",
          "presets");
  private static final Set<String> OPERATION_MEMBERS =
      Set.of(
          "name",
          "description",
          "parameters",
          "consumes",
          "optional",
          "hints",
          "groups",
          "urlShorthands",
          "summary");
  private static final Set<String> PARAMETER_MEMBERS =
      Set.of(
          "name",
          "type",
          "minimum",
          "maximum",
          "allowedValues",
          "pattern",
          "defaultValue",
          "description",
          "multipleOf",
          "required",
          "url",
          "examples",
          "outputDefaults",
          "sourceObject");

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
    Reader reader = new Reader(origin);
    try {
      return reader.capability(root);
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

  /** Reads the members of one declaration, naming each by its JSON pointer in messages. */
  private record Reader(String origin) {
    CapabilityDescriptor capability(JsonNode root) {
      object(root, "", CAPABILITY_MEMBERS);
      String name = text(root, "/name");
      Map<String, Integer> limits = new LinkedHashMap<>();
      JsonNode declaredLimits = root.path("limits");
      if (!declaredLimits.isMissingNode()) {
        object(declaredLimits, "/limits", null);
        declaredLimits
            .properties()
            .forEach(l -> limits.put(l.getKey(), integer(l.getValue(), "/limits/" + l.getKey())));
      }
      JsonNode budget = root.path("timeBudget");
      object(budget, "/timeBudget", Set.of("timeoutSeconds", "leaseSeconds"));
      List<Conversion> conversions = new ArrayList<>();
      each(
          root,
          "/conversions",
          (c, at) -> {
            object(c, at, Set.of("sources", "targets", "cost", "operations"));
            for (String source : texts(c, at + "/sources")) {
              for (String target : texts(c, at + "/targets")) {
                conversions.add(
                    new Conversion(
                        mediaType(source, at + "/sources"),
                        mediaType(target, at + "/targets"),
                        integer(c.path("cost"), at + "/cost"),
                        texts(c, at + "/operations")));
              }
            }
          });
      List<OperationDescriptor> operations = new ArrayList<>();
      each(root, "/operations", (o, at) -> operations.add(operation(o, at, limits)));
      List<CapabilityDescriptor.Format> formats = new ArrayList<>();
      if (root.has("formats")) {
        each(
            root,
            "/formats",
            (f, at) -> {
              object(f, at, Set.of("mediaType", "names"));
              formats.add(
                  new CapabilityDescriptor.Format(
                      mediaType(text(f, at + "/mediaType"), at + "/mediaType"),
                      texts(f, at + "/names")));
            });
      }
      CapabilityDescriptor.ImageUrlFormats imageUrls = null;
      if (root.has("imageUrls")) {
        JsonNode urls = root.get("imageUrls");
        object(urls, "/imageUrls", Set.of("defaultFormat", "autoFormats", "placeholder"));
        CapabilityDescriptor.Placeholder placeholder = null;
        if (urls.has("placeholder")) {
          JsonNode p = urls.get("placeholder");
          String at = "/imageUrls/placeholder";
          object(p, at, Set.of("mediaType", "thumbHash"));
          String pointer = text(p, at + "/thumbHash");
          if (!pointer.startsWith("/")) {
            throw new IllegalArgumentException(at + "/thumbHash: must be a JSON pointer, /name");
          }
          placeholder =
              new CapabilityDescriptor.Placeholder(
                  mediaType(text(p, at + "/mediaType"), at + "/mediaType"), pointer);
        }
        imageUrls =
            new CapabilityDescriptor.ImageUrlFormats(
                text(urls, "/imageUrls/defaultFormat"),
                urls.has("autoFormats") ? texts(urls, "/imageUrls/autoFormats") : List.of(),
                placeholder);
      }
      ObjectNode presets = JSON.createObjectNode();
      if (root.has("presets")) {
        object(root.get("presets"), "/presets", null);
        presets = (ObjectNode) root.get("presets").deepCopy();
      }
      return new CapabilityDescriptor(
          name,
          text(root, "/description"),
          CapabilityDescriptor.queueUrlVariableOf(name),
          conversions,
          operations,
          new CapabilityDescriptor.TimeBudget(
              integer(budget.path("timeoutSeconds"), "/timeBudget/timeoutSeconds"),
              integer(budget.path("leaseSeconds"), "/timeBudget/leaseSeconds")),
          limits,
          formats,
          imageUrls,
          presets);
    }

    OperationDescriptor operation(JsonNode o, String at, Map<String, Integer> limits) {
      object(o, at, OPERATION_MEMBERS);
      List<ParameterDescriptor> parameters = new ArrayList<>();
      if (o.has("parameters")) {
        each(o, at + "/parameters", (p, where) -> parameters.add(parameter(p, where, limits)));
      }
      List<ParameterGroup> groups = new ArrayList<>();
      if (o.has("groups")) {
        each(
            o,
            at + "/groups",
            (g, where) -> {
              object(g, where, Set.of("rule", "names"));
              ParameterGroup.Rule rule =
                  JSON.convertValue(g.path("rule"), ParameterGroup.Rule.class);
              groups.add(new ParameterGroup(rule, texts(g, where + "/names")));
            });
      }
      List<UrlShorthand> shorthands = new ArrayList<>();
      if (o.has("urlShorthands")) {
        each(
            o,
            at + "/urlShorthands",
            (s, where) -> {
              object(s, where, Set.of("names", "arguments"));
              shorthands.add(
                  new UrlShorthand(texts(s, where + "/names"), texts(s, where + "/arguments")));
            });
      }
      return new OperationDescriptor(
          text(o, at + "/name"),
          text(o, at + "/description"),
          parameters,
          o.has("consumes") ? texts(o, at + "/consumes") : List.of(),
          o.has("optional") && bool(o.get("optional"), at + "/optional"),
          o.has("hints") ? texts(o, at + "/hints") : List.of(),
          groups,
          shorthands,
          o.has("summary") && bool(o.get("summary"), at + "/summary"));
    }

    ParameterDescriptor parameter(JsonNode p, String at, Map<String, Integer> limits) {
      object(p, at, PARAMETER_MEMBERS);
      String type = text(p, at + "/type");
      Function<String, Integer> bound =
          member -> {
            JsonNode value = p.get(member);
            if (value == null) {
              return null;
            }
            if (value.isTextual()) {
              Integer limit = limits.get(value.textValue());
              if (limit == null) {
                throw new IllegalArgumentException(
                    at
                        + "/"
                        + member
                        + ": names no limit of the declaration: "
                        + value.textValue());
              }
              return limit;
            }
            return integer(value, at + "/" + member);
          };
      UrlSpelling url = null;
      if (p.has("url")) {
        JsonNode u = p.get("url");
        String where = at + "/url";
        object(
            u,
            where,
            Set.of("names", "aliases", "prefix", "zeroIsAbsent", "negate", "scaledByDpr"));
        Map<String, String> aliases = new LinkedHashMap<>();
        if (u.has("aliases")) {
          object(u.get("aliases"), where + "/aliases", null);
          u.get("aliases")
              .properties()
              .forEach(
                  a -> aliases.put(a.getKey(), text(u.get("aliases"), where + "/" + a.getKey())));
        }
        url =
            new UrlSpelling(
                u.has("names") ? texts(u, where + "/names") : List.of(),
                aliases,
                u.has("prefix") ? text(u, where + "/prefix") : null,
                u.has("zeroIsAbsent") && bool(u.get("zeroIsAbsent"), where + "/zeroIsAbsent"),
                u.has("negate") && bool(u.get("negate"), where + "/negate"),
                u.has("scaledByDpr") && bool(u.get("scaledByDpr"), where + "/scaledByDpr"));
      }
      ParameterDescriptor parameter =
          new ParameterDescriptor(
              text(p, at + "/name"),
              type,
              bound.apply("minimum"),
              bound.apply("maximum"),
              p.has("allowedValues") ? texts(p, at + "/allowedValues") : List.of(),
              p.has("pattern") ? text(p, at + "/pattern") : null,
              p.has("defaultValue") ? scalar(p.get("defaultValue"), at + "/defaultValue") : null,
              p.has("description") ? text(p, at + "/description") : null,
              bound.apply("multipleOf"),
              p.has("required") ? bool(p.get("required"), at + "/required") : null,
              url,
              p.has("examples") ? texts(p, at + "/examples") : List.of(),
              outputDefaults(p, at),
              p.has("sourceObject") ? bool(p.get("sourceObject"), at + "/sourceObject") : null);
      if (parameter.defaultValue() != null) {
        String problem = ParameterValues.problem(parameter, parameter.defaultValue());
        if (problem != null) {
          throw new IllegalArgumentException(at + "/defaultValue: " + problem);
        }
      }
      if (parameter.pattern() != null && parameter.examples().isEmpty()) {
        throw new IllegalArgumentException(
            at + "/examples: a parameter with a pattern declares a value it takes");
      }
      for (int e = 0; e < parameter.examples().size(); e++) {
        String problem = ParameterValues.problem(parameter, parameter.examples().get(e));
        if (problem != null) {
          throw new IllegalArgumentException(at + "/examples/" + e + ": " + problem);
        }
      }
      for (Map.Entry<String, Object> entry : parameter.outputDefaults().entrySet()) {
        String problem = ParameterValues.problem(parameter, entry.getValue());
        if (problem != null) {
          throw new IllegalArgumentException(
              at + "/outputDefaults/" + entry.getKey() + ": " + problem);
        }
      }
      if (url != null && !url.aliases().isEmpty()) {
        for (String value : url.aliases().values()) {
          if (!parameter.allowedValues().contains(value)) {
            throw new IllegalArgumentException(
                at + "/url/aliases: " + value + " is not an allowed value");
          }
        }
      }
      return parameter;
    }

    /** A parameter's {@code outputDefaults}: media type (an essence) to default value. */
    Map<String, Object> outputDefaults(JsonNode p, String at) {
      Map<String, Object> defaults = new LinkedHashMap<>();
      if (p.has("outputDefaults")) {
        JsonNode node = p.get("outputDefaults");
        object(node, at + "/outputDefaults", null);
        node.properties()
            .forEach(
                e -> {
                  String where = at + "/outputDefaults/" + e.getKey();
                  defaults.put(mediaType(e.getKey(), where), scalar(e.getValue(), where));
                });
      }
      return defaults;
    }

    void object(JsonNode node, String at, Set<String> members) {
      if (!node.isObject()) {
        throw new IllegalArgumentException(where(at) + ": must be an object");
      }
      if (members != null) {
        for (String name : (Iterable<String>) node::fieldNames) {
          if (!members.contains(name)) {
            throw new IllegalArgumentException(at + "/" + name + ": unknown member");
          }
        }
      }
    }

    void each(JsonNode parent, String at, java.util.function.BiConsumer<JsonNode, String> each) {
      JsonNode array = parent.at(at.substring(at.lastIndexOf('/')));
      if (!array.isArray() || array.isEmpty()) {
        throw new IllegalArgumentException(at + ": must be a non-empty array");
      }
      for (int i = 0; i < array.size(); i++) {
        each.accept(array.get(i), at + "/" + i);
      }
    }

    String text(JsonNode parent, String at) {
      JsonNode value = parent.at(at.substring(at.lastIndexOf('/')));
      if (!value.isTextual() || value.textValue().isBlank()) {
        throw new IllegalArgumentException(at + ": must be a non-empty string");
      }
      return value.textValue();
    }

    List<String> texts(JsonNode parent, String at) {
      JsonNode array = parent.at(at.substring(at.lastIndexOf('/')));
      if (!array.isArray()) {
        throw new IllegalArgumentException(at + ": must be an array of strings");
      }
      List<String> values = new ArrayList<>();
      for (JsonNode value : array) {
        if (!value.isTextual() || value.textValue().isBlank()) {
          throw new IllegalArgumentException(at + ": must be an array of strings");
        }
        values.add(value.textValue());
      }
      return values;
    }

    int integer(JsonNode value, String at) {
      if (!value.isIntegralNumber() || !value.canConvertToInt()) {
        throw new IllegalArgumentException(at + ": must be an integer");
      }
      return value.intValue();
    }

    boolean bool(JsonNode value, String at) {
      if (!value.isBoolean()) {
        throw new IllegalArgumentException(at + ": must be true or false");
      }
      return value.booleanValue();
    }

    Object scalar(JsonNode value, String at) {
      if (value.isIntegralNumber() && value.canConvertToInt()) {
        return value.intValue();
      }
      if (value.isBoolean()) {
        return value.booleanValue();
      }
      if (value.isTextual()) {
        return value.textValue();
      }
      throw new IllegalArgumentException(at + ": must be an integer, a boolean or a string");
    }

    String mediaType(String value, String at) {
      String essence;
      try {
        essence = MediaTypes.essence(value);
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException(at + ": " + e.getMessage());
      }
      if (!essence.equals(value)) {
        throw new IllegalArgumentException(at + ": write the media type as " + essence);
      }
      return value;
    }

    private static String where(String at) {
      return at.isEmpty() ? "the declaration" : at;
    }
  }
}
