package dev.derive.protocol.capability;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * What one capability (one worker function) declares about itself, as data its worker module owns
 * ({@link CapabilityDeclarations} reads it): the conversions it performs, the operations it offers,
 * its limits and time budget, and what it adds to the API (image URL formats, presets). The
 * coordinator (planner, validator, {@code GET /v1/capabilities}, schema, image URLs) and the worker
 * runtime read the same declaration.
 *
 * @param name capability name, e.g. {@code image}: lower-case letters, digits and {@code -}
 * @param description one line for {@code GET /v1/capabilities}
 * @param queueUrlVariable name of the environment variable (defined in {@code template.yaml}'s
 *     Globals) that holds the URL of this capability's SQS queue: {@code <NAME>_QUEUE_URL}; the
 *     coordinator dispatches to the capability only where it is set
 * @param conversions source and target media types it supports
 * @param operations operations it offers, in the order a fused step applies them (each conversion
 *     lists its operations in this order)
 * @param timeBudget how long one delivery of its step may run and how long a dispatched step is
 *     leased
 * @param limits named limits its parameters are bounded by (e.g. {@code maxDimension}), shown by
 *     {@code GET /v1/capabilities}
 * @param formats short names of media types it writes, for an image URL's {@code f:} option
 * @param imageUrls what an image URL makes when it names no format, and what {@code f:auto} may
 *     pick, or {@code null} when this capability does not serve image URLs
 * @param presets presets it contributes to the built-in ones (a presets document: name to {@code
 *     description} and {@code target} or {@code steps}), empty for none
 */
public record CapabilityDescriptor(
    String name,
    String description,
    String queueUrlVariable,
    List<Conversion> conversions,
    List<OperationDescriptor> operations,
    TimeBudget timeBudget,
    Map<String, Integer> limits,
    List<Format> formats,
    ImageUrlFormats imageUrls,
    ObjectNode presets) {
  /** What a capability name may be. */
  public static final String NAME_PATTERN = "[a-z][a-z0-9-]{0,31}";

  public CapabilityDescriptor {
    conversions = List.copyOf(conversions);
    operations = List.copyOf(operations);
    limits = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(limits));
    formats = List.copyOf(formats);
    if (!name.matches(NAME_PATTERN)) {
      throw new IllegalArgumentException("a capability name must match " + NAME_PATTERN);
    }
    List<String> order = operations.stream().map(OperationDescriptor::name).toList();
    if (order.stream().distinct().count() < order.size()) {
      throw new IllegalArgumentException("capability " + name + " declares an operation twice");
    }
    for (Conversion conversion : conversions) {
      int at = -1;
      for (String operation : conversion.operations()) {
        int index = order.indexOf(operation);
        if (index < 0) {
          throw new IllegalArgumentException(
              "capability " + name + " converts with undeclared operation " + operation);
        }
        if (index <= at) {
          throw new IllegalArgumentException(
              "capability "
                  + name
                  + " lists the operations of its conversion "
                  + conversion.source()
                  + " -> "
                  + conversion.target()
                  + " out of their declared order "
                  + order);
        }
        at = index;
      }
    }
    List<String> writes = conversions.stream().map(Conversion::target).distinct().toList();
    for (Format format : formats) {
      if (!writes.contains(format.mediaType())) {
        throw new IllegalArgumentException(
            "capability "
                + name
                + " names the format "
                + format.mediaType()
                + " it does not write");
      }
    }
    if (imageUrls != null) {
      for (String type : imageUrls.mediaTypes()) {
        if (!writes.contains(type)) {
          throw new IllegalArgumentException(
              "capability " + name + "'s image URLs make " + type + ", which it does not write");
        }
      }
    }
  }

  /** The queue URL variable of the capability called {@code name}: {@code <NAME>_QUEUE_URL}. */
  public static String queueUrlVariableOf(String name) {
    return name.toUpperCase(Locale.ROOT).replace('-', '_') + "_QUEUE_URL";
  }

  /** The media types this capability reads, in declaration order. */
  public List<String> reads() {
    return conversions.stream().map(Conversion::source).distinct().toList();
  }

  /** The media types this capability writes, in declaration order. */
  public List<String> writes() {
    return conversions.stream().map(Conversion::target).distinct().toList();
  }

  /** Returns the operation called {@code name}, if this capability offers it. */
  public Optional<OperationDescriptor> operation(String name) {
    return operations.stream().filter(o -> o.name().equals(name)).findFirst();
  }

  /** Returns whether this capability converts {@code source} to {@code target}. */
  public boolean converts(String source, String target) {
    return conversions.stream()
        .anyMatch(c -> c.source().equals(source) && c.target().equals(target));
  }

  /**
   * How long one delivery of a step may run and how long a dispatched step is leased, in seconds.
   *
   * @param timeoutSeconds the worker function's {@code Timeout} in {@code template.yaml}: a RUNNING
   *     step past it reads overdue
   * @param leaseSeconds the lease of a queued step: its queue's visibility timeout × its
   *     maxReceiveCount plus a margin for the result, so a queued step is never reclaimed while its
   *     message may still be delivered (docs/job-lifecycle.md)
   */
  public record TimeBudget(int timeoutSeconds, int leaseSeconds) {
    public TimeBudget {
      if (timeoutSeconds < 1 || timeoutSeconds > 900) {
        throw new IllegalArgumentException(
            "timeoutSeconds must be 1..900 (Lambda's largest timeout), not " + timeoutSeconds);
      }
      if (leaseSeconds <= timeoutSeconds) {
        throw new IllegalArgumentException(
            "leaseSeconds must be over timeoutSeconds, not " + leaseSeconds);
      }
    }
  }

  /**
   * The names an image URL's {@code f:} option gives a media type.
   *
   * @param mediaType a media type the capability writes
   * @param names its names, e.g. {@code jpg} and {@code jpeg}
   */
  public record Format(String mediaType, List<String> names) {
    public Format {
      names = List.copyOf(names);
      if (names.isEmpty()) {
        throw new IllegalArgumentException("the format " + mediaType + " has no name");
      }
    }
  }

  /**
   * The media types image URLs make.
   *
   * @param defaultFormat what a URL without {@code f:} makes (unless its preset names one), and
   *     what {@code f:auto} makes when the client accepts none of {@code autoFormats}
   * @param autoFormats what {@code f:auto} picks, best first, when the {@code Accept} header names
   *     it
   * @param placeholder the derivative of a source an image URL's placeholder is drawn from, or
   *     {@code null} for none
   */
  public record ImageUrlFormats(
      String defaultFormat, List<String> autoFormats, Placeholder placeholder) {
    public ImageUrlFormats {
      autoFormats = List.copyOf(autoFormats);
    }

    public ImageUrlFormats(String defaultFormat, List<String> autoFormats) {
      this(defaultFormat, autoFormats, null);
    }

    /** Every media type named. */
    public List<String> mediaTypes() {
      List<String> all = new java.util.ArrayList<>(autoFormats);
      all.add(defaultFormat);
      if (placeholder != null) {
        all.add(placeholder.mediaType());
      }
      return all;
    }
  }

  /**
   * Where the placeholder of an image URL still being made comes from (docs/image-urls.md): the
   * source's derivative of media type {@code mediaType} (no other option), a JSON document whose
   * member at {@code thumbHash} holds the source's ThumbHash in base64.
   *
   * @param mediaType the target media type of that derivative, which the capability writes
   * @param thumbHash a JSON pointer (RFC 6901) into it
   */
  public record Placeholder(String mediaType, String thumbHash) {}
}
