package dev.derive.protocol;

import java.util.Locale;

/** Media type names (RFC 6838) that Derive reads and writes, and helpers to compare them. */
public final class MediaTypes {
  public static final String IMAGE_JPEG = "image/jpeg";
  public static final String IMAGE_PNG = "image/png";
  public static final String IMAGE_GIF = "image/gif";
  public static final String IMAGE_BMP = "image/bmp";
  public static final String IMAGE_TIFF = "image/tiff";
  public static final String IMAGE_WEBP = "image/webp";
  public static final String IMAGE_AVIF = "image/avif";
  public static final String IMAGE_HEIF = "image/heif";
  public static final String APPLICATION_PDF = "application/pdf";
  public static final String TEXT_PLAIN = "text/plain";
  public static final String APPLICATION_JSON = "application/json";
  public static final String APPLICATION_OCTET_STREAM = "application/octet-stream";
  public static final String TEXT_MARKDOWN = "text/markdown";
  public static final String TEXT_HTML = "text/html";
  public static final String APPLICATION_RTF = "application/rtf";
  public static final String APPLICATION_EPUB = "application/epub+zip";
  public static final String APPLICATION_ODT = "application/vnd.oasis.opendocument.text";
  public static final String APPLICATION_DOCX =
      "application/vnd.openxmlformats-officedocument.wordprocessingml.document";
  public static final String APPLICATION_XLSX =
      "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet";
  public static final String APPLICATION_PPTX =
      "application/vnd.openxmlformats-officedocument.presentationml.presentation";

  private MediaTypes() {}

  /**
   * Returns the essence of a media type: type and subtype, lower-cased, parameters dropped ({@code
   * "Image/JPEG; q=1"} becomes {@code "image/jpeg"}).
   *
   * @throws IllegalArgumentException if the value has no {@code type/subtype} form
   */
  public static String essence(String mediaType) {
    if (mediaType == null) {
      throw new IllegalArgumentException("media type is missing");
    }
    String essence = mediaType.split(";", 2)[0].trim().toLowerCase(Locale.ROOT);
    int slash = essence.indexOf('/');
    if (slash <= 0 || slash == essence.length() - 1 || essence.indexOf('/', slash + 1) >= 0) {
      throw new IllegalArgumentException("not a media type: " + mediaType);
    }
    return essence;
  }
}
