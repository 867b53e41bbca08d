package dev.derive.faults;

import dev.derive.protocol.message.MessageCodec;
import dev.derive.protocol.message.StepMessage;
import dev.derive.worker.runtime.DeclaredStep;
import dev.derive.worker.runtime.StepTransformer;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A stand-in transformation for a capability: its output is a pure function of its input and its
 * operations (so a clean run's bytes are known), and it counts how often each output was made (the
 * executions per step).
 */
final class FakeCapability implements StepTransformer {
  private final String capability;
  private final Map<String, AtomicInteger> executions;

  FakeCapability(String capability, Map<String, AtomicInteger> executions) {
    this.capability = capability;
    this.executions = executions;
  }

  @Override
  public void transform(DeclaredStep declared, Path input, Path output) throws IOException {
    StepMessage step = declared.message();
    executions.computeIfAbsent(step.output().key(), k -> new AtomicInteger()).incrementAndGet();
    Files.write(
        output,
        apply(capability, MessageCodec.encode(step.operations()), Files.readAllBytes(input)));
  }

  /**
   * The bytes a step of {@code capability} with {@code operations} (as JSON) makes of {@code
   * input}.
   */
  static byte[] apply(String capability, String operations, byte[] input) {
    try {
      byte[] digest = MessageDigest.getInstance("SHA-256").digest(input);
      return (capability + ":" + operations + ":" + HexFormat.of().formatHex(digest))
          .getBytes(StandardCharsets.UTF_8);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  @Override
  public void probe(Path scratch) {}

  /** How often each output key was made. */
  static Map<String, AtomicInteger> newCounter() {
    return new ConcurrentHashMap<>();
  }
}
