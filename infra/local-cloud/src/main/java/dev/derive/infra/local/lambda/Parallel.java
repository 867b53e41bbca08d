package dev.derive.infra.local.lambda;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * Starting functions in parallel (a virtual thread each), failing once with every failure named
 * rather than at the first: extracting their code and warming their first instances.
 */
public final class Parallel {
  private Parallel() {}

  /**
   * Runs {@code action} on every item at once and waits for all.
   *
   * @throws FunctionStartException naming every failure's message, if any failed
   */
  public static <T> void runAll(Collection<T> items, Consumer<T> action) {
    Map<T, Supplier<Void>> tasks = new LinkedHashMap<>();
    for (T item : items) {
      tasks.put(
          item,
          () -> {
            action.accept(item);
            return null;
          });
    }
    supplyAll(tasks);
  }

  /**
   * Computes every value at once and waits for all.
   *
   * @return the values by the same keys, in the same order
   * @throws FunctionStartException naming every failure's message, if any failed
   */
  public static <K, V> Map<K, V> supplyAll(Map<K, Supplier<V>> tasks) {
    Map<K, CompletableFuture<V>> running = new LinkedHashMap<>();
    tasks.forEach(
        (key, task) ->
            running.put(key, CompletableFuture.supplyAsync(task, Thread.ofVirtual()::start)));
    Map<K, V> values = new LinkedHashMap<>();
    List<String> failures = new ArrayList<>();
    running.forEach(
        (key, future) -> {
          try {
            values.put(key, future.join());
          } catch (CompletionException e) {
            failures.add(e.getCause().getMessage());
          }
        });
    if (!failures.isEmpty()) {
      throw new FunctionStartException(String.join("; ", failures));
    }
    return values;
  }
}
