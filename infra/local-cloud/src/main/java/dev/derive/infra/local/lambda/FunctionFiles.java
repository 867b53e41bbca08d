package dev.derive.infra.local.lambda;

import dev.derive.infra.local.template.FunctionDefinition;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * Where one function's files are on this machine: Lambda's {@code /var/task} and {@code /opt}.
 *
 * @param taskRoot the extracted code ({@link FunctionCode#taskRoot}), the function's working folder
 * @param opt the extracted layers ({@link FunctionLayers#opt}), standing for {@code /opt}
 */
public record FunctionFiles(Path taskRoot, Path opt) {

  /**
   * Extracts every function's code and layers in parallel, under {@code
   * workDir/functions/<logicalId>} and {@code workDir/layers/<logicalId>}.
   *
   * @return the files by logical id
   * @throws FunctionStartException naming every function whose code or layers cannot be extracted
   */
  public static Map<String, FunctionFiles> extractAll(
      List<FunctionDefinition> functions, Path workDir) {
    Map<String, Supplier<FunctionFiles>> extractions = new LinkedHashMap<>();
    for (FunctionDefinition function : functions) {
      extractions.put(
          function.logicalId(),
          () ->
              new FunctionFiles(
                  FunctionCode.taskRoot(
                      function.logicalId(),
                      function.code(),
                      workDir.resolve("functions").resolve(function.logicalId())),
                  FunctionLayers.opt(
                      function.logicalId(),
                      function.layers(),
                      workDir.resolve("layers").resolve(function.logicalId()))));
    }
    return Parallel.supplyAll(extractions);
  }
}
