package dev.derive.worker.image.vips;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_DOUBLE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.invoke.MethodHandle;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * libvips (the prebuilt {@code libvips-cpp.so} of npm's {@code @img/sharp-libvips-linux-*} 1.3.4,
 * libvips 8.18.7) called through {@code java.lang.foreign}. Only the handful of C functions the
 * image capability needs are bound, each with its exact C signature: a wrong layout on a variadic
 * call crashes the JVM, so every method here is exercised by {@code VipsTest}.
 *
 * <p>Set up once per process ({@link #shared()}): {@code vips_init}, the operation cache disabled
 * ({@code vips_cache_set_max(0)}, memory and files 0: a worker never repeats an operation, and a
 * cache would keep decoded images alive off-heap), {@code vips_concurrency_set} to the number of
 * processors (Lambda gives about one vCPU per 1769 MB).
 *
 * <p>libvips' error buffer is process-wide: a failure's message is read and cleared right after the
 * failing call; concurrent failures on two threads may see each other's text, never a crash.
 */
public final class Vips {
  private static final System.Logger LOG = System.getLogger(Vips.class.getName());

  /** The shared object inside the npm package, under {@code lib/}. */
  public static final String LIBRARY_FILE = "libvips-cpp.so.8.18.7";

  /**
   * System property naming libvips: the {@code .so} itself, or a folder holding {@code
   * <platform>/lib/libvips-cpp.so.8.18.7} (the build's {@code target/libvips}). Environment
   * variable {@code DERIVE_LIBVIPS_PATH} when the property is unset.
   */
  public static final String PATH_PROPERTY = "derive.libvips.path";

  /** Environment variable equivalent of {@link #PATH_PROPERTY}. */
  public static final String PATH_ENVIRONMENT = "DERIVE_LIBVIPS_PATH";

  /** {@code VipsSize} values of {@code vips_thumbnail}'s {@code size} option. */
  public static final int SIZE_DOWN = 2;

  /** {@code VipsFailOn}: fail on decoder errors (truncated data included), not on warnings. */
  public static final int FAIL_ON_ERROR = 2;

  /** {@code VipsInterpretation} values used here (libvips' {@code image.h}). */
  public static final int INTERPRETATION_SRGB = 22;

  /** {@code VipsInterpretation} of 16-bit RGB. */
  public static final int INTERPRETATION_RGB16 = 25;

  /** {@code VipsBandFormat} values used here. */
  public static final int FORMAT_UCHAR = 0;

  /** {@code VipsBandFormat} of unsigned 16-bit samples. */
  public static final int FORMAT_USHORT = 2;

  /** {@code VipsForeignHeifCompression} of AV1 (libvips' {@code foreign.h}): AVIF. */
  public static final int HEIF_COMPRESSION_AV1 = 4;

  /** {@code VipsForeignKeep} of nothing: no EXIF, XMP, IPTC, ICC or other metadata is written. */
  public static final int KEEP_NONE = 0;

  /** Highest {@code effort} of {@code vips_webpsave} (libwebp's method 0..6). */
  public static final int WEBP_MAX_EFFORT = 6;

  /** Highest {@code effort} of {@code vips_heifsave} (0..9; libvips maps it to aom's speed). */
  public static final int HEIF_MAX_EFFORT = 9;

  private static final Object LOCK = new Object();
  private static volatile Vips shared;
  private static volatile VipsUnavailableException unavailable;

  final Path library;
  private final Arena arena = Arena.global();
  private final MethodHandle errorBuffer;
  private final MethodHandle errorClear;
  private final MethodHandle versionString;
  final MethodHandle objectUnref;
  final MethodHandle free;
  private final MethodHandle imageNewFromFile;
  private final MethodHandle heifload;
  private final MethodHandle heifloadPage;
  private final MethodHandle thumbnail;
  private final MethodHandle thumbnailImage;
  private final MethodHandle resize;
  private final MethodHandle colourspace;
  private final MethodHandle cast;
  final MethodHandle width;
  final MethodHandle height;
  final MethodHandle bands;
  final MethodHandle format;
  final MethodHandle interpretation;
  final MethodHandle hasAlpha;
  final MethodHandle pages;
  final MethodHandle typeOf;
  final MethodHandle getString;
  final MethodHandle writeToMemory;
  private final MethodHandle newFromMemoryCopy;
  private final MethodHandle webpsave;
  private final MethodHandle heifsave;

  private Vips(Path library) {
    this.library = library;
    SymbolLookup symbols = SymbolLookup.libraryLookup(library, arena);
    Linker linker = Linker.nativeLinker();
    Binder b = new Binder(linker, symbols);
    MethodHandle init = b.bind("vips_init", FunctionDescriptor.of(JAVA_INT, ADDRESS));
    MethodHandle cacheMax = b.bind("vips_cache_set_max", FunctionDescriptor.ofVoid(JAVA_INT));
    MethodHandle cacheMaxMem =
        b.bind("vips_cache_set_max_mem", FunctionDescriptor.ofVoid(JAVA_LONG));
    MethodHandle cacheMaxFiles =
        b.bind("vips_cache_set_max_files", FunctionDescriptor.ofVoid(JAVA_INT));
    MethodHandle concurrency = b.bind("vips_concurrency_set", FunctionDescriptor.ofVoid(JAVA_INT));
    errorBuffer = b.bind("vips_error_buffer", FunctionDescriptor.of(ADDRESS));
    errorClear = b.bind("vips_error_clear", FunctionDescriptor.ofVoid());
    versionString = b.bind("vips_version_string", FunctionDescriptor.of(ADDRESS));
    objectUnref = b.bind("g_object_unref", FunctionDescriptor.ofVoid(ADDRESS));
    free = b.bind("g_free", FunctionDescriptor.ofVoid(ADDRESS));
    // VipsImage *vips_image_new_from_file(const char *name, ...): header only, pixels on demand
    imageNewFromFile =
        b.variadic("vips_image_new_from_file", FunctionDescriptor.of(ADDRESS, ADDRESS, ADDRESS), 1);
    // int vips_heifload(const char *filename, VipsImage **out, ...)
    heifload =
        b.variadic("vips_heifload", FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, ADDRESS), 2);
    heifloadPage =
        b.variadic(
            "vips_heifload",
            FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, ADDRESS, JAVA_INT, ADDRESS),
            2);
    // int vips_thumbnail(const char *filename, VipsImage **out, int width, ...)
    thumbnail =
        b.variadic(
            "vips_thumbnail",
            FunctionDescriptor.of(
                JAVA_INT, ADDRESS, ADDRESS, JAVA_INT, // filename, out, width
                ADDRESS, JAVA_INT, // "height", int
                ADDRESS, JAVA_INT, // "size", VipsSize
                ADDRESS, JAVA_INT, // "fail_on", VipsFailOn
                ADDRESS, ADDRESS, // "export_profile", char *
                ADDRESS), // NULL
            3);
    // int vips_thumbnail_image(VipsImage *in, VipsImage **out, int width, ...)
    thumbnailImage =
        b.variadic(
            "vips_thumbnail_image",
            FunctionDescriptor.of(
                JAVA_INT, ADDRESS, ADDRESS, JAVA_INT, // in, out, width
                ADDRESS, JAVA_INT, // "height", int
                ADDRESS, JAVA_INT, // "size", VipsSize
                ADDRESS, JAVA_INT, // "fail_on", VipsFailOn
                ADDRESS, ADDRESS, // "export_profile", char *
                ADDRESS), // NULL
            3);
    // int vips_resize(VipsImage *in, VipsImage **out, double scale, ...)
    resize =
        b.variadic(
            "vips_resize",
            FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, JAVA_DOUBLE, ADDRESS),
            3);
    // int vips_colourspace(VipsImage *in, VipsImage **out, VipsInterpretation space, ...)
    colourspace =
        b.variadic(
            "vips_colourspace",
            FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, JAVA_INT, ADDRESS),
            3);
    // int vips_cast(VipsImage *in, VipsImage **out, VipsBandFormat format, ...)
    cast =
        b.variadic(
            "vips_cast", FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, JAVA_INT, ADDRESS), 3);
    width = b.bind("vips_image_get_width", FunctionDescriptor.of(JAVA_INT, ADDRESS));
    height = b.bind("vips_image_get_height", FunctionDescriptor.of(JAVA_INT, ADDRESS));
    bands = b.bind("vips_image_get_bands", FunctionDescriptor.of(JAVA_INT, ADDRESS));
    format = b.bind("vips_image_get_format", FunctionDescriptor.of(JAVA_INT, ADDRESS));
    interpretation =
        b.bind("vips_image_get_interpretation", FunctionDescriptor.of(JAVA_INT, ADDRESS));
    hasAlpha = b.bind("vips_image_hasalpha", FunctionDescriptor.of(JAVA_INT, ADDRESS));
    pages = b.bind("vips_image_get_n_pages", FunctionDescriptor.of(JAVA_INT, ADDRESS));
    // GType (gsize) vips_image_get_typeof(const VipsImage *image, const char *name)
    typeOf = b.bind("vips_image_get_typeof", FunctionDescriptor.of(JAVA_LONG, ADDRESS, ADDRESS));
    // int vips_image_get_string(const VipsImage *image, const char *name, const char **out)
    getString =
        b.bind("vips_image_get_string", FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, ADDRESS));
    // void *vips_image_write_to_memory(VipsImage *in, size_t *size)
    writeToMemory =
        b.bind("vips_image_write_to_memory", FunctionDescriptor.of(ADDRESS, ADDRESS, ADDRESS));
    // VipsImage *vips_image_new_from_memory_copy(const void *data, size_t size, int width,
    //     int height, int bands, VipsBandFormat format)
    newFromMemoryCopy =
        b.bind(
            "vips_image_new_from_memory_copy",
            FunctionDescriptor.of(
                ADDRESS, ADDRESS, JAVA_LONG, JAVA_INT, JAVA_INT, JAVA_INT, JAVA_INT));
    // int vips_webpsave(VipsImage *in, const char *filename, ...)
    webpsave =
        b.variadic(
            "vips_webpsave",
            FunctionDescriptor.of(
                JAVA_INT, ADDRESS, ADDRESS, // in, filename
                ADDRESS, JAVA_INT, // "Q", int
                ADDRESS, JAVA_INT, // "lossless", gboolean
                ADDRESS, JAVA_INT, // "effort", int
                ADDRESS, JAVA_INT, // "keep", VipsForeignKeep
                ADDRESS), // NULL
            2);
    // int vips_heifsave(VipsImage *in, const char *filename, ...)
    heifsave =
        b.variadic(
            "vips_heifsave",
            FunctionDescriptor.of(
                JAVA_INT, ADDRESS, ADDRESS, // in, filename
                ADDRESS, JAVA_INT, // "Q", int
                ADDRESS, JAVA_INT, // "compression", VipsForeignHeifCompression
                ADDRESS, JAVA_INT, // "bitdepth", int
                ADDRESS, JAVA_INT, // "effort", int
                ADDRESS, JAVA_INT, // "keep", VipsForeignKeep
                ADDRESS), // NULL
            2);
    try {
      int status = (int) init.invokeExact(arena.allocateFrom("derive"));
      if (status != 0) {
        throw new VipsUnavailableException(
            "vips_init failed for " + library + ": " + takeError(), null);
      }
      cacheMax.invokeExact(0);
      cacheMaxMem.invokeExact(0L);
      cacheMaxFiles.invokeExact(0);
      concurrency.invokeExact(Math.max(1, Runtime.getRuntime().availableProcessors()));
    } catch (VipsUnavailableException e) {
      throw e;
    } catch (Throwable e) {
      throw new VipsUnavailableException("cannot initialise libvips from " + library, e);
    }
  }

  /**
   * The process's libvips, loaded and initialised on first use from {@link #candidates()}.
   *
   * @throws VipsUnavailableException (the same one on every call) if no candidate loads
   */
  public static Vips shared() {
    Vips vips = shared;
    if (vips != null) {
      return vips;
    }
    synchronized (LOCK) {
      if (shared != null) {
        return shared;
      }
      if (unavailable != null) {
        throw unavailable;
      }
      List<Path> candidates = candidates();
      List<String> tried = new ArrayList<>();
      for (Path candidate : candidates) {
        if (!Files.isRegularFile(candidate)) {
          tried.add(candidate + " (absent)");
          continue;
        }
        try {
          shared = new Vips(candidate);
          LOG.log(
              System.Logger.Level.INFO,
              "libvips " + shared.version() + " loaded from " + candidate);
          return shared;
        } catch (RuntimeException | LinkageError e) {
          tried.add(candidate + " (" + e + ")");
          unavailable =
              new VipsUnavailableException(
                  "libvips cannot be loaded: " + String.join(", ", tried), e);
          LOG.log(System.Logger.Level.ERROR, unavailable.getMessage(), e);
          throw unavailable;
        }
      }
      unavailable =
          new VipsUnavailableException(
              "libvips ("
                  + LIBRARY_FILE
                  + ") is not installed: looked for "
                  + String.join(", ", tried)
                  + "; set -D"
                  + PATH_PROPERTY
                  + " or "
                  + PATH_ENVIRONMENT,
              null);
      LOG.log(System.Logger.Level.ERROR, unavailable.getMessage());
      throw unavailable;
    }
  }

  /**
   * Whether libvips is loaded or loads now ({@link #shared()} without the exception; the failure is
   * logged once).
   */
  public static boolean available() {
    try {
      shared();
      return true;
    } catch (VipsUnavailableException e) {
      return false;
    }
  }

  /**
   * Loads libvips from {@code library} (an absolute path of {@code libvips-cpp.so.8.18.7}); for
   * tests. Production code uses {@link #shared()}: libvips is initialised once per process.
   */
  static Vips load(Path library) {
    return new Vips(library);
  }

  /**
   * Where libvips is looked for, in order: {@link #PATH_PROPERTY} / {@link #PATH_ENVIRONMENT} (a
   * file, or a folder with {@code <platform>/lib/}), a Lambda layer's {@code /opt/lib}, and the
   * function package's {@code $LAMBDA_TASK_ROOT/native/<platform>/lib/}; {@code <platform>} is
   * {@code linux-x64} or {@code linux-arm64} as npm names them.
   */
  public static List<Path> candidates() {
    List<Path> candidates = new ArrayList<>();
    String setting = System.getProperty(PATH_PROPERTY, System.getenv(PATH_ENVIRONMENT));
    if (setting != null && !setting.isBlank()) {
      Path path = Path.of(setting).toAbsolutePath();
      if (Files.isDirectory(path)) {
        candidates.add(path.resolve(platform()).resolve("lib").resolve(LIBRARY_FILE));
        candidates.add(path.resolve("lib").resolve(LIBRARY_FILE));
        candidates.add(path.resolve(LIBRARY_FILE));
      } else {
        candidates.add(path);
      }
    }
    candidates.add(Path.of("/opt/lib", LIBRARY_FILE));
    String taskRoot = System.getenv("LAMBDA_TASK_ROOT");
    if (taskRoot != null && !taskRoot.isBlank()) {
      candidates.add(Path.of(taskRoot, "native", platform(), "lib", LIBRARY_FILE).toAbsolutePath());
    }
    return candidates;
  }

  /** npm's platform name of this JVM: {@code linux-x64} or {@code linux-arm64}. */
  public static String platform() {
    String arch = System.getProperty("os.arch", "").toLowerCase(Locale.ROOT);
    return switch (arch) {
      case "aarch64", "arm64" -> "linux-arm64";
      default -> "linux-x64";
    };
  }

  /** The file this libvips was loaded from. */
  public Path library() {
    return library;
  }

  /** libvips' version, e.g. {@code 8.18.7}. */
  public String version() {
    try {
      return string((MemorySegment) versionString.invokeExact());
    } catch (Throwable e) {
      throw rethrow(e);
    }
  }

  /**
   * Opens {@code file} reading its header only (pixels are decoded on demand), the loader chosen by
   * libvips from the file's first bytes.
   *
   * @throws VipsException if no loader recognises the file or its header is unreadable
   */
  public VipsImage open(Path file) {
    clearError();
    try (Arena call = Arena.ofConfined()) {
      MemorySegment image =
          (MemorySegment)
              imageNewFromFile.invokeExact(call.allocateFrom(file.toString()), MemorySegment.NULL);
      return wrap(image, "open " + file.getFileName());
    } catch (VipsException e) {
      throw e;
    } catch (Throwable e) {
      throw rethrow(e);
    }
  }

  /**
   * Opens a HEIF/AVIF file with libvips' {@code heifload} directly, bypassing format sniffing
   * (libvips 8.18 does not recognise an AVIF image sequence, major brand {@code avis}, by itself);
   * header only.
   *
   * @param page 0-based top-level image, or -1 for the primary image
   * @throws VipsException if libheif cannot read the file
   */
  public VipsImage openHeif(Path file, int page) {
    clearError();
    try (Arena call = Arena.ofConfined()) {
      MemorySegment out = call.allocate(ADDRESS);
      MemorySegment name = call.allocateFrom(file.toString());
      int status =
          page < 0
              ? (int) heifload.invokeExact(name, out, MemorySegment.NULL)
              : (int)
                  heifloadPage.invokeExact(
                      name, out, call.allocateFrom("page"), page, MemorySegment.NULL);
      return result(status, out, "heifload " + file.getFileName());
    } catch (VipsException e) {
      throw e;
    } catch (Throwable e) {
      throw rethrow(e);
    }
  }

  /**
   * {@code vips_thumbnail}: loads {@code file} shrinking on load (JPEG DCT scaling, WebP/TIFF
   * pyramid levels), turned upright from its EXIF orientation and converted to sRGB with its
   * embedded ICC profile (CMYK without one through libvips' built-in CMYK profile), scaled down to
   * fit inside {@code width} x {@code height} (never up).
   *
   * @param loadOptions the loader's options, e.g. {@code page=1}, or empty (appended to the file
   *     name in brackets, as libvips reads them: the name itself must not end in {@code ]})
   * @throws VipsException if the file cannot be loaded or decoded
   */
  public VipsImage thumbnail(Path file, int width, int height, String loadOptions) {
    clearError();
    try (Arena call = Arena.ofConfined()) {
      MemorySegment out = call.allocate(ADDRESS);
      int status =
          (int)
              thumbnail.invokeExact(
                  call.allocateFrom(
                      loadOptions.isEmpty() ? file.toString() : file + "[" + loadOptions + "]"),
                  out,
                  width,
                  call.allocateFrom("height"),
                  height,
                  call.allocateFrom("size"),
                  SIZE_DOWN,
                  call.allocateFrom("fail_on"),
                  FAIL_ON_ERROR,
                  call.allocateFrom("export_profile"),
                  call.allocateFrom("srgb"),
                  MemorySegment.NULL);
      return result(status, out, "thumbnail " + file.getFileName());
    } catch (VipsException e) {
      throw e;
    } catch (Throwable e) {
      throw rethrow(e);
    }
  }

  /**
   * {@code vips_thumbnail_image}: as {@link #thumbnail} on an image already opened (no
   * shrink-on-load; libvips still avoids decoding more than it needs).
   *
   * @throws VipsException if the image cannot be decoded
   */
  public VipsImage thumbnail(VipsImage image, int width, int height) {
    clearError();
    try (Arena call = Arena.ofConfined()) {
      MemorySegment out = call.allocate(ADDRESS);
      int status =
          (int)
              thumbnailImage.invokeExact(
                  image.pointer(),
                  out,
                  width,
                  call.allocateFrom("height"),
                  height,
                  call.allocateFrom("size"),
                  SIZE_DOWN,
                  call.allocateFrom("fail_on"),
                  FAIL_ON_ERROR,
                  call.allocateFrom("export_profile"),
                  call.allocateFrom("srgb"),
                  MemorySegment.NULL);
      return result(status, out, "thumbnail_image");
    } catch (VipsException e) {
      throw e;
    } catch (Throwable e) {
      throw rethrow(e);
    }
  }

  /**
   * {@code vips_resize}: scales {@code image} by {@code scale} (Lanczos 3), keeping its band format
   * (16-bit stays 16-bit).
   *
   * @throws VipsException if the image cannot be decoded
   */
  public VipsImage resize(VipsImage image, double scale) {
    clearError();
    try (Arena call = Arena.ofConfined()) {
      MemorySegment out = call.allocate(ADDRESS);
      int status = (int) resize.invokeExact(image.pointer(), out, scale, MemorySegment.NULL);
      return result(status, out, "resize");
    } catch (VipsException e) {
      throw e;
    } catch (Throwable e) {
      throw rethrow(e);
    }
  }

  /**
   * {@code vips_colourspace}: converts {@code image} to {@code interpretation} (e.g. {@link
   * #INTERPRETATION_SRGB}: grey, 16-bit and CMYK images become 8-bit sRGB, alpha kept).
   *
   * @throws VipsException if libvips has no such conversion
   */
  public VipsImage colourspace(VipsImage image, int interpretation) {
    clearError();
    try (Arena call = Arena.ofConfined()) {
      MemorySegment out = call.allocate(ADDRESS);
      int status =
          (int) colourspace.invokeExact(image.pointer(), out, interpretation, MemorySegment.NULL);
      return result(status, out, "colourspace");
    } catch (VipsException e) {
      throw e;
    } catch (Throwable e) {
      throw rethrow(e);
    }
  }

  /**
   * {@code vips_cast}: converts the band format (values clipped, not scaled), e.g. to {@link
   * #FORMAT_UCHAR}.
   *
   * @throws VipsException on failure
   */
  public VipsImage cast(VipsImage image, int bandFormat) {
    clearError();
    try (Arena call = Arena.ofConfined()) {
      MemorySegment out = call.allocate(ADDRESS);
      int status = (int) cast.invokeExact(image.pointer(), out, bandFormat, MemorySegment.NULL);
      return result(status, out, "cast");
    } catch (VipsException e) {
      throw e;
    } catch (Throwable e) {
      throw rethrow(e);
    }
  }

  /**
   * {@code vips_image_new_from_memory_copy}: an 8-bit image ({@link #FORMAT_UCHAR}) holding a copy
   * of {@code pixels}, band-interleaved row after row; 3 bands are read as sRGB, 4 as sRGB with
   * alpha, 1 as grey, 2 as grey with alpha (libvips' default interpretation).
   *
   * @param pixels exactly {@code width x height x bands} samples
   * @throws IllegalArgumentException if the array length does not match the size
   * @throws VipsException if libvips refuses the image
   */
  public VipsImage fromPixels(byte[] pixels, int width, int height, int bands) {
    if ((long) width * height * bands != pixels.length) {
      throw new IllegalArgumentException(
          pixels.length + " samples for " + width + "x" + height + "x" + bands);
    }
    clearError();
    try (Arena call = Arena.ofConfined()) {
      MemorySegment data = call.allocateFrom(JAVA_BYTE, pixels);
      MemorySegment image =
          (MemorySegment)
              newFromMemoryCopy.invokeExact(
                  data, (long) pixels.length, width, height, bands, FORMAT_UCHAR);
      return wrap(image, "new_from_memory_copy");
    } catch (VipsException e) {
      throw e;
    } catch (Throwable e) {
      throw rethrow(e);
    }
  }

  /**
   * {@code vips_webpsave}: writes {@code image} to {@code file} as WebP (libwebp), alpha kept when
   * the image has it, no metadata ({@link #KEEP_NONE}).
   *
   * @param quality libwebp quality 1..100 (ignored when {@code lossless})
   * @param effort 0 (fastest) .. {@link #WEBP_MAX_EFFORT} (smallest); libvips' default is 4
   * @throws VipsException if encoding or writing fails
   */
  public void saveWebp(VipsImage image, Path file, int quality, boolean lossless, int effort) {
    clearError();
    try (Arena call = Arena.ofConfined()) {
      int status =
          (int)
              webpsave.invokeExact(
                  image.pointer(),
                  call.allocateFrom(file.toString()),
                  call.allocateFrom("Q"),
                  quality,
                  call.allocateFrom("lossless"),
                  lossless ? 1 : 0,
                  call.allocateFrom("effort"),
                  effort,
                  call.allocateFrom("keep"),
                  KEEP_NONE,
                  MemorySegment.NULL);
      if (status != 0) {
        throw new VipsException("webpsave: " + takeError());
      }
    } catch (VipsException e) {
      throw e;
    } catch (Throwable e) {
      throw rethrow(e);
    }
  }

  /**
   * {@code vips_heifsave} with {@link #HEIF_COMPRESSION_AV1}: writes {@code image} to {@code file}
   * as 8-bit AVIF (libheif with aom), alpha kept when the image has it, no metadata ({@link
   * #KEEP_NONE}); chroma 4:2:0 below quality 90, 4:4:4 from 90 (libvips' automatic subsampling).
   *
   * @param quality 1..100
   * @param effort 0 (fastest) .. {@link #HEIF_MAX_EFFORT} (smallest); libvips' default is 4
   * @throws VipsException if encoding or writing fails
   */
  public void saveAvif(VipsImage image, Path file, int quality, int effort) {
    clearError();
    try (Arena call = Arena.ofConfined()) {
      int status =
          (int)
              heifsave.invokeExact(
                  image.pointer(),
                  call.allocateFrom(file.toString()),
                  call.allocateFrom("Q"),
                  quality,
                  call.allocateFrom("compression"),
                  HEIF_COMPRESSION_AV1,
                  call.allocateFrom("bitdepth"),
                  8,
                  call.allocateFrom("effort"),
                  effort,
                  call.allocateFrom("keep"),
                  KEEP_NONE,
                  MemorySegment.NULL);
      if (status != 0) {
        throw new VipsException("heifsave: " + takeError());
      }
    } catch (VipsException e) {
      throw e;
    } catch (Throwable e) {
      throw rethrow(e);
    }
  }

  private VipsImage result(int status, MemorySegment out, String what) {
    MemorySegment image = out.get(ADDRESS, 0);
    if (status != 0) {
      if (image.address() != 0) {
        unref(image);
      }
      throw new VipsException(what + ": " + takeError());
    }
    return wrap(image, what);
  }

  private VipsImage wrap(MemorySegment image, String what) {
    if (image.address() == 0) {
      throw new VipsException(what + ": " + takeError());
    }
    return new VipsImage(this, image);
  }

  void unref(MemorySegment object) {
    try {
      objectUnref.invokeExact(object);
    } catch (Throwable e) {
      throw rethrow(e);
    }
  }

  /**
   * Empties libvips' error buffer before a call, so a failure reports its own message (libvips also
   * leaves text there for problems it recovered from).
   */
  void clearError() {
    try {
      errorClear.invokeExact();
    } catch (Throwable e) {
      throw rethrow(e);
    }
  }

  /** libvips' error buffer, trimmed, then cleared. */
  String takeError() {
    try {
      String text = string((MemorySegment) errorBuffer.invokeExact()).strip();
      errorClear.invokeExact();
      return text.isEmpty() ? "(libvips gave no message)" : text;
    } catch (Throwable e) {
      throw rethrow(e);
    }
  }

  /** A NUL-terminated C string of unknown length. */
  static String string(MemorySegment pointer) {
    return pointer.address() == 0 ? "" : pointer.reinterpret(Long.MAX_VALUE).getString(0);
  }

  /** The value of a string header field, e.g. {@code heif-compression}. */
  Optional<String> string(MemorySegment image, String field) {
    try (Arena call = Arena.ofConfined()) {
      MemorySegment name = call.allocateFrom(field);
      if ((long) typeOf.invokeExact(image, name) == 0L) {
        return Optional.empty();
      }
      MemorySegment out = call.allocate(ADDRESS);
      if ((int) getString.invokeExact(image, name, out) != 0) {
        takeError();
        return Optional.empty();
      }
      return Optional.of(string(out.get(ADDRESS, 0)));
    } catch (Throwable e) {
      throw rethrow(e);
    }
  }

  static RuntimeException rethrow(Throwable e) {
    if (e instanceof RuntimeException r) {
      return r;
    }
    if (e instanceof Error error) {
      throw error;
    }
    return new IllegalStateException(e);
  }

  /** Binds C functions of one library, naming a missing symbol in the error. */
  private record Binder(Linker linker, SymbolLookup symbols) {
    MethodHandle bind(String name, FunctionDescriptor descriptor) {
      return linker.downcallHandle(find(name), descriptor);
    }

    MethodHandle variadic(String name, FunctionDescriptor descriptor, int firstVariadic) {
      return linker.downcallHandle(
          find(name), descriptor, Linker.Option.firstVariadicArg(firstVariadic));
    }

    private MemorySegment find(String name) {
      return symbols
          .find(name)
          .orElseThrow(() -> new VipsUnavailableException("libvips lacks " + name, null));
    }
  }
}
