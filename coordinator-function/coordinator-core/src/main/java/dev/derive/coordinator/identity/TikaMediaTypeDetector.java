package dev.derive.coordinator.identity;

import dev.derive.protocol.MediaTypes;
import dev.derive.protocol.io.TextEncodings;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.apache.tika.metadata.Metadata;
import org.apache.tika.metadata.TikaCoreProperties;
import org.apache.tika.mime.MediaType;
import org.apache.tika.mime.MediaTypeRegistry;
import org.apache.tika.mime.MimeTypes;

/**
 * Detects media types with Apache Tika's detector ({@code tika-core} only: the magic-byte patterns
 * and file-name globs of its MIME database, no parsers). The bytes decide; the file name only
 * refines a type the bytes leave open, as Tika does (ZIP + {@code .docx}; plain text + {@code
 * .md}), with two differences:
 *
 * <ul>
 *   <li>bytes that are no known format (Tika's octet-stream: no magic, not text) are nothing,
 *       whatever the name; Tika would take the name's type ({@code .pptx}) for them;
 *   <li>text whose bytes only look like HTML (Tika's HTML patterns are a leading tag such as {@code
 *       <div} or {@code <h1}) takes the type of its name when the name says another text format:
 *       Markdown, and other text formats, embed HTML, and many READMEs open with an HTML block;
 *   <li>UTF-16 text is detected as the text it is ({@link TextEncodings#evident}, without a byte
 *       order mark too), where Tika's magic patterns, written for ASCII-compatible bytes, see
 *       binary.
 * </ul>
 *
 * A type no capability reads is widened along Tika's type hierarchy until one is found ({@code
 * text/x-java-source} is {@code text/plain}); aliases are mapped to the names the capabilities
 * declare ({@code text/x-web-markdown} is {@code text/markdown}).
 */
public final class TikaMediaTypeDetector implements MediaTypeDetector {
  private static final Map<String, String> ALIASES =
      Map.of(
          "text/x-web-markdown", MediaTypes.TEXT_MARKDOWN,
          "text/x-markdown", MediaTypes.TEXT_MARKDOWN,
          "application/xhtml+xml", MediaTypes.TEXT_HTML);

  /**
   * Tika's name for a password-protected OOXML document (Word, Excel, PowerPoint): an OLE2
   * container holding the encrypted package. Answered whatever the accepted types are, so the
   * caller can say the source needs its password rather than that its type is unsupported.
   */
  public static final String PROTECTED_OOXML = "application/x-tika-ooxml-protected";

  private final MimeTypes mimeTypes = MimeTypes.getDefaultMimeTypes();
  private final MediaTypeRegistry registry = mimeTypes.getMediaTypeRegistry();
  private final Set<String> accepted;

  /**
   * @param accepted media types callers can use (the capabilities' sources); a detected type
   *     outside them is widened to its nearest accepted supertype. Empty: report types as detected.
   */
  public TikaMediaTypeDetector(Set<String> accepted) {
    this.accepted = Set.copyOf(accepted);
  }

  /** Tika's magic patterns look this far into a file at most (its {@code getMinLength()}). */
  @Override
  public int prefixBytes() {
    return mimeTypes.getMinLength();
  }

  @Override
  public Optional<String> detect(byte[] prefix) {
    return detect(prefix, null);
  }

  @Override
  public Optional<String> detect(byte[] prefix, String fileName) {
    if (isAvifSequence(prefix)
        && (accepted.isEmpty() || accepted.contains(MediaTypes.IMAGE_AVIF))) {
      return Optional.of(MediaTypes.IMAGE_AVIF);
    }
    if (isEncryptedOoxml(prefix)) {
      return Optional.of(PROTECTED_OOXML);
    }
    if (isLittleEndianBigTiff(prefix)
        && (accepted.isEmpty() || accepted.contains(MediaTypes.IMAGE_TIFF))) {
      return Optional.of(MediaTypes.IMAGE_TIFF);
    }
    prefix = utf8IfUtf16(prefix);
    MediaType byBytes = tikaDetect(prefix, new Metadata());
    if (byBytes.equals(MediaType.OCTET_STREAM)) {
      return Optional.empty();
    }
    MediaType type = byBytes;
    if (fileName != null && !fileName.isBlank()) {
      Metadata metadata = new Metadata();
      metadata.set(TikaCoreProperties.RESOURCE_NAME_KEY, fileName);
      type = tikaDetect(prefix, metadata);
      MediaType byName = byName(fileName);
      if (type.equals(MediaType.TEXT_HTML) && isOtherTextFormat(byName)) {
        type = byName;
      }
    }
    for (MediaType t = registry.normalize(type); t != null; t = registry.getSupertype(t)) {
      String name = t.getBaseType().toString();
      name = ALIASES.getOrDefault(name, name);
      if (name.equals(MediaTypes.APPLICATION_OCTET_STREAM)) {
        return Optional.empty();
      }
      if (accepted.isEmpty() || accepted.contains(name)) {
        return Optional.of(name);
      }
    }
    return Optional.empty();
  }

  /**
   * A ZIP package is a DOCX, XLSX, PPTX, ODT, EPUB … only by its name where its first bytes do not
   * say which: Tika's MIME database tells an Office Open XML package ({@code
   * application/x-tika-ooxml}) or a plain ZIP apart from each other by their bytes, and a Word
   * document from a spreadsheet by the extension (README: "the name only refines what the bytes
   * leave open"). Says so, with the extensions of the accepted types the bytes may be, when the
   * name gives none of them.
   */
  @Override
  public Optional<String> unreadableBecause(byte[] prefix, String fileName) {
    MediaType byBytes = registry.normalize(tikaDetect(prefix, new Metadata()));
    String kind = PACKAGES.get(byBytes);
    if (kind == null) {
      return Optional.empty();
    }
    java.util.SortedSet<String> extensions = new java.util.TreeSet<>();
    for (String type : accepted) {
      MediaType media = MediaType.parse(type);
      if (media != null && registry.isSpecializationOf(registry.normalize(media), byBytes)) {
        try {
          // the type's usual extension (.pptx, not also .thmx, a theme Tika files under it)
          String extension = mimeTypes.forName(type).getExtension();
          if (!extension.isEmpty()) {
            extensions.add(extension);
          }
        } catch (org.apache.tika.mime.MimeTypeException e) {
          // a type Tika's database does not know has no extension to name
        }
      }
    }
    if (extensions.isEmpty()) {
      return Optional.empty();
    }
    return Optional.of(
        "its bytes are "
            + kind
            + ", which is read as a document only when its name's extension says which kind ("
            + String.join(", ", extensions)
            + "); "
            + (fileName == null || fileName.isBlank()
                ? "the key has no file name"
                : "the name '" + fileName + "' says none of them"));
  }

  /** The packages whose kind of document only the name tells, as a user calls them. */
  private static final Map<MediaType, String> PACKAGES =
      Map.of(
          MediaType.application("zip"),
          "a ZIP package (Office Open XML, OpenDocument and EPUB documents are ZIP packages)",
          MediaType.application("x-tika-ooxml"),
          "an Office Open XML package (a Word, Excel or PowerPoint document)");

  /** UTF-16 text transcoded to UTF-8, without its byte order mark; other bytes as they are. */
  private static byte[] utf8IfUtf16(byte[] prefix) {
    return TextEncodings.evident(prefix)
        .filter(c -> c.equals(StandardCharsets.UTF_16LE) || c.equals(StandardCharsets.UTF_16BE))
        .map(
            c -> {
              int bom = TextEncodings.byteOrderMark(prefix).isPresent() ? 2 : 0;
              String text = new String(prefix, bom, (prefix.length - bom) & ~1, c);
              return text.getBytes(StandardCharsets.UTF_8);
            })
        .orElse(prefix);
  }

  private MediaType tikaDetect(byte[] prefix, Metadata metadata) {
    try {
      return mimeTypes.detect(new ByteArrayInputStream(prefix), metadata);
    } catch (IOException e) {
      throw new UncheckedIOException("reading an in-memory prefix cannot fail", e);
    }
  }

  /** The type Tika's globs give {@code fileName}, octet-stream for none. */
  private MediaType byName(String fileName) {
    Metadata metadata = new Metadata();
    metadata.set(TikaCoreProperties.RESOURCE_NAME_KEY, fileName);
    return tikaDetect(new byte[0], metadata);
  }

  /** A text format other than plain text and HTML themselves (Markdown, CSV …). */
  private boolean isOtherTextFormat(MediaType type) {
    MediaType normalized = registry.normalize(type);
    return !normalized.equals(MediaType.TEXT_PLAIN)
        && !normalized.equals(MediaType.TEXT_HTML)
        && registry.isSpecializationOf(normalized, MediaType.TEXT_PLAIN);
  }

  /** The OLE2 (Compound File Binary) signature, [MS-CFB] section 2.2. */
  private static final byte[] OLE2_SIGNATURE = {
    (byte) 0xD0, (byte) 0xCF, 0x11, (byte) 0xE0, (byte) 0xA1, (byte) 0xB1, 0x1A, (byte) 0xE1
  };

  /** The stream of an encrypted OOXML package, [MS-OFFCRYPTO] section 2.3.4.4, as CFB names it. */
  private static final byte[] ENCRYPTED_PACKAGE =
      "EncryptedPackage\0".getBytes(StandardCharsets.UTF_16LE);

  /**
   * Whether {@code prefix} starts an OLE2 container with a directory entry for the stream {@code
   * EncryptedPackage}: a password-protected Word, Excel or PowerPoint file ([MS-OFFCRYPTO] 2.3.4:
   * the encrypted OOXML package stored in a compound file). Directory entries are 128 bytes long
   * and sectors start at multiples of 512 ([MS-CFB] 2.2, 2.6), so every 128-byte boundary after the
   * header is tried; an entry is the stream when its UTF-16 name, its name length (34 bytes, the
   * terminator included) and its object type (2, stream) say so. A directory beyond the prefix goes
   * unseen (the file is then of an unsupported type, as any other OLE2 file).
   */
  static boolean isEncryptedOoxml(byte[] prefix) {
    if (prefix.length < 512 || !Arrays.equals(prefix, 0, 8, OLE2_SIGNATURE, 0, 8)) {
      return false;
    }
    for (int entry = 512; entry + 128 <= prefix.length; entry += 128) {
      if (Arrays.equals(
              prefix,
              entry,
              entry + ENCRYPTED_PACKAGE.length,
              ENCRYPTED_PACKAGE,
              0,
              ENCRYPTED_PACKAGE.length)
          && (prefix[entry + 0x40] & 0xFF) == ENCRYPTED_PACKAGE.length
          && prefix[entry + 0x41] == 0
          && prefix[entry + 0x42] == 2) {
        return true;
      }
    }
    return false;
  }

  /**
   * Whether {@code prefix} starts a little-endian BigTIFF: {@code II}, then version 43 (0x002B)
   * little-endian, offset size 8 (BigTIFF design, as libtiff 4 writes it). Tika's database knows
   * the big-endian spelling ({@code MM\0+}) only, and read {@code II+\0} as unknown bytes.
   */
  static boolean isLittleEndianBigTiff(byte[] prefix) {
    return prefix.length >= 8
        && prefix[0] == 'I'
        && prefix[1] == 'I'
        && prefix[2] == 0x2B
        && prefix[3] == 0
        && prefix[4] == 8
        && prefix[5] == 0;
  }

  /**
   * Whether {@code prefix} starts an animated AVIF: an ISO-BMFF {@code ftyp} box (ISO/IEC 14496-12
   * section 4.3: size, {@code "ftyp"}, major brand) whose major brand is {@code avis}, the AVIF
   * image sequence brand (AV1 Image File Format, section 9). Tika's database reads it as {@code
   * video/quicktime}, but it is an image with a still first frame.
   */
  static boolean isAvifSequence(byte[] prefix) {
    return prefix.length >= 12
        && prefix[4] == 'f'
        && prefix[5] == 't'
        && prefix[6] == 'y'
        && prefix[7] == 'p'
        && prefix[8] == 'a'
        && prefix[9] == 'v'
        && prefix[10] == 'i'
        && prefix[11] == 's';
  }
}
