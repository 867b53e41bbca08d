package dev.derive.faults;

/** A process dying at the point where it is thrown: injected by the harness, never caught by it. */
final class InjectedCrash extends RuntimeException {
  InjectedCrash(String where) {
    super("injected crash " + where, null, false, false);
  }
}
