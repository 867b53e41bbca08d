package dev.derive.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A warm {@code sharp} (npm, the library inside AWS's Dynamic Image Transformation) in one Node
 * process, for the rows that compare Derive with the library a user would pick instead: it loads
 * once, then makes one derivative per {@link #run} call ({@code sharp-loop.cjs}), so each timing is
 * sharp's work alone, as a Node loop sees it. sharp {@value #VERSION} is installed with npm into
 * {@code ~/.cache/derive/sharp-<version>} when missing; the reference ThumbHash encoder (npm {@code
 * thumbhash} {@value #THUMBHASH_VERSION}) likewise, for the {@code info} row.
 */
public final class SharpAnchor implements AutoCloseable {
  /** The sharp the issue measured against (its bundled libvips is 8.17). */
  public static final String VERSION = "0.34.5";

  /** The reference ThumbHash encoder (Evan Wallace's, npm {@code thumbhash}). */
  public static final String THUMBHASH_VERSION = "0.1.1";

  private static final ObjectMapper JSON = new ObjectMapper();

  private final Process node;
  private final Writer commands;
  private final BufferedReader answers;
  private final String describe;

  private SharpAnchor(Process node, String describe, BufferedReader answers) {
    this.node = node;
    this.commands = new OutputStreamWriter(node.getOutputStream(), StandardCharsets.UTF_8);
    this.answers = answers;
    this.describe = describe;
  }

  /**
   * Starts sharp, installing it first when {@code install} and it is missing.
   *
   * @param scratch where the loop script is written
   * @throws IOException saying what is missing (node, npm, the package) and how to get it
   */
  public static SharpAnchor start(Path scratch, boolean install)
      throws IOException, InterruptedException {
    return start(scratch, install, false);
  }

  /**
   * Starts sharp, and with {@code thumbHash} makes the {@code thumbhash} mode available, installing
   * what is missing first when {@code install}.
   *
   * @param scratch where the loop script is written
   * @throws IOException saying what is missing (node, npm, the package) and how to get it
   */
  public static SharpAnchor start(Path scratch, boolean install, boolean thumbHash)
      throws IOException, InterruptedException {
    Path prefix = npmPackage("sharp", VERSION, install);
    Path thumbHashPrefix = thumbHash ? npmPackage("thumbhash", THUMBHASH_VERSION, install) : prefix;
    Path script = scratch.resolve("sharp-loop.cjs");
    try (InputStream in = SharpAnchor.class.getResourceAsStream("sharp-loop.cjs")) {
      Files.copy(in, script, StandardCopyOption.REPLACE_EXISTING);
    }
    Process node =
        new ProcessBuilder("node", script.toString(), prefix.toString(), thumbHashPrefix.toString())
            .redirectError(ProcessBuilder.Redirect.INHERIT)
            .start();
    BufferedReader answers =
        new BufferedReader(new InputStreamReader(node.getInputStream(), StandardCharsets.UTF_8));
    String first = answers.readLine();
    if (first == null) {
      node.waitFor(10, TimeUnit.SECONDS);
      throw new IOException("node could not load sharp from " + prefix + " (see its output above)");
    }
    JsonNode versions = JSON.readTree(first);
    return new SharpAnchor(
        node,
        "sharp "
            + versions.path("sharp").asText()
            + " (libvips "
            + versions.path("libvips").asText()
            + ", concurrency "
            + versions.path("concurrency").asInt()
            + ", cache off), warm in one Node process",
        answers);
  }

  /**
   * The folder {@code name@version} is installed in ({@code ~/.cache/derive/<name>-<version>}),
   * installing it with npm when missing and {@code install}.
   */
  private static Path npmPackage(String name, String version, boolean install)
      throws IOException, InterruptedException {
    Path prefix =
        Path.of(System.getProperty("user.home"), ".cache", "derive", name + "-" + version);
    if (!Files.isRegularFile(prefix.resolve("node_modules/" + name + "/package.json"))) {
      if (!install) {
        throw new IOException(name + " " + version + " is not installed in " + prefix);
      }
      Files.createDirectories(prefix);
      System.out.println("bench: npm install " + name + "@" + version + " into " + prefix + " ...");
      NativeTools.run(
          List.of(
              "npm",
              "install",
              "--no-audit",
              "--no-fund",
              "--prefix",
              prefix.toString(),
              name + "@" + version));
    }
    return prefix;
  }

  /** What the anchor is, for a row's anchor column. */
  public String describe() {
    return describe;
  }

  /**
   * Makes one derivative of {@code input} into {@code output} and waits for it.
   *
   * @param mode {@code thumbnail} (256 px inside, JPEG q85), {@code smartcrop} (256 x 256,
   *     attention) or {@code thumbhash} (the base64 ThumbHash of a 100 px RGBA decode, as text;
   *     only when started with {@code thumbHash})
   * @throws IOException if sharp failed or the process ended
   */
  public void run(String mode, Path input, Path output) throws IOException {
    commands.write(mode + "\t" + input + "\t" + output + "\n");
    commands.flush();
    String answer = answers.readLine();
    if (!"ok".equals(answer)) {
      throw new IOException("sharp " + mode + " of " + input + ": " + answer);
    }
  }

  @Override
  public void close() throws IOException {
    commands.close();
    try {
      if (!node.waitFor(10, TimeUnit.SECONDS)) {
        node.destroyForcibly();
      }
    } catch (InterruptedException e) {
      node.destroyForcibly();
      Thread.currentThread().interrupt();
    }
  }
}
