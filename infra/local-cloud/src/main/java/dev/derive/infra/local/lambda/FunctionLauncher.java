package dev.derive.infra.local.lambda;

import dev.derive.infra.local.template.FunctionDefinition;
import java.io.File;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Starts one execution environment of a function: a JVM running the AWS Lambda runtime interface
 * client with the handler as its argument, working in the task root (the client loads the
 * function's classes from its working folder and {@code lib/*.jar}), with the environment Lambda
 * gives a function.
 *
 * <p>Environment, later entries winning: the template's variables ({@code Globals} merged), the AWS
 * endpoint's ({@code AWS_ENDPOINT_URL}, region, credentials, {@code DERIVE_S3_PATH_STYLE}), then
 * Lambda's reserved variables ({@code AWS_LAMBDA_RUNTIME_API}, {@code _HANDLER}, {@code
 * AWS_LAMBDA_FUNCTION_NAME}, {@code AWS_LAMBDA_FUNCTION_MEMORY_SIZE}, {@code
 * AWS_LAMBDA_FUNCTION_VERSION}, {@code LAMBDA_TASK_ROOT}, {@code TZ} …). The heap is limited to
 * {@value #HEAP_PERCENT}% of {@code MemorySize}, like the managed Java runtime does.
 *
 * <p>{@code /opt} is the function's own layer folder ({@link FunctionFiles#opt}): a template
 * variable naming a path under {@code /opt} (e.g. {@code DERIVE_LIBVIPS_PATH: /opt/lib}) is given
 * that path in the folder ({@link FunctionLayers#localPath}), and {@code LD_LIBRARY_PATH} and
 * {@code PATH} end with its {@code lib} and {@code bin}, as Lambda's end with {@code /opt/lib} and
 * {@code /opt/bin}. Java layers' {@code /opt/java/lib} jars are not put on the class path.
 */
public final class FunctionLauncher {
  /** Share of {@code MemorySize} given to the heap (Lambda's java21 runtime uses about 85%). */
  public static final int HEAP_PERCENT = 85;

  private final List<Path> runtimeClasspath;
  private final Path nativeLibrary;
  private final Path java;
  private final Map<String, String> endpointEnvironment;
  private final String region;

  /**
   * @param runtimeClasspath the runtime interface client's jars ({@link RuntimeClasspath#locate()})
   * @param nativeLibrary its JNI library ({@link RuntimeClasspath#nativeLibrary(Path)})
   * @param java the {@code java} executable
   * @param endpointEnvironment the AWS endpoint's variables
   * @param region the region functions run in
   */
  public FunctionLauncher(
      List<Path> runtimeClasspath,
      Path nativeLibrary,
      Path java,
      Map<String, String> endpointEnvironment,
      String region) {
    this.runtimeClasspath = List.copyOf(runtimeClasspath);
    this.nativeLibrary = nativeLibrary;
    this.java = java;
    this.endpointEnvironment = Map.copyOf(endpointEnvironment);
    this.region = region;
  }

  /**
   * Lambda's name of this machine's instruction set ({@code os.arch}): {@code arm64} for aarch64,
   * else {@code x86_64}. Functions run on it whatever their {@code Architectures} say.
   */
  public static String hostArchitecture() {
    String arch = System.getProperty("os.arch", "");
    return arch.equals("aarch64") || arch.equals("arm64") ? "arm64" : "x86_64";
  }

  /** The {@code java} of the running JVM ({@code java.home}). */
  public static Path currentJava() {
    return Path.of(System.getProperty("java.home"), "bin", "java");
  }

  /** The command line of one execution environment of {@code function}. */
  public List<String> command(FunctionDefinition function) {
    List<String> command = new ArrayList<>();
    command.add(java.toString());
    command.add("-Xmx" + Math.max(16, function.memorySizeMb() * HEAP_PERCENT / 100) + "m");
    command.add("-XX:+UseSerialGC");
    command.add("-Xshare:auto");
    command.add("-Djava.net.preferIPv4Stack=true");
    command.add("--enable-native-access=ALL-UNNAMED");
    command.add("-D" + RuntimeClasspath.JNI_PROPERTY + "=" + nativeLibrary);
    // Java 24+ closes java.lang to libraries (JBoss Threads' thread-local reset) that Lambda's
    // java21 runtime still allows; open it so a newer local JDK behaves like java21.
    command.add("--add-opens=java.base/java.lang=ALL-UNNAMED");
    command.add("-cp");
    command.add(
        String.join(File.pathSeparator, runtimeClasspath.stream().map(Path::toString).toList()));
    command.add(RuntimeClasspath.MAIN_CLASS);
    command.add(function.handler());
    return command;
  }

  /** The environment of one execution environment of {@code function}. */
  public Map<String, String> environment(
      FunctionDefinition function, FunctionFiles files, String runtimeApi) {
    Path taskRoot = files.taskRoot();
    Map<String, String> environment = new LinkedHashMap<>();
    function
        .environment()
        .forEach(
            (name, value) -> environment.put(name, FunctionLayers.localPath(value, files.opt())));
    environment.putAll(endpointEnvironment);
    String path = System.getenv("PATH");
    environment.put(
        "PATH",
        (path == null ? "/usr/local/bin:/usr/bin:/bin" : path) + ":" + files.opt().resolve("bin"));
    // Lambda:
    // /var/lang/lib:/lib64:/usr/lib64:/var/runtime:/var/runtime/lib:/var/task:/var/task/lib:/opt/lib
    environment.put(
        "LD_LIBRARY_PATH",
        String.join(
            ":",
            taskRoot.toString(),
            taskRoot.resolve("lib").toString(),
            files.opt().resolve("lib").toString()));
    environment.put("LANG", "en_US.UTF-8");
    environment.put("TZ", ":UTC");
    environment.put("AWS_REGION", region);
    environment.put("AWS_DEFAULT_REGION", region);
    function.runtime().ifPresent(r -> environment.put("AWS_EXECUTION_ENV", "AWS_Lambda_" + r));
    environment.put("AWS_LAMBDA_RUNTIME_API", runtimeApi);
    environment.put("_HANDLER", function.handler());
    environment.put("AWS_LAMBDA_FUNCTION_NAME", function.functionName());
    environment.put("AWS_LAMBDA_FUNCTION_MEMORY_SIZE", Integer.toString(function.memorySizeMb()));
    environment.put("AWS_LAMBDA_FUNCTION_VERSION", "$LATEST");
    environment.put("AWS_LAMBDA_INITIALIZATION_TYPE", "on-demand");
    environment.put("AWS_LAMBDA_LOG_GROUP_NAME", "/aws/lambda/" + function.functionName());
    environment.put("AWS_LAMBDA_LOG_STREAM_NAME", "local/[$LATEST]" + function.logicalId());
    environment.put("LAMBDA_TASK_ROOT", taskRoot.toString());
    environment.put("LAMBDA_RUNTIME_DIR", taskRoot.toString());
    return environment;
  }

  /**
   * Starts the JVM; its output is left on the returned process's streams.
   *
   * @throws FunctionStartException if the process cannot be started
   */
  public Process start(FunctionDefinition function, FunctionFiles files, String runtimeApi) {
    ProcessBuilder builder =
        new ProcessBuilder(command(function)).directory(files.taskRoot().toFile());
    builder.environment().clear();
    builder.environment().putAll(environment(function, files, runtimeApi));
    try {
      return builder.start();
    } catch (IOException e) {
      throw new FunctionStartException("cannot start the JVM of " + function.logicalId(), e);
    }
  }
}
