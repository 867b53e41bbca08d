package dev.derive.infra.local;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.derive.infra.local.testfunction.TestFunction;
import java.io.IOException;
import java.io.OutputStream;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;

/**
 * Packages {@link TestFunction} like a Lambda deployment package: its classes at the zip's root and
 * its one dependency (Jackson) as jars under {@code lib/}.
 */
final class TestFunctionPackage {
  private TestFunctionPackage() {}

  static void write(Path zip) throws IOException, URISyntaxException {
    Path classes = location(TestFunction.class);
    Path packageDir = classes.resolve("dev/derive/infra/local/testfunction");
    try (ZipOutputStream out = new ZipOutputStream(Files.newOutputStream(zip));
        Stream<Path> files = Files.walk(packageDir)) {
      for (Path file : files.filter(Files::isRegularFile).toList()) {
        add(out, classes.relativize(file).toString().replace('\\', '/'), file);
      }
      for (Class<?> type : List.of(ObjectMapper.class, JsonFactory.class, JsonProperty.class)) {
        Path jar = location(type);
        add(out, "lib/" + jar.getFileName(), jar);
      }
    }
  }

  private static void add(ZipOutputStream out, String name, Path file) throws IOException {
    out.putNextEntry(new ZipEntry(name));
    try (OutputStream entry = new NonClosing(out)) {
      Files.copy(file, entry);
    }
    out.closeEntry();
  }

  private static Path location(Class<?> type) throws URISyntaxException {
    return Path.of(type.getProtectionDomain().getCodeSource().getLocation().toURI());
  }

  private static final class NonClosing extends java.io.FilterOutputStream {
    NonClosing(OutputStream out) {
      super(out);
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
      out.write(b, off, len);
    }

    @Override
    public void close() throws IOException {
      flush();
    }
  }
}
