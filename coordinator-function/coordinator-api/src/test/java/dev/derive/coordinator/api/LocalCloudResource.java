package dev.derive.coordinator.api;

import dev.derive.coordinator.Declarations;
import dev.derive.coordinator.FunctionCloud;
import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The API tests' moto ({@link FunctionCloud}, a queue for every declared capability, as the
 * template deploys them all), with the API's request limits set small, handed to Quarkus config.
 */
public class LocalCloudResource implements QuarkusTestResourceLifecycleManager {
  static final String SOURCE_BUCKET = FunctionCloud.SOURCE_BUCKET;
  static final String DERIVATIVES_BUCKET = FunctionCloud.DERIVATIVES_BUCKET;
  static final String JOBS_TABLE = FunctionCloud.JOBS_TABLE;

  private FunctionCloud cloud;

  @Override
  public Map<String, String> start() {
    cloud = FunctionCloud.start(Declarations.ALL);
    Map<String, String> settings = new LinkedHashMap<>(cloud.settings());
    settings.put("MAX_SOURCE_BYTES", "1000000");
    settings.put("MAX_REQUEST_BYTES", "4096");
    return settings;
  }

  @Override
  public void stop() {
    if (cloud != null) {
      cloud.close();
    }
  }
}
