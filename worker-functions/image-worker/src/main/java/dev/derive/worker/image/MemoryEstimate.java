package dev.derive.worker.image;

/**
 * Memory a part of an image step needs at its peak, estimated from the image's header before any
 * pixel is decoded.
 *
 * @param heapBytes bytes on the Java heap (decoded {@code BufferedImage}s, sample arrays)
 * @param nativeBytes bytes off the heap (libvips' and its decoders' buffers)
 */
record MemoryEstimate(long heapBytes, long nativeBytes) {
  /** Nothing. */
  static final MemoryEstimate NONE = new MemoryEstimate(0, 0);

  /** On the heap only. */
  static MemoryEstimate heap(double bytes) {
    return new MemoryEstimate(Math.round(bytes), 0);
  }

  /** Both estimates held at once. */
  MemoryEstimate plus(MemoryEstimate other) {
    return new MemoryEstimate(heapBytes + other.heapBytes, nativeBytes + other.nativeBytes);
  }

  /** Heap and native bytes together. */
  long totalBytes() {
    return heapBytes + nativeBytes;
  }
}
