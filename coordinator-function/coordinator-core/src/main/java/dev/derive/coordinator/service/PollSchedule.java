package dev.derive.coordinator.service;

import java.time.Duration;

/**
 * When a waiting request reads its job's record again: the first read at once, the next after
 * {@code first}, each wait then {@code growth} times the one before, up to {@code denseCap} while
 * the request has waited less than {@code denseFor}, and up to {@code cap} after that. Before the
 * job's expected end, if one is known ({@link RecentWaits}), the waits are up to {@code ahead}
 * long, and the dense reads start {@code denseCap} before it.
 *
 * <p>Most jobs a request waits for end within a second or two (a thumbnail, a page preview), so the
 * first seconds are read densely: the end is seen a few milliseconds after it is recorded. A long
 * wait then costs no more reads per second than polling at {@code cap}.
 *
 * @param first the wait before the second read
 * @param growth each wait is this many times the one before (at least 1)
 * @param denseCap the longest wait while the request has waited less than {@code denseFor}
 * @param denseFor how long the request reads densely
 * @param cap the longest wait after that
 * @param ahead the longest wait before an expected end (at least {@code denseCap}): a job that ends
 *     before it was expected to is seen at most this late
 */
public record PollSchedule(
    Duration first,
    double growth,
    Duration denseCap,
    Duration denseFor,
    Duration cap,
    Duration ahead) {

  /**
   * A waiting {@code POST /v1/derivatives} or image URL: 10 ms growing by half up to 20 ms for the
   * first 2 s, then up to 50 ms; before an expected end, waits of up to 100 ms. A read of the
   * record is a strongly consistent GetItem of the job (1 read request unit up to 4 KB, so a
   * finished job is never missed by a stale replica); around an expected end most reads are a HEAD
   * of the derivative instead ({@link #readsDerivative}). Read densely, the first 2 s are about 100
   * reads ($0.0000125 at on-demand's $0.125 per million RRU, about 40 % of what those 2 s of a 1024
   * MB API function cost), 20 a second after that ($2.5 per million waiting seconds, about 15 %); a
   * wait for a plan this instance has seen end (a 200 ms thumbnail: ~6 reads instead of ~13; a 2 s
   * preview chain ~25 instead of ~100) reads mostly at 100 ms. Many requests waiting on one job
   * share its item's partition (3,000 strongly consistent reads per second): about 60 dense
   * waiters, 150 at the cap.
   */
  public static final PollSchedule WAITING_REQUEST =
      new PollSchedule(
          Duration.ofMillis(10),
          1.5,
          Duration.ofMillis(20),
          Duration.ofSeconds(2),
          Duration.ofMillis(50),
          Duration.ofMillis(100));

  /**
   * @throws IllegalArgumentException if a duration is negative, {@code growth} is below 1 or the
   *     caps are out of order
   */
  public PollSchedule {
    if (first.isNegative()
        || denseCap.compareTo(first) < 0
        || cap.compareTo(denseCap) < 0
        || ahead.compareTo(denseCap) < 0
        || denseFor.isNegative()
        || growth < 1) {
      throw new IllegalArgumentException(
          "poll schedule needs 0 <= first <= denseCap <= cap, denseCap <= ahead and growth >= 1");
    }
  }

  /**
   * The wait after {@code previous} (zero for the first) once the request has waited {@code
   * waited}.
   */
  public Duration next(Duration previous, Duration waited) {
    if (previous.isZero()) {
      return first;
    }
    Duration limit = waited.compareTo(denseFor) < 0 ? denseCap : cap;
    long grown = (long) (previous.toNanos() * growth);
    return Duration.ofNanos(Math.min(grown, limit.toNanos()));
  }

  /**
   * Whether the read at {@code waited} looks for the derivative itself (one HEAD of {@code
   * derivatives/<id>}) rather than the job's record: from {@link #denseCap} before the expected end
   * ({@code expectedEnd}, as in {@link #next(Duration, Duration, Duration)}; {@code null}: unknown,
   * never) until twice it, while the record was last read less than {@link #ahead} ago. The
   * derivative lands when the last step's worker has written it, before its result is carried to
   * the record (a queue hop, the progress function and its write: ~50 ms on the local cloud); the
   * record still tells a failure, at most {@code ahead} late. A HEAD costs about three strongly
   * consistent reads ($0.40 against $0.125 per million), hence only in that window.
   *
   * @param sinceRecord how long ago the record was last read
   */
  public boolean readsDerivative(Duration waited, Duration sinceRecord, Duration expectedEnd) {
    return expectedEnd != null
        && waited.compareTo(expectedEnd.minus(denseCap)) >= 0
        && waited.compareTo(expectedEnd.multipliedBy(2)) < 0
        && sinceRecord.compareTo(ahead) < 0;
  }

  /**
   * The wait after {@code previous} once the request has waited {@code waited}, for a job expected
   * to end no earlier than {@code expectedEnd} after the wait began ({@code null}: unknown, so as
   * {@link #next(Duration, Duration)}): waits of up to {@link #ahead} until {@link #denseCap}
   * before that end, then as {@link #next(Duration, Duration)} counted from there.
   */
  public Duration next(Duration previous, Duration waited, Duration expectedEnd) {
    if (expectedEnd == null) {
      return next(previous, waited);
    }
    Duration denseFrom = expectedEnd.minus(denseCap);
    Duration untilDense = denseFrom.minus(waited);
    if (untilDense.compareTo(first) > 0) {
      return untilDense.compareTo(ahead) < 0 ? untilDense : ahead;
    }
    Duration dense = waited.compareTo(denseFrom) > 0 ? waited.minus(denseFrom) : Duration.ZERO;
    // After the waits ahead of it, the dense reads start again from the first.
    return next(previous.compareTo(denseCap) > 0 ? Duration.ZERO : previous, dense);
  }
}
