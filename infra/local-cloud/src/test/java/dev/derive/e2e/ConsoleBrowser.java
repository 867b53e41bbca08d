package dev.derive.e2e;

import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.Optional;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;

/**
 * Debian's headless {@code chromium} driven through {@code chromium-driver} for the console's
 * end-to-end tests. Both are looked for at {@code -Dderive.chromium} / {@code
 * -Dderive.chromedriver}, then on {@code PATH}; Selenium Manager is never asked to download a
 * browser. When either is missing, or the browser does not start, the test fails saying what to
 * install: it never skips.
 */
final class ConsoleBrowser implements AutoCloseable {
  /** What to run when the browser is missing; {@code .ci/run} does it. */
  static final String INSTALL = "apt-get update && apt-get install -y chromium chromium-driver";

  private final ChromeDriver driver;
  private final Path screenshots;

  private ConsoleBrowser(ChromeDriver driver, Path screenshots) {
    this.driver = driver;
    this.screenshots = screenshots;
  }

  /**
   * Starts headless chromium with a 1280x1400 window.
   *
   * @param screenshots the folder screenshots are written to (made if missing)
   */
  static ConsoleBrowser start(Path screenshots) {
    Path browser = executable("derive.chromium", "chromium", "chromium-browser");
    Path driverBinary = executable("derive.chromedriver", "chromedriver");
    ChromeOptions options = new ChromeOptions();
    options.setBinary(browser.toFile());
    options.addArguments(
        "--headless=new",
        "--no-sandbox", // CI runs as root, where chromium's sandbox refuses to start
        "--disable-dev-shm-usage",
        "--disable-gpu",
        "--no-first-run",
        "--window-size=1280,1400");
    ChromeDriverService service =
        new ChromeDriverService.Builder()
            .usingDriverExecutable(driverBinary.toFile())
            .usingAnyFreePort()
            .withTimeout(Duration.ofSeconds(30))
            .build();
    ChromeDriver driver;
    try {
      driver = new ChromeDriver(service, options);
    } catch (RuntimeException e) {
      return fail(
          "chromium ("
              + browser
              + ") did not start through "
              + driverBinary
              + ": "
              + e.getMessage().lines().findFirst().orElse("")
              + ". Install Debian's browser and driver: "
              + INSTALL,
          e);
    }
    try {
      Files.createDirectories(screenshots);
    } catch (IOException e) {
      driver.quit();
      return fail("cannot make " + screenshots, e);
    }
    return new ConsoleBrowser(driver, screenshots);
  }

  ChromeDriver driver() {
    return driver;
  }

  /** Scrolls {@code element} to the top of the window, then takes {@link #screenshot(String)}. */
  Path screenshot(String name, WebElement element) {
    driver.executeScript("arguments[0].scrollIntoView({block: 'start'});", element);
    return screenshot(name);
  }

  /** Writes the window as it looks now to {@code <screenshots>/<name>.png}; returns the file. */
  Path screenshot(String name) {
    Path file = screenshots.resolve(name + ".png");
    try {
      Files.write(file, driver.getScreenshotAs(OutputType.BYTES));
    } catch (IOException e) {
      fail("cannot write " + file, e);
    }
    return file;
  }

  @Override
  public void close() {
    driver.quit();
  }

  /** The executable named by {@code property}, else the first of {@code names} on PATH. */
  private static Path executable(String property, String... names) {
    String configured = System.getProperty(property);
    if (configured != null) {
      Path path = Path.of(configured);
      if (!Files.isExecutable(path)) {
        fail(
            property
                + "="
                + configured
                + " is not an executable file; Debian's chromium and chromium-driver: "
                + INSTALL);
      }
      return path;
    }
    Optional<Path> found =
        Arrays.stream(System.getenv().getOrDefault("PATH", "/usr/bin").split(":"))
            .flatMap(dir -> Arrays.stream(names).map(name -> Path.of(dir, name)))
            .filter(Files::isExecutable)
            .findFirst();
    if (found.isEmpty()) {
      fail(
          String.join(" or ", names)
              + " is not on PATH (nor given as -D"
              + property
              + "): the console's browser tests need Debian's chromium and chromium-driver: "
              + INSTALL);
    }
    return found.get();
  }
}
