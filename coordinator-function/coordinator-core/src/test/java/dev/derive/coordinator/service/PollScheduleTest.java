package dev.derive.coordinator.service;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class PollScheduleTest {
  private static final PollSchedule SCHEDULE = PollSchedule.WAITING_REQUEST;

  /** The waits of a request that polls for {@code total}, each read taking no time. */
  private static List<Long> waitsMillis(Duration total) {
    return waitsMillis(total, null);
  }

  /** The same, for a job expected to end {@code expectedEnd} after the wait began (or null). */
  private static List<Long> waitsMillis(Duration total, Duration expectedEnd) {
    List<Long> waits = new ArrayList<>();
    Duration waited = Duration.ZERO;
    Duration interval = Duration.ZERO;
    while (waited.compareTo(total) < 0) {
      interval = SCHEDULE.next(interval, waited, expectedEnd);
      waits.add(interval.toMillis());
      waited = waited.plus(interval);
    }
    return waits;
  }

  @Test
  void readsDenselyForTwoSecondsThenGrowsToTheCap() {
    List<Long> waits = waitsMillis(Duration.ofSeconds(5));
    assertEquals(List.of(10L, 15L, 20L, 20L), waits.subList(0, 4));
    // Within the first 2 s no wait is over 20 ms: a job's end is seen within 20 ms plus one read.
    long waited = 0;
    int index = 0;
    for (; waited < 2000; index++) {
      assertEquals(true, waits.get(index) <= 20, "wait " + index + " at " + waited + " ms");
      waited += waits.get(index);
    }
    assertEquals(List.of(30L, 45L, 50L, 50L), waits.subList(index, index + 4));
  }

  @Test
  void readsAboutAHundredTimesInTheFirstTwoSecondsAndTwentyASecondAfter() {
    int dense = waitsMillis(Duration.ofSeconds(2)).size();
    int longWait = waitsMillis(Duration.ofSeconds(12)).size();
    assertEquals(true, dense >= 95 && dense <= 102, dense + " reads in 2 s");
    assertEquals(true, longWait - dense >= 195 && longWait - dense <= 205, longWait + " reads");
  }

  @Test
  void beforeAnExpectedEndReadsEveryHundredMillisecondsThenDenselyFromTwentyBeforeIt() {
    List<Long> waits = waitsMillis(Duration.ofMillis(400), Duration.ofMillis(300));
    // 0, 100, 200, then 280 (20 ms before the expected end), then 10 ms growing to 20 ms
    assertEquals(List.of(100L, 100L, 80L, 10L, 15L, 20L, 20L), waits.subList(0, 7));
  }

  @Test
  void anExpectedEndNearTheStartChangesNothing() {
    assertEquals(
        waitsMillis(Duration.ofSeconds(1)),
        waitsMillis(Duration.ofSeconds(1), Duration.ofMillis(25)));
  }

  @Test
  void aLongJobIsReadDenselyForTwoSecondsFromItsExpectedEndNotFromTheStart() {
    List<Long> waits = waitsMillis(Duration.ofSeconds(6), Duration.ofSeconds(3));
    long waited = 0;
    int index = 0;
    for (; waited < 2980; index++) {
      long wait = waits.get(index);
      assertEquals(true, wait >= 80 && wait <= 100, "wait " + index + ": " + wait + " ms");
      waited += wait;
    }
    assertEquals(2980L, waited, "the sparse waits end 20 ms before the expected end");
    for (; waited < 2980 + 2000; index++) {
      assertEquals(true, waits.get(index) <= 20, "wait " + index + " at " + waited + " ms");
      waited += waits.get(index);
    }
  }

  @Test
  void aThumbnailSeenBeforeIsReadAboutHalfAsOftenAndAPreviewChainAQuarter() {
    int thumbnail = waitsMillis(Duration.ofMillis(200)).size();
    int expectedThumbnail = waitsMillis(Duration.ofMillis(200), Duration.ofMillis(200)).size();
    int chain = waitsMillis(Duration.ofSeconds(2)).size();
    int expectedChain = waitsMillis(Duration.ofSeconds(2), Duration.ofSeconds(2)).size();
    assertEquals(
        true, expectedThumbnail * 2 <= thumbnail + 1, expectedThumbnail + " vs " + thumbnail);
    assertEquals(true, expectedChain * 4 <= chain, expectedChain + " vs " + chain);
  }

  @Test
  void theDerivativeIsWatchedAroundAnExpectedEndWhileTheRecordWasReadWithinAHundredMilliseconds() {
    Duration expected = Duration.ofMillis(200);
    Duration justRead = Duration.ofMillis(30);
    assertEquals(false, SCHEDULE.readsDerivative(Duration.ofMillis(170), justRead, expected));
    assertEquals(true, SCHEDULE.readsDerivative(Duration.ofMillis(180), justRead, expected));
    assertEquals(true, SCHEDULE.readsDerivative(Duration.ofMillis(399), justRead, expected));
    assertEquals(false, SCHEDULE.readsDerivative(Duration.ofMillis(400), justRead, expected));
    assertEquals(
        false,
        SCHEDULE.readsDerivative(Duration.ofMillis(250), Duration.ofMillis(100), expected),
        "the record is read again every 100 ms, so a failure is seen");
    assertEquals(false, SCHEDULE.readsDerivative(Duration.ofMillis(250), justRead, null));
  }

  @Test
  void refusesCapsOutOfOrder() {
    Duration ms10 = Duration.ofMillis(10);
    Duration ms5 = Duration.ofMillis(5);
    assertThrows(
        IllegalArgumentException.class, () -> new PollSchedule(ms10, 1.5, ms5, ms10, ms10, ms10));
    assertThrows(
        IllegalArgumentException.class, () -> new PollSchedule(ms5, 1.5, ms10, ms10, ms5, ms10));
    assertThrows(
        IllegalArgumentException.class, () -> new PollSchedule(ms5, 0.5, ms10, ms10, ms10, ms10));
    assertThrows(
        IllegalArgumentException.class, () -> new PollSchedule(ms5, 1.5, ms10, ms10, ms10, ms5));
  }
}
