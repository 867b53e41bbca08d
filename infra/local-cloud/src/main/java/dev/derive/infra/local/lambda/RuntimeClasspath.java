package dev.derive.infra.local.lambda;

import java.io.IOException;
import java.io.InputStream;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.CodeSource;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;

/**
 * The classpath of a function's JVM: the AWS Lambda runtime interface client and its own
 * dependencies (aws-lambda-java-core, aws-lambda-java-serialization, the SDK's utils-lite and
 * annotations), found where this JVM loaded them from. The function's code is not on it: the
 * runtime interface client loads that from the task root, as Lambda's Java runtime does.
 */
public final class RuntimeClasspath {
  /** The runtime interface client's main class; it takes the handler string as its argument. */
  public static final String MAIN_CLASS =
      "com.amazonaws.services.lambda.runtime.api.client.AWSLambda";

  /** One class from each jar the runtime interface client needs (its POM's dependencies). */
  private static final List<String> MARKERS =
      List.of(
          MAIN_CLASS,
          "com.amazonaws.services.lambda.runtime.Context",
          "com.amazonaws.services.lambda.runtime.serialization.PojoSerializer",
          "software.amazon.awssdk.utilslite.SdkInternalThreadLocal",
          "software.amazon.awssdk.annotations.SdkProtectedApi");

  /**
   * The system property that makes the runtime interface client load its JNI library from a given
   * file instead of copying it to the fixed path {@code /tmp/.libaws-lambda-jni.so}, which
   * concurrently starting JVMs overwrite under each other (a SIGBUS in the dynamic loader).
   */
  public static final String JNI_PROPERTY =
      "com.amazonaws.services.lambda.runtime.api.client.runtimeapi.NativeClient.JNI";

  private RuntimeClasspath() {}

  /**
   * Extracts the runtime interface client's JNI library for this platform (glibc or musl, x86_64 or
   * aarch64) into {@code folder} once, for {@link #JNI_PROPERTY}.
   *
   * @return the library file
   * @throws FunctionStartException if the platform has no library or it cannot be written
   */
  public static Path nativeLibrary(Path folder) {
    String arch =
        switch (System.getProperty("os.arch")) {
          case "amd64", "x86_64" -> "x86_64";
          case "aarch64", "arm64" -> "aarch_64";
          default ->
              throw new FunctionStartException(
                  "the runtime interface client has no native library for "
                      + System.getProperty("os.arch"));
        };
    boolean musl =
        Files.exists(Path.of("/lib/ld-musl-x86_64.so.1"))
            || Files.exists(Path.of("/lib/ld-musl-aarch64.so.1"));
    String name = "libaws-lambda-jni." + (musl ? "linux_musl-" : "linux-") + arch + ".so";
    Path target = folder.resolve(name);
    try (InputStream in = RuntimeClasspath.class.getResourceAsStream("/jni/" + name)) {
      if (in == null) {
        throw new FunctionStartException("the runtime interface client jar has no /jni/" + name);
      }
      byte[] bytes = in.readAllBytes();
      if (Files.isRegularFile(target) && Files.size(target) == bytes.length) {
        return target;
      }
      Files.createDirectories(folder);
      Path temporary = Files.createTempFile(folder, name, ".tmp");
      Files.write(temporary, bytes);
      Files.move(
          temporary, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
      return target;
    } catch (IOException e) {
      throw new FunctionStartException("cannot extract " + name + " into " + folder, e);
    }
  }

  /**
   * The jars (or class folders) holding the runtime interface client and its dependencies.
   *
   * @throws FunctionStartException if one of them is not on this JVM's classpath
   */
  public static List<Path> locate() {
    LinkedHashSet<Path> entries = new LinkedHashSet<>();
    for (String marker : MARKERS) {
      try {
        Class<?> type = Class.forName(marker, false, RuntimeClasspath.class.getClassLoader());
        CodeSource source = type.getProtectionDomain().getCodeSource();
        if (source == null || source.getLocation() == null) {
          throw new FunctionStartException("cannot tell which jar holds " + marker);
        }
        entries.add(Path.of(source.getLocation().toURI()));
      } catch (ClassNotFoundException | URISyntaxException e) {
        throw new FunctionStartException(
            marker
                + " is not on the local cloud's classpath: add"
                + " com.amazonaws:aws-lambda-java-runtime-interface-client to it",
            e);
      }
    }
    return new ArrayList<>(entries);
  }
}
