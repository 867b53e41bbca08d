package dev.derive.coordinator.memory;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A thread-safe map of at most {@code capacity} entries that drops the least recently used one when
 * full: the bounded memories an instance keeps between requests (source identities, recent hits).
 *
 * @param <K> key type
 * @param <V> value type
 */
public final class LeastRecentlyUsed<K, V> {
  private final Map<K, V> entries;

  /**
   * @param capacity entries kept at most
   */
  public LeastRecentlyUsed(int capacity) {
    this.entries =
        new LinkedHashMap<>(256, 0.75f, true) {
          @Override
          protected boolean removeEldestEntry(Map.Entry<K, V> eldest) {
            return size() > capacity;
          }
        };
  }

  /** The value of {@code key}, marking it used; {@code null} when absent. */
  public synchronized V get(K key) {
    return entries.get(key);
  }

  /** Sets the value of {@code key}, dropping the least recently used entry when full. */
  public synchronized void put(K key, V value) {
    entries.put(key, value);
  }
}
