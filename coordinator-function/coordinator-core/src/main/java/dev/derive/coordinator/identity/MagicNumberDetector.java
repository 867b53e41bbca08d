package dev.derive.coordinator.identity;

import dev.derive.protocol.MediaTypes;
import java.nio.charset.StandardCharsets;
import java.util.Optional;

/**
 * Recognises the raster formats the image capability reads by their signatures: JPEG ({@code FF D8
 * FF}, ITU T.81), PNG (8-byte signature, RFC 2083), GIF ({@code GIF87a}/{@code GIF89a}), BMP
 * ({@code BM}), TIFF ({@code II*\0} or {@code MM\0*}, TIFF 6.0) and WebP (a RIFF container of form
 * type {@code WEBP}).
 */
public final class MagicNumberDetector implements MediaTypeDetector {
  private static final byte[] PNG = {(byte) 0x89, 'P', 'N', 'G', '\r', '\n', 0x1A, '\n'};

  @Override
  public int prefixBytes() {
    return 16;
  }

  @Override
  public Optional<String> detect(byte[] b) {
    if (startsWith(b, 0, (byte) 0xFF, (byte) 0xD8, (byte) 0xFF)) {
      return Optional.of(MediaTypes.IMAGE_JPEG);
    }
    if (startsWith(b, 0, PNG)) {
      return Optional.of(MediaTypes.IMAGE_PNG);
    }
    if (startsWith(b, 0, ascii("GIF87a")) || startsWith(b, 0, ascii("GIF89a"))) {
      return Optional.of(MediaTypes.IMAGE_GIF);
    }
    if (startsWith(b, 0, ascii("RIFF")) && startsWith(b, 8, ascii("WEBP"))) {
      return Optional.of(MediaTypes.IMAGE_WEBP);
    }
    if (startsWith(b, 0, (byte) 'I', (byte) 'I', (byte) 42, (byte) 0)
        || startsWith(b, 0, (byte) 'M', (byte) 'M', (byte) 0, (byte) 42)) {
      return Optional.of(MediaTypes.IMAGE_TIFF);
    }
    if (startsWith(b, 0, ascii("BM")) && b.length >= 14) {
      return Optional.of(MediaTypes.IMAGE_BMP);
    }
    return Optional.empty();
  }

  private static byte[] ascii(String text) {
    return text.getBytes(StandardCharsets.US_ASCII);
  }

  private static boolean startsWith(byte[] data, int offset, byte... signature) {
    if (data.length < offset + signature.length) {
      return false;
    }
    for (int i = 0; i < signature.length; i++) {
      if (data[offset + i] != signature[i]) {
        return false;
      }
    }
    return true;
  }
}
