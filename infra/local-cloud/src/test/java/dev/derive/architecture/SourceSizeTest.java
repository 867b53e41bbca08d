package dev.derive.architecture;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * Small classes (issue 31, "Done means"): no Java file under a module's {@code src/main} is over
 * {@value #MAX_LINES} lines unless the line directly above its top-level type declaration (above
 * its annotations, below its Javadoc) says why, as {@code // Over 300 lines because …}. It reads
 * the checkout's sources, so it sees every module whatever this module depends on.
 */
class SourceSizeTest {
  static final int MAX_LINES = 300;

  static final String REASON = "// Over 300 lines because ";

  private static final Pattern TYPE_DECLARATION =
      Pattern.compile(
          "^(?:(?:public|final|abstract|sealed|non-sealed|strictfp)\\s+)*"
              + "(?:class|interface|enum|record|@interface)\\s.*");

  @Test
  void everyLongFileSaysWhy() throws IOException {
    Path root = checkout();
    List<String> unexplained = new ArrayList<>();
    int seen = 0;
    for (Path file : mainSources(root)) {
      seen++;
      String relative = root.relativize(file).toString().replace('\\', '/');
      List<String> lines = Files.readAllLines(file);
      if (lines.size() > MAX_LINES && !explained(lines)) {
        unexplained.add(relative + " (" + lines.size() + " lines)");
      }
    }
    assertThat(seen).as("Java files under src/main in %s", root).isGreaterThan(100);
    assertThat(unexplained)
        .as(
            "files over %d lines: split each along a real seam, or put '%s<reason>' directly above"
                + " its type declaration",
            MAX_LINES, REASON)
        .isEmpty();
  }

  @Test
  void aReasonMustSitDirectlyAboveTheDeclaration() {
    List<String> explainedFile =
        List.of(
            "package a;",
            "/** A class. */",
            REASON + "it is a table.",
            "@SuppressWarnings(\"x\")",
            "public final class A {}");
    List<String> reasonTooHigh =
        List.of("package a;", REASON + "it is a table.", "/** A class. */", "class A {}");
    assertThat(explained(explainedFile)).isTrue();
    assertThat(explained(reasonTooHigh)).isFalse();
    assertThat(explained(List.of("package a;", "class A {}"))).isFalse();
  }

  /**
   * Whether the line above the first top-level type declaration (and its annotations) is a reason.
   */
  static boolean explained(List<String> lines) {
    for (int i = 0; i < lines.size(); i++) {
      if (TYPE_DECLARATION.matcher(lines.get(i)).matches()) {
        int above = i - 1;
        while (above >= 0 && lines.get(above).startsWith("@")) {
          above--;
        }
        return above >= 0 && lines.get(above).startsWith(REASON);
      }
    }
    return false;
  }

  /** The Java files under any {@code src/main} below {@code root}, build output left out. */
  private static List<Path> mainSources(Path root) throws IOException {
    List<Path> found = new ArrayList<>();
    Files.walkFileTree(
        root,
        new SimpleFileVisitor<>() {
          @Override
          public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attributes) {
            String name = dir.getFileName() == null ? "" : dir.getFileName().toString();
            boolean output =
                name.equals("target") || name.equals("node_modules") || name.startsWith(".");
            return output && !dir.equals(root)
                ? FileVisitResult.SKIP_SUBTREE
                : FileVisitResult.CONTINUE;
          }

          @Override
          public FileVisitResult visitFile(Path file, BasicFileAttributes attributes) {
            String path = file.toString().replace('\\', '/');
            if (path.endsWith(".java") && path.contains("/src/main/")) {
              found.add(file);
            }
            return FileVisitResult.CONTINUE;
          }
        });
    return found;
  }

  /**
   * The checkout's root: the nearest folder above this module holding {@code derive} and {@code
   * protocol/}.
   */
  private static Path checkout() {
    Path dir = Path.of("").toAbsolutePath();
    while (dir != null) {
      if (Files.isRegularFile(dir.resolve("derive"))
          && Files.isDirectory(dir.resolve("protocol"))) {
        return dir;
      }
      dir = dir.getParent();
    }
    throw new UncheckedIOException(
        new IOException("no Derive checkout above " + Path.of("").toAbsolutePath()));
  }
}
