package dev.derive.worker.image;

import dev.derive.protocol.message.StepErrorTypes;
import dev.derive.worker.runtime.PermanentStepFailure;
import java.util.Locale;

/**
 * How much memory one image step may take, from the function's memory size ({@code MemorySize} in
 * {@code template.yaml}, which Lambda passes as {@code AWS_LAMBDA_FUNCTION_MEMORY_SIZE}) and the
 * heap the JVM was given (on Lambda and locally {@value #HEAP_SHARE_PERCENT}% of it). A step whose
 * estimate ({@link MemoryEstimate}, from the header) does not fit is refused as {@code
 * input-too-large} before decoding, instead of filling the heap until the step times out or the
 * process is killed.
 *
 * @param heapBytes what the heap can give the step's images: its maximum less {@link
 *     #RESERVED_HEAP_BYTES}
 * @param totalBytes what heap and native memory together can give them: the memory size less {@link
 *     #RESERVED_PROCESS_BYTES}; {@link Long#MAX_VALUE} when the memory size is unknown
 * @param memorySizeMb the memory size the budget comes from, in MB; 0 when unknown
 */
record MemoryBudget(long heapBytes, long totalBytes, int memorySizeMb) {
  /** Share of the memory size Lambda's and the local cloud's JVMs give the heap. */
  static final int HEAP_SHARE_PERCENT = 85;

  /**
   * Heap the worker itself keeps using while a step runs (SDK clients, S3 transfer buffers, the
   * step's bookkeeping, Quarkus): 64 MiB.
   */
  static final long RESERVED_HEAP_BYTES = 64L << 20;

  /**
   * Resident memory of the image worker apart from the images: JVM, code cache, metaspace, thread
   * stacks, the mapped 19 MB libvips and the heap in use between steps. 256 MiB: the image worker's
   * peak RSS measured by {@code ./derive bench} ({@code rss_image_worker}) was 257 MB, images
   * included.
   */
  static final long RESERVED_PROCESS_BYTES = 256L << 20;

  /**
   * The budget of a function of {@code memorySizeMb} MB (0 when unknown: only the heap limits)
   * whose JVM's maximum heap is {@code maxHeapBytes}.
   */
  static MemoryBudget of(int memorySizeMb, long maxHeapBytes) {
    long heap = Math.max(0, maxHeapBytes - RESERVED_HEAP_BYTES);
    long total =
        memorySizeMb > 0
            ? Math.max(0, ((long) memorySizeMb << 20) - RESERVED_PROCESS_BYTES)
            : Long.MAX_VALUE;
    return new MemoryBudget(heap, total, Math.max(0, memorySizeMb));
  }

  /** The budget of this process with a memory size of {@code memorySizeMb} MB (0: unknown). */
  static MemoryBudget forThisProcess(int memorySizeMb) {
    return of(memorySizeMb, Runtime.getRuntime().maxMemory());
  }

  /**
   * Refuses a step that needs more than the budget.
   *
   * @param need the step's estimate
   * @param work what the step would do, for the error, e.g. "decoding the 10000x10000 PNG (8 bytes
   *     per pixel) and resizing it to 9999x9999"
   * @throws PermanentStepFailure {@code input-too-large} if the heap part or the whole does not fit
   */
  void check(MemoryEstimate need, String work) {
    boolean heapFits = need.heapBytes() <= heapBytes;
    boolean totalFits = need.totalBytes() <= totalBytes;
    if (heapFits && totalFits) {
      return;
    }
    String has =
        (heapFits ? mebibytes(totalBytes) : mebibytes(heapBytes) + " of Java heap")
            + " this image worker has for one image"
            + (memorySizeMb > 0 ? " (memory size " + memorySizeMb + " MB)" : "");
    throw new PermanentStepFailure(
        StepErrorTypes.INPUT_TOO_LARGE,
        work
            + " needs about "
            + mebibytes(heapFits ? need.totalBytes() : need.heapBytes())
            + " of memory, more than the "
            + has
            + ": ask for a smaller size or a smaller region, or use a smaller source");
  }

  private static String mebibytes(long bytes) {
    return bytes >= 10L << 30
        ? String.format(Locale.ROOT, "%.0f GB", bytes / (double) (1L << 30))
        : bytes >= 1L << 30
            ? String.format(Locale.ROOT, "%.1f GB", bytes / (double) (1L << 30))
            : String.format(Locale.ROOT, "%d MB", bytes >> 20);
  }
}
