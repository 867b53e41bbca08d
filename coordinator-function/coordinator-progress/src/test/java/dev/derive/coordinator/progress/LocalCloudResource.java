package dev.derive.coordinator.progress;

import dev.derive.coordinator.Declarations;
import dev.derive.coordinator.FunctionCloud;
import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;
import java.util.Map;

/**
 * The progress tests' moto ({@link FunctionCloud}, with the image capability's queue only), handed
 * to Quarkus config.
 */
public class LocalCloudResource implements QuarkusTestResourceLifecycleManager {
  static final String JOBS_TABLE = FunctionCloud.JOBS_TABLE;
  static final String DERIVATIVES_BUCKET = FunctionCloud.DERIVATIVES_BUCKET;

  private FunctionCloud cloud;

  @Override
  public Map<String, String> start() {
    cloud =
        FunctionCloud.start(
            Declarations.ALL.stream().filter(c -> c.name().equals("image")).toList());
    return cloud.settings();
  }

  @Override
  public void stop() {
    if (cloud != null) {
      cloud.close();
    }
  }
}
