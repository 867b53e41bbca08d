package dev.derive.worker.text;

import dev.derive.protocol.io.TextEncodings;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.Charset;
import java.util.Optional;
import org.apache.tika.detect.CompositeEncodingDetector;
import org.apache.tika.detect.DefaultEncodingDetector;
import org.apache.tika.detect.EncodingDetector;
import org.apache.tika.metadata.Metadata;

/**
 * Tika's encoding detection with the bytes read first, as browsers do: what the first {@value
 * #SAMPLE_BYTES} bytes prove ({@link TextEncodings#evident}: a byte order mark, UTF-16 without one,
 * valid UTF-8) wins over every label; otherwise Tika's own detectors are asked in their order (an
 * HTML {@code <meta charset>} first, then the statistical ones), and an answer in which the sample
 * does not decode is passed over (when every answer is, Tika's first stands). So a page whose
 * {@code <meta>} lies about its bytes, or UTF-16 text without a byte order mark, no longer comes
 * out as U+FFFD. Set in the {@code ParseContext}, where Tika's text and HTML parsers look for their
 * detector.
 */
final class CheckedEncodingDetector implements EncodingDetector {
  /** Bytes sampled: what Tika's own HTML detector reads for a {@code <meta>}, 64 KiB. */
  static final int SAMPLE_BYTES = 64 * 1024;

  private final CompositeEncodingDetector tikas = new DefaultEncodingDetector();

  @Override
  public Charset detect(InputStream input, Metadata metadata) throws IOException {
    if (input == null) {
      return null;
    }
    byte[] sample;
    input.mark(SAMPLE_BYTES);
    try {
      sample = input.readNBytes(SAMPLE_BYTES);
    } finally {
      input.reset();
    }
    Optional<Charset> evident = TextEncodings.evident(sample);
    if (evident.isPresent()) {
      return evident.get();
    }
    boolean cut = sample.length == SAMPLE_BYTES;
    Charset first = null;
    for (EncodingDetector detector : tikas.getDetectors()) {
      Charset charset = detector.detect(input, metadata);
      if (charset != null && TextEncodings.decodesSample(sample, cut, charset)) {
        return charset;
      }
      first = first == null ? charset : first;
    }
    return first; // none reads it all: Tika's own choice (LegacyText may decode the text again)
  }
}
