package dev.derive.worker.markup;

import com.openhtmltopdf.util.XRLogger;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * openhtmltopdf's log through {@code java.util.logging} (so JBoss LogManager writes it as the
 * function's JSON lines) instead of its own console handler, which printed a plain line per
 * stylesheet parse and font load into every markup step. Its INFO is progress chatter ("Loading
 * font(...) now", "Prepare to fly") and goes to FINE (debug); warnings and errors keep their level.
 */
final class JulXRLogger implements XRLogger {
  /** Installs this logger for openhtmltopdf, once per process. */
  static void install() {
    com.openhtmltopdf.util.XRLog.setLoggerImpl(new JulXRLogger());
  }

  @Override
  public void log(String where, Level level, String msg) {
    Logger.getLogger(where).log(mapped(level), msg);
  }

  @Override
  public void log(String where, Level level, String msg, Throwable th) {
    Logger.getLogger(where).log(mapped(level), msg, th);
  }

  @Override
  public void setLevel(String logger, Level level) {
    // the function's log configuration decides (quarkus.log.category)
  }

  @Override
  public boolean isLogLevelEnabled(com.openhtmltopdf.util.Diagnostic diagnostic) {
    return Logger.getLogger(diagnostic.getLogMessageId().getWhere())
        .isLoggable(mapped(diagnostic.getLevel()));
  }

  private static Level mapped(Level level) {
    return level.intValue() <= Level.INFO.intValue() ? Level.FINE : level;
  }
}
