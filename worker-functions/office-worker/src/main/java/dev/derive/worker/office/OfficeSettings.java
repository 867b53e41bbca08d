package dev.derive.worker.office;

import java.io.File;
import java.nio.file.Path;
import java.util.Optional;
import org.jodconverter.local.office.LocalOfficeUtils;

/**
 * How the office worker converts.
 *
 * @param officeHome the LibreOffice installation (the folder holding {@code program/soffice.bin})
 * @param conversionTimeoutMillis the deadline of one conversion, in milliseconds: past it the
 *     office process is killed and restarted and the step fails {@code timeout}; well inside the
 *     function's timeout, so the step ends before the invocation does
 * @param maxPages the most pages one conversion writes; a longer document is converted only up to
 *     the page a step needs, and refused {@code input-too-large} as a whole
 * @param maxInflatedBytes the most bytes a ZIP-packaged document (OOXML, ODF) may inflate to,
 *     nested packages included ({@link PackageBudget})
 */
public record OfficeSettings(
    Path officeHome, long conversionTimeoutMillis, int maxPages, long maxInflatedBytes) {
  /** Where Debian and Ubuntu install LibreOffice; named when no installation is found. */
  static final Path DEBIAN_HOME = Path.of("/usr/lib/libreoffice");

  public OfficeSettings {
    if (conversionTimeoutMillis <= 0 || maxPages <= 0 || maxInflatedBytes <= 0) {
      throw new IllegalArgumentException(
          "office limits must be positive: "
              + conversionTimeoutMillis
              + " ms, "
              + maxPages
              + " pages, "
              + maxInflatedBytes
              + " bytes");
    }
  }

  /**
   * The installation at {@code configured} (env {@code OFFICE_HOME}), else the first JODConverter
   * finds in the usual places ({@code /usr/lib/libreoffice}, {@code /opt/libreoffice} …), else
   * {@link #DEBIAN_HOME} (which {@link OfficeProcess#start} then reports missing).
   */
  static Path officeHome(Optional<String> configured) {
    if (configured.isPresent() && !configured.get().isBlank()) {
      return Path.of(configured.get());
    }
    File detected = LocalOfficeUtils.getDefaultOfficeHome();
    return detected == null ? DEBIAN_HOME : detected.toPath();
  }
}
