package dev.derive.worker.office;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;

/**
 * Recognises a password-protected Word, Excel or PowerPoint 2007+ file: an OLE2 compound file
 * holding the encrypted OOXML package in a stream called {@code EncryptedPackage} ([MS-OFFCRYPTO]
 * 2.3.4.4). LibreOffice 7.4 asks for no password for some of them (Agile encryption) but reports a
 * broken package, so the office worker asks this first and answers {@code password-required} at
 * once.
 *
 * <p>Directory entries of a compound file are 128 bytes long and its sectors (512 or 4096 bytes)
 * start after the 512-byte header ([MS-CFB] 2.2, 2.6), so every 128-byte boundary after the header
 * is tried: an entry is the stream when its UTF-16 name, its name length (34 bytes with the
 * terminator) and its object type (2, stream) say so.
 */
final class EncryptedPackage {
  /** The compound file signature, [MS-CFB] 2.2. */
  private static final byte[] SIGNATURE = {
    (byte) 0xD0, (byte) 0xCF, 0x11, (byte) 0xE0, (byte) 0xA1, (byte) 0xB1, 0x1A, (byte) 0xE1
  };

  private static final byte[] NAME = "EncryptedPackage\0".getBytes(StandardCharsets.UTF_16LE);
  private static final int ENTRY_BYTES = 128;
  private static final int HEADER_BYTES = 512;
  private static final int NAME_LENGTH_OFFSET = 0x40;
  private static final int OBJECT_TYPE_OFFSET = 0x42;
  private static final int STREAM = 2;

  private EncryptedPackage() {}

  /** Whether {@code file} is an OLE2 compound file with an {@code EncryptedPackage} stream. */
  static boolean isEncryptedOoxml(Path file) throws IOException {
    try (InputStream in = new BufferedInputStream(Files.newInputStream(file))) {
      byte[] header = in.readNBytes(HEADER_BYTES);
      if (header.length < HEADER_BYTES || !Arrays.equals(header, 0, 8, SIGNATURE, 0, 8)) {
        return false;
      }
      byte[] entry = new byte[ENTRY_BYTES];
      while (in.readNBytes(entry, 0, ENTRY_BYTES) == ENTRY_BYTES) {
        if (Arrays.equals(entry, 0, NAME.length, NAME, 0, NAME.length)
            && (entry[NAME_LENGTH_OFFSET] & 0xFF) == NAME.length
            && entry[NAME_LENGTH_OFFSET + 1] == 0
            && entry[OBJECT_TYPE_OFFSET] == STREAM) {
          return true;
        }
      }
      return false;
    }
  }
}
