package dev.derive.worker.markup;

import com.openhtmltopdf.util.XRLogger;
import java.util.logging.Level;

/**
 * openhtmltopdf's log through {@link System.Logger} (so JBoss LogManager writes it as the
 * function's JSON lines; its interface names {@code java.util.logging} levels) instead of its own
 * console handler, which printed a plain line per stylesheet parse and font load into every markup
 * step. Its INFO is progress chatter ("Loading font(...) now", "Prepare to fly") and goes to FINE
 * (debug); warnings and errors keep their level.
 */
final class JulXRLogger implements XRLogger {
  /** Installs this logger for openhtmltopdf, once per process. */
  static void install() {
    com.openhtmltopdf.util.XRLog.setLoggerImpl(new JulXRLogger());
  }

  @Override
  public void log(String where, Level level, String msg) {
    System.getLogger(where).log(mapped(level), msg);
  }

  @Override
  public void log(String where, Level level, String msg, Throwable th) {
    System.getLogger(where).log(mapped(level), msg, th);
  }

  @Override
  public void setLevel(String logger, Level level) {
    // the function's log configuration decides (quarkus.log.category)
  }

  @Override
  public boolean isLogLevelEnabled(com.openhtmltopdf.util.Diagnostic diagnostic) {
    return System.getLogger(diagnostic.getLogMessageId().getWhere())
        .isLoggable(mapped(diagnostic.getLevel()));
  }

  private static System.Logger.Level mapped(Level level) {
    int value = level.intValue();
    if (value <= Level.INFO.intValue()) {
      return System.Logger.Level.DEBUG;
    }
    return value < Level.SEVERE.intValue()
        ? System.Logger.Level.WARNING
        : System.Logger.Level.ERROR;
  }
}
