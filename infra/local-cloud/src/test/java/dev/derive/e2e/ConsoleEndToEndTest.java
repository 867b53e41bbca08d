package dev.derive.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import dev.derive.infra.local.LocalCloud;
import java.awt.image.BufferedImage;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.ExtendWith;
import org.openqa.selenium.By;
import org.openqa.selenium.Dimension;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.Keys;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.interactions.Actions;
import org.openqa.selenium.support.ui.Select;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * The web console (issue 15) in a real browser: Debian's headless chromium, driven through
 * chromium-driver, against the shared local cloud. Uploads a real sample through the console's
 * presigned PUT (cross-origin to moto), asks for a thumbnail, watches the steps complete and the
 * image appear with the right dimensions, asks again and sees the cache answer, and sees a broken
 * file's error as the API said it. A screenshot of each state is written under {@code
 * target/console-screenshots/}.
 */
@ExtendWith(LocalCloudExtension.class)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ConsoleEndToEndTest {
  /** A size no other end-to-end test asks for, so the first request is not a cache hit. */
  private static final int BOX = 211;

  private static final Duration JOB_TIMEOUT = Duration.ofSeconds(90);

  private static ConsoleBrowser browser;
  private static LocalCloud cloud;
  private static Path samples;

  /** The browser first: without one the test fails at once, before a cloud is started. */
  @BeforeAll
  static void startTheBrowser() {
    browser = ConsoleBrowser.start(Path.of("target/console-screenshots"));
  }

  @BeforeEach
  void useTheSharedLocalCloud(SharedLocalCloud shared) {
    cloud = shared.cloud();
    samples = shared.samples();
  }

  @AfterAll
  static void closeTheBrowser() {
    if (browser != null) {
      browser.close();
    }
  }

  @Test
  @Order(1)
  void aPhotoBecomesAThumbnailWithItsStepsAndTheCacheAnswersTheSecondTime() throws Exception {
    WebDriver page = load();
    browser.screenshot("1-console-loaded");

    askForABox(page, BOX);
    new Select(page.findElement(By.id("option-fit"))).selectByValue("inside");

    Path photo = samples.resolve("exif/Landscape_6.jpg");
    page.findElement(By.id("file-input")).sendKeys(photo.toRealPath().toString());
    WebElement upload =
        waitFor(page, By.cssSelector("#uploads li[data-state]"), Duration.ofSeconds(30));
    assertThat(upload.getDomAttribute("data-state")).as(upload.getText()).isEqualTo("uploaded");
    assertThat(upload.getText()).contains("uploads/").contains("Landscape_6.jpg");
    browser.screenshot("2-photo-uploaded");

    page.findElement(By.id("make")).click();
    WebElement job = awaitJob(page, 1);
    browser.screenshot("3-thumbnail-made", job);

    assertThat(job.getDomAttribute("data-state")).as(job.getText()).isEqualTo("SHOWN");
    assertThat(job.findElement(By.cssSelector(".outcome")).getDomAttribute("data-outcome"))
        .isEqualTo("started");
    List<WebElement> steps = job.findElements(By.cssSelector("tr.step"));
    assertThat(steps).hasSize(1);
    assertThat(steps.get(0).getDomAttribute("data-status")).isEqualTo("SUCCEEDED");
    assertThat(steps.get(0).getText()).contains("image").contains("resize").contains("ms");
    WebElement image = job.findElement(By.cssSelector("img.result-image"));
    int width = Integer.parseInt(image.getDomAttribute("data-width"));
    int height = Integer.parseInt(image.getDomAttribute("data-height"));
    BufferedImage original = ImageIO.read(photo.toFile());
    assertThat(width).as("the longer side fills the box").isEqualTo(BOX);
    assertThat(height)
        .as("upright, in the original's proportions")
        .isCloseTo(
            (int)
                Math.round(
                    BOX
                        * (double) Math.min(original.getWidth(), original.getHeight())
                        / Math.max(original.getWidth(), original.getHeight())),
            org.assertj.core.data.Offset.offset(1));
    assertThat(job.findElement(By.cssSelector(".result-caption")).getText())
        .contains("image/jpeg")
        .contains(width + "×" + height + " px");
    // issue 30 item 14: saved under the source's name and the derivative's extension
    assertThat(job.findElement(By.cssSelector("a.download")).getDomAttribute("download"))
        .isEqualTo("Landscape_6.derived.jpg");
    assertThat(job.findElement(By.cssSelector("a.presigned")).getDomAttribute("href"))
        .contains("X-Amz-Signature");
    String curl = job.findElement(By.cssSelector(".curl-post")).getDomProperty("textContent");
    assertThat(curl)
        .contains("curl -s -i -X POST '" + cloud.apiUri() + "/v1/derivatives'")
        .contains("\"width\":" + BOX)
        .contains("/v1/derivatives/" + job.getDomAttribute("data-job-id"));
    assertThat(page.findElements(By.cssSelector("#gallery li"))).hasSize(1);

    page.findElement(By.id("make")).click();
    WebElement again = awaitJob(page, 2);
    browser.screenshot("4-thumbnail-from-the-cache", again);
    assertThat(again.findElement(By.cssSelector(".outcome")).getDomAttribute("data-outcome"))
        .isEqualTo("cached");
    assertThat(again.findElement(By.cssSelector(".outcome")).getText()).contains("from the cache");
    assertThat(again.getDomAttribute("data-job-id")).isEqualTo(job.getDomAttribute("data-job-id"));
    assertThat(page.findElements(By.cssSelector("#gallery li"))).hasSize(2);
    assertNothingCameFromOutside(page);
  }

  @Test
  @Order(2)
  void aBrokenFileShowsItsErrorAsTheProblemSaysIt() throws Exception {
    WebDriver page = load();
    askForABox(page, 64);
    new Select(page.findElement(By.id("mediaType"))).selectByValue("image/webp");

    upload(page, "png/xhdn0g08.png"); // IHDR checksum wrong
    page.findElement(By.id("make")).click();
    WebElement job = awaitJob(page, 1);
    browser.screenshot("5-broken-file-failed", job);

    assertThat(job.getDomAttribute("data-state")).as(job.getText()).isEqualTo("FAILED");
    WebElement problem = job.findElement(By.cssSelector(".problem"));
    assertThat(problem.getDomAttribute("role")).isEqualTo("alert");
    assertThat(problem.getText())
        .contains("https://derive.dev/problems/corrupt-input")
        .contains("Step 1 failed");
    assertThat(job.findElements(By.cssSelector("img.result-image"))).isEmpty();

    // issue 30 item 14: asked again, the POST answers the job's failure; that job ran, and its
    // 64-character id stays inside the box that shows it
    page.findElement(By.id("make")).click();
    WebElement again = awaitJob(page, 2);
    browser.screenshot("5b-broken-file-asked-again", again);
    assertThat(again.findElement(By.cssSelector(".outcome")).getText())
        .contains("ran and failed")
        .doesNotContain("nothing ran");
    WebElement box = again.findElement(By.cssSelector(".problem"));
    Object overflow =
        ((JavascriptExecutor) page)
            .executeScript("return arguments[0].scrollWidth - arguments[0].clientWidth;", box);
    assertThat(((Number) overflow).intValue())
        .as("sideways overflow of the problem")
        .isLessThanOrEqualTo(0);
  }

  @Test
  @Order(3)
  void twoFilesAtOnceWithAnInvalidTargetEachShowTheProblemNamingItsPointer() throws Exception {
    WebDriver page = load();
    page.findElement(By.cssSelector("input[name=mode][value=target]")).click();
    type(page.findElement(By.id("option-width")), "0");
    page.findElement(By.id("file-input"))
        .sendKeys( // a multiple file input takes several paths, one a line
            samples.resolve("exif/Landscape_6.jpg").toRealPath()
                + "\n"
                + samples.resolve("exif/Portrait_5.jpg").toRealPath());
    new WebDriverWait(page, Duration.ofSeconds(30))
        .until(d -> d.findElements(By.cssSelector("#uploads li[data-state=uploaded]")).size() == 2);
    page.findElement(By.id("make")).click();
    for (int n = 1; n <= 2; n++) {
      WebElement job = awaitJob(page, n);
      browser.screenshot("6-invalid-request-" + n, job);
      assertThat(job.findElement(By.cssSelector(".problem")).getText())
          .contains("Invalid request (400)")
          .contains("/target/width")
          .contains("must be between 1 and 16384, got 0");
    }
    assertThat(page.findElements(By.cssSelector("#jobs .job h3")))
        .extracting(WebElement::getText)
        .anyMatch(title -> title.startsWith("Landscape_6.jpg"))
        .anyMatch(title -> title.startsWith("Portrait_5.jpg"));
  }

  @Test
  @Order(4)
  void atPhoneWidthNothingScrollsSidewaysAndTheKeyboardReachesEveryControl() throws Exception {
    WebDriver page = load();
    page.manage().window().setSize(new Dimension(390, 844));
    try {
      browser.screenshot("7-phone-width");
      assertThat(sidewaysOverflow(page)).as("sideways px, preset form").isLessThanOrEqualTo(0);
      page.findElement(By.cssSelector("input[name=mode][value=target]")).click();
      browser.screenshot("7-phone-width-target-form");
      assertThat(sidewaysOverflow(page)).as("sideways px, target form").isLessThanOrEqualTo(0);
      page.findElement(By.cssSelector("input[name=mode][value=preset]")).click();

      upload(page, "exif/Landscape_6.jpg");
      java.util.Set<String> reached = new java.util.HashSet<>();
      Actions keyboard = new Actions(page);
      ((JavascriptExecutor) page).executeScript("document.querySelector('a.skip').focus();");
      for (int i = 0; i < 40 && !reached.contains("make"); i++) {
        keyboard.sendKeys(Keys.TAB).perform(); // as a user's key, not typed into an element
        String id = page.switchTo().activeElement().getDomAttribute("id");
        if (id != null) {
          reached.add(id);
        }
      }
      assertThat(reached).contains("file-input", "preset", "make");
      keyboard.sendKeys(Keys.ENTER).perform(); // on the make button
      WebElement job = awaitJob(page, 1);
      assertThat(job.getDomAttribute("data-state")).as(job.getText()).isEqualTo("SHOWN");
      browser.screenshot("8-phone-width-keyboard-result", job);
    } finally {
      page.manage().window().setSize(new Dimension(1280, 1400));
    }
  }

  @Test
  @Order(5)
  void askingTwiceAtOnceJoinsTheRunningJob() throws Exception {
    WebDriver page = load();
    askForABox(page, 173);
    upload(page, "markdown-html/quick.html");

    // two submits within milliseconds; the second POST waits for the warm API instance or a new
    // one (0.5 s apart was seen on a loaded machine, long enough for a one-step image job to end),
    // while the chain markup -> pdf -> image (three workers, four SQS round trips) runs for
    // seconds: the second POST joins it
    new Actions(page).doubleClick(page.findElement(By.id("make"))).perform();
    WebElement first = awaitJob(page, 1);
    WebElement second = awaitJob(page, 2);
    browser.screenshot("9-second-request-joined", second);

    WebElement joined = "joined".equals(outcome(first)) ? first : second;
    assertThat(List.of(outcome(first), outcome(second)))
        .as("which request reached the API first is the network's choice")
        .containsExactlyInAnyOrder("started", "joined");
    assertThat(joined.findElement(By.cssSelector(".outcome")).getText())
        .contains("Joined a running job");
    assertThat(first.getDomAttribute("data-state")).isEqualTo("SHOWN");
    assertThat(second.getDomAttribute("data-job-id"))
        .isEqualTo(first.getDomAttribute("data-job-id"));
    assertThat(second.getDomAttribute("data-state")).isEqualTo("SHOWN");
    assertThat(first.findElements(By.cssSelector("tr.step")))
        .extracting(row -> row.findElements(By.tagName("td")).get(1).getText())
        .containsExactly("markup", "pdf", "image");
  }

  /** Opens the console at the API's root and waits until its form is made from the API. */
  private static WebDriver load() {
    WebDriver page = browser.driver();
    page.get(cloud.apiUri() + "/");
    waitFor(page, By.cssSelector("form#target[data-ready=true]"), Duration.ofSeconds(30));
    return page;
  }

  @Test
  @Order(6)
  void aDocumentsTextAndAPdfsPageAreShownFromTheirPresets() throws Exception {
    WebDriver page = load();
    // issue 30 item 14: a target of text/plain shows no width or height (the form kept 256 x 256,
    // and the request was a 400), and its text is saved as a .txt
    page.findElement(By.cssSelector("input[name=mode][value=target]")).click();
    new Select(page.findElement(By.id("mediaType"))).selectByValue("text/plain");
    assertThat(page.findElement(By.id("option-width")).isDisplayed()).isFalse();
    assertThat(page.findElement(By.id("option-height")).isDisplayed()).isFalse();
    upload(page, "documents/quick.docx");
    page.findElement(By.id("make")).click();
    WebElement plain = awaitJob(page, 1);
    browser.screenshot("9b-text-as-a-target", plain);
    assertThat(plain.getDomAttribute("data-state")).as(plain.getText()).isEqualTo("SHOWN");
    assertThat(plain.findElement(By.cssSelector("a.download")).getDomAttribute("download"))
        .isEqualTo("quick.derived.txt");

    page = load();
    new Select(page.findElement(By.id("preset"))).selectByValue("text");
    upload(page, "documents/quick.docx");
    page.findElement(By.id("make")).click();
    WebElement text = awaitJob(page, 1);
    browser.screenshot("10-text-of-a-document", text);
    assertThat(text.getDomAttribute("data-state")).as(text.getText()).isEqualTo("SHOWN");
    assertThat(text.findElement(By.cssSelector("pre.result-text")).getText())
        .contains("quick brown fox");

    load();
    new Select(page.findElement(By.id("preset"))).selectByValue("page-1");
    upload(page, "pdf/testOCR.pdf");
    page.findElement(By.id("make")).click();
    WebElement pdfPage = awaitJob(page, 1);
    browser.screenshot("11-first-page-of-a-pdf", pdfPage);
    assertThat(pdfPage.getDomAttribute("data-state")).as(pdfPage.getText()).isEqualTo("SHOWN");
    assertThat(pdfPage.findElement(By.cssSelector(".result-caption")).getText())
        .contains("image/png")
        .containsPattern("\\d+×\\d+ px");
    assertThat(pdfPage.findElements(By.cssSelector("tr.step")))
        .extracting(row -> row.findElements(By.tagName("td")).get(1).getText())
        .containsExactly("pdf");
  }

  private static String outcome(WebElement job) {
    return job.findElement(By.cssSelector(".outcome")).getDomAttribute("data-outcome");
  }

  /** Chooses "a target" and a {@code side} x {@code side} px box (of the default JPEG). */
  private static void askForABox(WebDriver page, int side) {
    page.findElement(By.cssSelector("input[name=mode][value=target]")).click();
    type(page.findElement(By.id("option-width")), String.valueOf(side));
    type(page.findElement(By.id("option-height")), String.valueOf(side));
  }

  /** Picks the sample {@code name} in the file input and waits until it is uploaded. */
  private static void upload(WebDriver page, String name) throws java.io.IOException {
    page.findElement(By.id("file-input")).sendKeys(samples.resolve(name).toRealPath().toString());
    waitFor(page, By.cssSelector("#uploads li[data-state=uploaded]"), Duration.ofSeconds(30));
  }

  /** The {@code n}th job card once its job has ended and its result (or error) is shown. */
  private static WebElement awaitJob(WebDriver page, int n) {
    return waitFor(
        page,
        By.cssSelector("#job-" + n + "[data-state=SHOWN], #job-" + n + "[data-state=FAILED]"),
        JOB_TIMEOUT);
  }

  private static WebElement waitFor(WebDriver page, By locator, Duration timeout) {
    try {
      return new WebDriverWait(page, timeout).until(d -> d.findElement(locator));
    } catch (org.openqa.selenium.TimeoutException e) {
      browser.screenshot("timed-out");
      throw new AssertionError(
          "waited "
              + timeout.toSeconds()
              + " s for "
              + locator
              + "; the page says: "
              + page.findElement(By.tagName("main")).getText(),
          e);
    }
  }

  /** How far the page is wider than the window, in CSS pixels (0 or less: nothing sideways). */
  private static int sidewaysOverflow(WebDriver page) {
    Object overflow =
        ((JavascriptExecutor) page)
            .executeScript(
                "return document.documentElement.scrollWidth"
                    + " - document.documentElement.clientWidth;");
    return ((Number) overflow).intValue();
  }

  private static void type(WebElement input, String text) {
    input.clear();
    input.sendKeys(text);
  }

  /** Every resource the page loaded came from the loopback address: nothing from the internet. */
  private static void assertNothingCameFromOutside(WebDriver page) {
    @SuppressWarnings("unchecked")
    List<String> urls =
        (List<String>)
            ((JavascriptExecutor) page)
                .executeScript(
                    "return performance.getEntriesByType('resource').map(e => e.name)"
                        + ".concat([location.href]);");
    assertThat(urls)
        .isNotEmpty()
        .allMatch(u -> u.startsWith("http://127.0.0.1:") || u.startsWith("blob:"));
  }
}
