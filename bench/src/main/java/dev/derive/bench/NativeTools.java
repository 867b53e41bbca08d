package dev.derive.bench;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * The native tools the worker rows are compared with — {@code vipsthumbnail}, {@code vips}, {@code
 * vipsheader} (Debian {@code libvips-tools}), {@code pdftoppm}/{@code pdftotext} ({@code
 * poppler-utils}), {@code soffice} ({@code libreoffice-writer}) and {@code heif-enc} ({@code
 * libheif-examples}, which makes the HEIC row's input) — installed with {@code apt-get} when
 * missing and the bench runs as root. A tool that cannot be had is reported, and its rows are left
 * unmeasured.
 */
public final class NativeTools {
  /** Tool to the Debian package that provides it. */
  public static final Map<String, String> PACKAGES =
      Map.of(
          "vipsthumbnail",
          "libvips-tools",
          "vips",
          "libvips-tools",
          "vipsheader",
          "libvips-tools",
          "pdftoppm",
          "poppler-utils",
          "pdftotext",
          "poppler-utils",
          "soffice",
          "libreoffice-writer",
          "heif-enc",
          "libheif-examples");

  private final Map<String, Path> found = new LinkedHashMap<>();
  private String problem;

  private NativeTools() {}

  /**
   * Finds the tools on {@code PATH}, installing the missing ones' packages if {@code install} and
   * possible.
   */
  public static NativeTools ensure(boolean install) {
    NativeTools tools = new NativeTools();
    tools.lookUp();
    List<String> missing = tools.missingPackages();
    if (!missing.isEmpty() && !install) {
      tools.problem = "not installed by this run";
    } else if (!missing.isEmpty()) {
      tools.install(missing);
      tools.lookUp();
      missing = tools.missingPackages();
      if (!missing.isEmpty() && tools.problem == null) {
        tools.problem = "still missing after apt-get: " + missing;
      }
    }
    if (tools.problem != null) {
      System.out.println(
          "bench: install the anchors' tools with: apt-get install -y "
              + String.join(" ", tools.missingPackages())
              + " ("
              + tools.problem
              + ")");
    }
    return tools;
  }

  /** The tool's path, or empty when it could not be had. */
  public Optional<Path> tool(String name) {
    return Optional.ofNullable(found.get(name));
  }

  /** A row's measurement against a native tool, given the tool's path. */
  @FunctionalInterface
  public interface Measure {
    /** Measures the row and adds it to the results. */
    void run(Path tool) throws Exception;
  }

  /**
   * Runs {@code measure} with the path of {@code tool} when it is there; otherwise adds row {@code
   * id} unmeasured against {@code anchor} (with its {@code goal}), saying why the tool is missing
   * and how to install it. Nested calls measure a row that needs several tools.
   */
  public void measureWith(
      String tool, Results results, String id, String anchor, Double goal, Measure measure)
      throws Exception {
    Optional<Path> path = tool(tool);
    if (path.isEmpty()) {
      results.add(Row.unmeasured(id, "ms", anchor, goal, whyMissing(tool)));
      return;
    }
    measure.run(path.get());
  }

  /** Why a tool is missing, for an unmeasured row's note. */
  public String whyMissing(String name) {
    return name
        + " not available (apt-get install -y "
        + PACKAGES.get(name)
        + (problem == null ? "" : "; " + problem)
        + ")";
  }

  /**
   * Runs {@code command} and waits for it, in the environment this JVM started with: sharp's
   * libvips, loaded in this process for the worker rows, sets {@code VIPSHOME=/target} (its build
   * prefix) in the process's own environment, and Debian's {@code vipsthumbnail} inheriting it
   * finds none of its loadable modules (HEIF among them).
   *
   * @throws IOException if it cannot start, or exits non-zero (with its output)
   */
  public static void run(List<String> command) throws IOException, InterruptedException {
    ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
    builder.environment().remove("VIPSHOME");
    Process process = builder.start();
    byte[] output = process.getInputStream().readAllBytes();
    if (!process.waitFor(10, TimeUnit.MINUTES) || process.exitValue() != 0) {
      throw new IOException(command + " failed: " + new String(output).strip());
    }
  }

  private List<String> missingPackages() {
    List<String> missing = new ArrayList<>();
    PACKAGES.forEach(
        (tool, pkg) -> {
          if (!found.containsKey(tool) && !missing.contains(pkg)) {
            missing.add(pkg);
          }
        });
    return missing;
  }

  private void lookUp() {
    String path = System.getenv().getOrDefault("PATH", "/usr/bin:/bin");
    for (String tool : PACKAGES.keySet()) {
      for (String dir : path.split(File.pathSeparator)) {
        Path candidate = Path.of(dir, tool);
        if (Files.isExecutable(candidate)) {
          found.put(tool, candidate);
          break;
        }
      }
    }
  }

  private void install(List<String> packages) {
    if (!"root".equals(System.getProperty("user.name"))) {
      problem = "not root, so the bench does not run apt-get";
      return;
    }
    System.out.println("bench: apt-get install -y " + String.join(" ", packages) + " ...");
    try {
      run(List.of("apt-get", "update", "-q"));
      List<String> install = new ArrayList<>(List.of("apt-get", "install", "-y", "-q"));
      install.addAll(packages);
      run(install);
    } catch (IOException e) {
      problem = "apt-get failed: " + e.getMessage().lines().reduce((a, b) -> b).orElse("");
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      problem = "interrupted";
    }
  }
}
