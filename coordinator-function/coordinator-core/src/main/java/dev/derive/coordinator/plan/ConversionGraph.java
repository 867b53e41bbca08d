package dev.derive.coordinator.plan;

import dev.derive.protocol.capability.CapabilityDescriptor;
import dev.derive.protocol.capability.Conversion;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * The conversion graph of the deployed capabilities: nodes are media types, edges the conversions
 * each capability declares. Answers which chains lead from one type to another and what a type can
 * reach; it knows nothing of options or object keys.
 */
final class ConversionGraph {
  /** Longest chain searched, in steps. */
  static final int MAX_CHAIN = 4;

  private final List<CapabilityDescriptor> capabilities;

  /**
   * @param capabilities the capabilities deployed, in declaration order (ties go to the first)
   */
  ConversionGraph(List<CapabilityDescriptor> capabilities) {
    this.capabilities = List.copyOf(capabilities);
  }

  /** The capabilities deployed, in declaration order. */
  List<CapabilityDescriptor> capabilities() {
    return capabilities;
  }

  /** The deployed capability named {@code name}, if any. */
  Optional<CapabilityDescriptor> capability(String name) {
    return capabilities.stream().filter(c -> c.name().equals(name)).findFirst();
  }

  /**
   * Every chain from {@code source} to {@code target} of at most {@link #MAX_CHAIN} steps, in
   * depth-first declaration order. A chain never uses one capability twice in a row (that would be
   * one step) and never visits a media type twice.
   */
  List<List<Edge>> chains(String source, String target) {
    List<List<Edge>> found = new ArrayList<>();
    Set<String> visited = new HashSet<>(List.of(source));
    search(source, target, new ArrayList<>(), visited, found);
    return found;
  }

  /** Every media type some chain reaches from {@code source}, sorted. */
  Set<String> reachable(String source) {
    Set<String> seen = new TreeSet<>();
    Deque<String> queue = new ArrayDeque<>(List.of(source));
    Set<String> visited = new HashSet<>(List.of(source));
    while (!queue.isEmpty()) {
      String type = queue.poll();
      for (CapabilityDescriptor capability : capabilities) {
        for (Conversion conversion : capability.conversions()) {
          if (conversion.source().equals(type)) {
            seen.add(conversion.target());
            if (visited.add(conversion.target())) {
              queue.add(conversion.target());
            }
          }
        }
      }
    }
    return seen;
  }

  /** Whether a capability other than {@code writer} has a conversion reading {@code mediaType}. */
  boolean readByOtherThan(String writer, String mediaType) {
    return capabilities.stream()
        .filter(c -> !c.name().equals(writer))
        .flatMap(c -> c.conversions().stream())
        .anyMatch(c -> c.source().equals(mediaType));
  }

  private void search(
      String at, String target, List<Edge> path, Set<String> visited, List<List<Edge>> found) {
    if (path.size() == MAX_CHAIN) {
      return;
    }
    String previous = path.isEmpty() ? null : path.get(path.size() - 1).capability().name();
    for (CapabilityDescriptor capability : capabilities) {
      if (capability.name().equals(previous)) {
        continue;
      }
      for (Conversion conversion : capability.conversions()) {
        if (!conversion.source().equals(at)) {
          continue;
        }
        path.add(new Edge(capability, conversion));
        if (conversion.target().equals(target)) {
          found.add(List.copyOf(path)); // and search on: another capability may take an option
        }
        if (visited.add(conversion.target())) {
          search(conversion.target(), target, path, visited, found);
          visited.remove(conversion.target());
        }
        path.remove(path.size() - 1);
      }
    }
  }

  /** One conversion of one capability: an edge of the conversion graph. */
  record Edge(CapabilityDescriptor capability, Conversion conversion) {}
}
