package dev.derive.infra.local.lambda;

import java.nio.file.Path;

/**
 * Where one function's files are on this machine: Lambda's {@code /var/task} and {@code /opt}.
 *
 * @param taskRoot the extracted code ({@link FunctionCode#taskRoot}), the function's working folder
 * @param opt the extracted layers ({@link FunctionLayers#opt}), standing for {@code /opt}
 */
public record FunctionFiles(Path taskRoot, Path opt) {}
