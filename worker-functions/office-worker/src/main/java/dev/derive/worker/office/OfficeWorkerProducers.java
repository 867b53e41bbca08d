package dev.derive.worker.office;

import dev.derive.worker.runtime.cdi.WorkerPriming;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Optional;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * CDI wiring of the office worker: its settings, the warm {@link OfficeProcess} (started with the
 * application, stopped when it shuts down) and the {@link OfficeTransformer}, the one {@code
 * StepTransformer} bean the runtime's shared wiring runs. Settings come from {@code
 * application.properties}, which maps the environment variables of {@code template.yaml}.
 */
@Singleton
public class OfficeWorkerProducers {

  /**
   * {@code derive.office.home} (env {@code OFFICE_HOME}; absent: the usual places), {@code
   * derive.office.conversion-timeout-millis}, {@code derive.office.max-pages} and {@code
   * derive.office.max-inflated-bytes}.
   */
  @Produces
  @Singleton
  OfficeSettings officeSettings(
      @ConfigProperty(name = "derive.office.home") Optional<String> home,
      @ConfigProperty(name = "derive.office.conversion-timeout-millis") long timeoutMillis,
      @ConfigProperty(name = "derive.office.max-pages") int maxPages,
      @ConfigProperty(name = "derive.office.max-inflated-bytes") long maxInflatedBytes) {
    return new OfficeSettings(
        OfficeSettings.officeHome(home), timeoutMillis, maxPages, maxInflatedBytes);
  }

  /** The office process, working under {@code java.io.tmpdir}/derive-office. */
  @Produces
  @Singleton
  OfficeProcess officeProcess(OfficeSettings settings) {
    return new OfficeProcess(
        settings, Path.of(System.getProperty("java.io.tmpdir"), "derive-office"));
  }

  /** The transformer. */
  @Produces
  @Singleton
  OfficeTransformer officeTransformer(OfficeProcess office, OfficeSettings settings) {
    return new OfficeTransformer(office, settings);
  }

  /**
   * Starts the office process and runs the probe at init, so the first step finds LibreOffice warm
   * (a container-image function has no SnapStart snapshot to prime); a LibreOffice that is missing
   * or broken fails the function's init, saying what to install.
   */
  void start(@Observes StartupEvent startup, OfficeTransformer transformer) throws IOException {
    WorkerPriming.prime(transformer);
  }

  void stop(@Observes ShutdownEvent shutdown, OfficeProcess office) {
    office.close();
  }
}
