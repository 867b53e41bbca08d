package dev.derive.worker.libvips;

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
import java.util.OptionalInt;

/**
 * libvips (the prebuilt {@code libvips-cpp.so} of npm's {@code @img/sharp-libvips-linux-*} 1.3.4,
 * libvips 8.18.7) called through {@code java.lang.foreign}. Only the C functions Derive's
 * capabilities need are bound, each with its exact C signature: a wrong layout on a variadic call
 * crashes the JVM, so every method here is exercised by {@code VipsTest}.
 *
 * <p>The library is loaded from one absolute path found through a setting ({@link #PATH_PROPERTY},
 * {@link #PATH_ENVIRONMENT}), by default {@value #DEFAULT_PATH}: where Lambda extracts the libvips
 * layer of {@code template.yaml}. Before loading it, the GNU C++ runtime it links against ({@link
 * #CXX_RUNTIME}) is looked for, so a system without it is reported as such.
 *
 * <p>Set up once per process ({@link #shared()}): {@code vips_init}, the operation cache disabled
 * ({@code vips_cache_set_max(0)}, memory and files 0: a worker never repeats an operation, and a
 * cache would keep decoded images alive off-heap), {@code vips_concurrency_set} to the number of
 * processors (Lambda gives about one vCPU per 1769 MB).
 *
 * <p>libvips' error buffer is process-wide: a failure's message is read and cleared right after the
 * failing call; concurrent failures on two threads may see each other's text, never a crash.
 *
 * <p>Far over 300 lines on purpose: it is the one binding of libvips' C API. Each bound function is
 * a handle with its exact C layout (its prototype in libvips' headers; a mistake crashes the JVM)
 * and a short wrapper turning its status and the error buffer into {@link VipsException}; they
 * share the library's lookup, arena, error buffer and once-per-process set-up, so one reading
 * checks every layout against the headers. The other part, finding the library ({@link
 * #candidates()}, the C++ runtime check), runs once inside {@link #shared()}.
 */
// Over 300 lines because it is the binding: each C function's descriptor beside its call.
public final class Vips {
  private static final System.Logger LOG = System.getLogger(Vips.class.getName());

  /** The shared object inside the npm package, under {@code lib/}. */
  public static final String LIBRARY_FILE = "libvips-cpp.so.8.18.7";

  /**
   * System property naming where libvips is: the {@code .so} itself, a folder holding it, a folder
   * laid out as a layer ({@code lib/libvips-cpp.so.8.18.7}, i.e. what Lambda extracts to {@code
   * /opt}), or a folder of such layers by platform ({@code <platform>/lib/...}: the build's {@code
   * worker-functions/libvips/target/layer}). Environment variable {@link #PATH_ENVIRONMENT} when
   * the property is unset; {@value #DEFAULT_PATH} when neither is.
   */
  public static final String PATH_PROPERTY = "derive.libvips.path";

  /** Environment variable equivalent of {@link #PATH_PROPERTY}. */
  public static final String PATH_ENVIRONMENT = "DERIVE_LIBVIPS_PATH";

  /** Where Lambda extracts the libvips layer's {@code lib/} folder: the default setting. */
  public static final String DEFAULT_PATH = "/opt/lib";

  /**
   * The shared objects {@code libvips-cpp.so.8.18.7} needs beyond glibc (its {@code DT_NEEDED}
   * entries, {@code readelf -d}): the GNU C++ runtime, {@code libstdc++} with {@code
   * GLIBCXX_3.4.22} or newer ({@code objdump -T}) and {@code libgcc_s}. Lambda's Amazon Linux 2023
   * images have both (docs/libvips.md); a copy put beside the library is found too (its {@code
   * RUNPATH} is {@code $ORIGIN}).
   */
  public static final List<String> CXX_RUNTIME = List.of("libstdc++.so.6", "libgcc_s.so.1");

  /** {@code VipsSize} values of {@code vips_thumbnail}'s {@code size} option. */
  public static final int SIZE_DOWN = 2;

  /** {@code VipsFailOn}: fail on decoder errors (truncated data included), not on warnings. */
  public static final int FAIL_ON_ERROR = 2;

  /** {@code VipsInterpretation} values used here (libvips' {@code image.h}). */
  public static final int INTERPRETATION_SRGB = 22;

  /** {@code VipsInterpretation} of CMYK. */
  public static final int INTERPRETATION_CMYK = 15;

  /** {@code VipsInterpretation} of grey ({@code b-w}). */
  public static final int INTERPRETATION_B_W = 1;

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

  /** Lowest {@code effort} of {@code vips_gifsave} (cgif's palette search, 1..10; default 7). */
  public static final int GIF_MIN_EFFORT = 1;

  /** Highest {@code effort} of {@code vips_gifsave}. */
  public static final int GIF_MAX_EFFORT = 10;

  /**
   * {@code VipsAccess} of a load read top to bottom once: libvips streams the pixels instead of
   * decoding the whole image into memory (or a temporary file) first.
   */
  public static final int ACCESS_SEQUENTIAL = 1;

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
  private final MethodHandle imageNewFromFileSequential;
  private final MethodHandle extractArea;
  private final MethodHandle copyMemory;
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
  final MethodHandle orientation;
  final MethodHandle typeOf;
  final MethodHandle getString;
  final MethodHandle getBlob;
  private final MethodHandle getInt;
  private final MethodHandle setInt;
  private final MethodHandle getArrayInt;
  final MethodHandle writeToMemory;
  private final MethodHandle newFromMemoryCopy;
  private final MethodHandle webpsave;
  private final MethodHandle heifsave;
  private final MethodHandle gifsave;
  private final VipsOperation.Handles operations;

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
    imageNewFromFileSequential =
        b.variadic(
            "vips_image_new_from_file",
            FunctionDescriptor.of(
                ADDRESS, ADDRESS, // name
                ADDRESS, JAVA_INT, // "access", VipsAccess
                ADDRESS, JAVA_INT, // "fail_on", VipsFailOn
                ADDRESS), // NULL
            1);
    // int vips_extract_area(VipsImage *in, VipsImage **out, int left, int top, int width,
    //     int height, ...)
    extractArea =
        b.variadic(
            "vips_extract_area",
            FunctionDescriptor.of(
                JAVA_INT, ADDRESS, ADDRESS, JAVA_INT, JAVA_INT, JAVA_INT, JAVA_INT, ADDRESS),
            6);
    // VipsImage *vips_image_copy_memory(VipsImage *image): not variadic
    copyMemory = b.bind("vips_image_copy_memory", FunctionDescriptor.of(ADDRESS, ADDRESS));
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
                ADDRESS, JAVA_INT, // "no_rotate", gboolean
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
    // int vips_image_get_orientation(VipsImage *image): the "orientation" field, 1 when unset
    orientation = b.bind("vips_image_get_orientation", FunctionDescriptor.of(JAVA_INT, ADDRESS));
    // GType (gsize) vips_image_get_typeof(const VipsImage *image, const char *name)
    typeOf = b.bind("vips_image_get_typeof", FunctionDescriptor.of(JAVA_LONG, ADDRESS, ADDRESS));
    // int vips_image_get_string(const VipsImage *image, const char *name, const char **out)
    getString =
        b.bind("vips_image_get_string", FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, ADDRESS));
    // int vips_image_get_int(const VipsImage *image, const char *name, int *out)
    getInt =
        b.bind("vips_image_get_int", FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, ADDRESS));
    // int vips_image_get_array_int(VipsImage *image, const char *name, int **out, int *n)
    getArrayInt =
        b.bind(
            "vips_image_get_array_int",
            FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, ADDRESS, ADDRESS));
    // void vips_image_set_int(VipsImage *image, const char *name, int i)
    setInt = b.bind("vips_image_set_int", FunctionDescriptor.ofVoid(ADDRESS, ADDRESS, JAVA_INT));
    // int vips_image_get_blob(const VipsImage *image, const char *name, const void **data,
    //     size_t *length)
    getBlob =
        b.bind(
            "vips_image_get_blob",
            FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, ADDRESS, ADDRESS));
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
    // int vips_gifsave(VipsImage *in, const char *filename, ...)
    gifsave =
        b.variadic(
            "vips_gifsave",
            FunctionDescriptor.of(
                JAVA_INT, ADDRESS, ADDRESS, // in, filename
                ADDRESS, JAVA_INT, // "effort", int
                ADDRESS, JAVA_INT, // "keep", VipsForeignKeep
                ADDRESS), // NULL
            2);
    operations = VipsOperation.Handles.bind(b);
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
          requireCxxRuntime(candidate, CXX_RUNTIME);
          shared = new Vips(candidate);
          LOG.log(
              System.Logger.Level.INFO,
              "libvips " + shared.version() + " loaded from " + candidate);
          return shared;
        } catch (RuntimeException | LinkageError e) {
          tried.add(candidate + " (" + e.getMessage() + ")");
          unavailable =
              new VipsUnavailableException(
                  "libvips cannot be loaded: " + String.join(", ", tried) + cxxHint(e), e);
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
                  + PATH_ENVIRONMENT
                  + " (default "
                  + DEFAULT_PATH
                  + ", the libvips layer on Lambda)",
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
   * Where libvips is looked for, from {@link #PATH_PROPERTY}, else {@link #PATH_ENVIRONMENT}, else
   * {@value #DEFAULT_PATH}: the file itself (an existing file, or a name starting with {@code
   * libvips}), else in that folder {@code <platform>/lib/}, {@code lib/} and the folder itself, in
   * that order; {@code <platform>} is {@code linux-x64} or {@code linux-arm64} as npm names them.
   * Every path is absolute (a relative setting is taken from the working folder): the library is
   * never searched for by name.
   */
  public static List<Path> candidates() {
    String setting = System.getProperty(PATH_PROPERTY, System.getenv(PATH_ENVIRONMENT));
    Path path =
        Path.of(setting == null || setting.isBlank() ? DEFAULT_PATH : setting)
            .toAbsolutePath()
            .normalize();
    if (Files.isRegularFile(path) || path.getFileName().toString().startsWith("libvips")) {
      return List.of(path);
    }
    return List.of(
        path.resolve(platform()).resolve("lib").resolve(LIBRARY_FILE),
        path.resolve("lib").resolve(LIBRARY_FILE),
        path.resolve(LIBRARY_FILE));
  }

  /**
   * Checks that each of {@code names} (shared objects {@code library} needs, such as {@link
   * #CXX_RUNTIME}) can be loaded: by the system's search (the loader's default paths and {@code
   * LD_LIBRARY_PATH}, which on Lambda ends with {@code /opt/lib}) or as a file beside {@code
   * library} (its {@code RUNPATH} {@code $ORIGIN}).
   *
   * @throws VipsUnavailableException naming the missing ones and where they were looked for
   */
  static void requireCxxRuntime(Path library, List<String> names) {
    List<String> missing = new ArrayList<>();
    for (String name : names) {
      if (Files.isRegularFile(library.resolveSibling(name))) {
        continue;
      }
      try {
        SymbolLookup.libraryLookup(name, Arena.global());
      } catch (IllegalArgumentException e) {
        missing.add(name);
      }
    }
    if (!missing.isEmpty()) {
      throw new VipsUnavailableException(
          "libvips ("
              + library
              + ") needs the GNU C++ runtime, and "
              + String.join(" and ", missing)
              + (missing.size() == 1 ? " is" : " are")
              + " not installed (looked in the system library path, LD_LIBRARY_PATH and "
              + library.getParent()
              + "): add libstdc++.so.6 (GLIBCXX_3.4.22 or newer) and libgcc_s.so.1 to the"
              + " layer's lib/ folder",
          null);
    }
  }

  /** A sentence for a load failure caused by a C++ runtime older than libvips needs, else "". */
  private static String cxxHint(Throwable e) {
    String message = String.valueOf(e.getMessage());
    return message.contains("GLIBCXX") || message.contains("CXXABI")
        ? "; the system's libstdc++ is older than libvips needs (GLIBCXX_3.4.22): add a newer"
            + " libstdc++.so.6 to the layer's lib/ folder"
        : "";
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
   * The libvips operation called {@code name} (e.g. {@code gaussblur}, {@code smartcrop}), its
   * arguments set by name: {@link VipsOperation}.
   */
  public VipsOperation operation(String name) {
    return new VipsOperation(this, operations, name);
  }

  /**
   * Opens {@code file} reading its header only (pixels are decoded on demand), the loader chosen by
   * libvips from the file's first bytes.
   *
   * @throws VipsException if no loader recognises the file or its header is unreadable
   */
  public VipsImage open(Path file) {
    return call(
        call -> {
          MemorySegment image =
              (MemorySegment)
                  imageNewFromFile.invokeExact(
                      call.allocateFrom(file.toString()), MemorySegment.NULL);
          return wrap(image, "open " + file.getFileName());
        });
  }

  /**
   * Opens {@code file} as {@link #open} does, for one pass from top to bottom ({@link
   * #ACCESS_SEQUENTIAL}: pixels are streamed, never the whole image held first) failing on decoder
   * errors ({@link #FAIL_ON_ERROR}, truncated data included). Reading rows twice or out of order (a
   * rotation) fails; cut the rows needed out first ({@link #extractArea}, {@link #copyMemory}).
   *
   * @throws VipsException if no loader recognises the file or its header is unreadable
   */
  public VipsImage openSequential(Path file) {
    return call(
        call -> {
          MemorySegment image =
              (MemorySegment)
                  imageNewFromFileSequential.invokeExact(
                      call.allocateFrom(file.toString()),
                      call.allocateFrom("access"),
                      ACCESS_SEQUENTIAL,
                      call.allocateFrom("fail_on"),
                      FAIL_ON_ERROR,
                      MemorySegment.NULL);
          return wrap(image, "open " + file.getFileName());
        });
  }

  /**
   * {@code vips_extract_area}: the {@code width} x {@code height} pixels of {@code image} whose top
   * left corner is at {@code left}, {@code top} (lazily: only the rows above and in it are
   * decoded). The image's metadata (e.g. its EXIF orientation) is kept.
   *
   * @throws VipsException if the area does not lie inside the image
   */
  public VipsImage extractArea(VipsImage image, int left, int top, int width, int height) {
    return image(
        "extract_area",
        (call, out) ->
            (int)
                extractArea.invokeExact(
                    image.pointer(), out, left, top, width, height, MemorySegment.NULL));
  }

  /**
   * {@code vips_image_copy_memory}: computes every pixel of {@code image} into a memory buffer
   * (width x height x bands x sample size bytes, off-heap) and returns that as a new image, which
   * later operations may read in any order.
   *
   * @throws VipsException if decoding fails
   */
  public VipsImage copyMemory(VipsImage image) {
    clearError();
    try {
      MemorySegment copy = (MemorySegment) copyMemory.invokeExact(image.pointer());
      return wrap(copy, "copy_memory");
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
    return call(
        call -> {
          MemorySegment out = call.allocate(ADDRESS);
          MemorySegment name = call.allocateFrom(file.toString());
          int status =
              page < 0
                  ? (int) heifload.invokeExact(name, out, MemorySegment.NULL)
                  : (int)
                      heifloadPage.invokeExact(
                          name, out, call.allocateFrom("page"), page, MemorySegment.NULL);
          return result(status, out, "heifload " + file.getFileName());
        });
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
    return image(
        "thumbnail " + file.getFileName(),
        (call, out) ->
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
                    MemorySegment.NULL));
  }

  /**
   * {@code vips_thumbnail_image}: as {@link #thumbnail} on an image already opened (no
   * shrink-on-load; libvips still avoids decoding more than it needs), turned upright from its EXIF
   * orientation.
   *
   * @throws VipsException if the image cannot be decoded
   */
  public VipsImage thumbnail(VipsImage image, int width, int height) {
    return thumbnail(image, width, height, true);
  }

  /**
   * {@code vips_thumbnail_image} as {@link #thumbnail(VipsImage, int, int)}, turning the image
   * upright from its orientation tag only when {@code autoRotate} ({@code no_rotate} otherwise: for
   * a region cut out of the stored image, which the caller turns itself).
   *
   * @throws VipsException if the image cannot be decoded
   */
  public VipsImage thumbnail(VipsImage image, int width, int height, boolean autoRotate) {
    return image(
        "thumbnail_image",
        (call, out) ->
            (int)
                thumbnailImage.invokeExact(
                    image.pointer(),
                    out,
                    width,
                    call.allocateFrom("height"),
                    height,
                    call.allocateFrom("size"),
                    SIZE_DOWN,
                    call.allocateFrom("no_rotate"),
                    autoRotate ? 0 : 1,
                    call.allocateFrom("fail_on"),
                    FAIL_ON_ERROR,
                    call.allocateFrom("export_profile"),
                    call.allocateFrom("srgb"),
                    MemorySegment.NULL));
  }

  /**
   * {@code vips_resize}: scales {@code image} by {@code scale} (Lanczos 3), keeping its band format
   * (16-bit stays 16-bit).
   *
   * @throws VipsException if the image cannot be decoded
   */
  public VipsImage resize(VipsImage image, double scale) {
    return image(
        "resize",
        (call, out) -> (int) resize.invokeExact(image.pointer(), out, scale, MemorySegment.NULL));
  }

  /**
   * {@code vips_colourspace}: converts {@code image} to {@code interpretation} (e.g. {@link
   * #INTERPRETATION_SRGB}: grey, 16-bit and CMYK images become 8-bit sRGB, alpha kept).
   *
   * @throws VipsException if libvips has no such conversion
   */
  public VipsImage colourspace(VipsImage image, int interpretation) {
    return image(
        "colourspace",
        (call, out) ->
            (int)
                colourspace.invokeExact(image.pointer(), out, interpretation, MemorySegment.NULL));
  }

  /**
   * {@code vips_cast}: converts the band format (values clipped, not scaled), e.g. to {@link
   * #FORMAT_UCHAR}.
   *
   * @throws VipsException on failure
   */
  public VipsImage cast(VipsImage image, int bandFormat) {
    return image(
        "cast",
        (call, out) ->
            (int) cast.invokeExact(image.pointer(), out, bandFormat, MemorySegment.NULL));
  }

  /**
   * {@code vips_image_new_from_memory_copy}: an 8-bit image ({@link #FORMAT_UCHAR}) holding a copy
   * of {@code pixels}, band-interleaved row after row, tagged as what it holds: 3 bands sRGB, 4
   * sRGB with alpha, 1 grey, 2 grey with alpha. The tag matters: libvips leaves an image made from
   * memory {@code multiband}, which its savers read differently (gifsave took a 4-band multiband
   * image for one without alpha and wrote every other column transparent, issue 30 item 1).
   *
   * @param pixels exactly {@code width x height x bands} samples
   * @throws IllegalArgumentException if the array length does not match the size or {@code bands}
   *     is not 1 to 4
   * @throws VipsException if libvips refuses the image
   */
  public VipsImage fromPixels(byte[] pixels, int width, int height, int bands) {
    if ((long) width * height * bands != pixels.length) {
      throw new IllegalArgumentException(
          pixels.length + " samples for " + width + "x" + height + "x" + bands);
    }
    if (bands < 1 || bands > 4) {
      throw new IllegalArgumentException(bands + " bands: 1 to 4 (grey or sRGB, alpha last)");
    }
    try (VipsImage untagged =
        call(
            call -> {
              MemorySegment data = call.allocateFrom(JAVA_BYTE, pixels);
              MemorySegment image =
                  (MemorySegment)
                      newFromMemoryCopy.invokeExact(
                          data, (long) pixels.length, width, height, bands, FORMAT_UCHAR);
              return wrap(image, "new_from_memory_copy");
            })) {
      return operation("copy")
          .set("in", untagged)
          .set("interpretation", bands >= 3 ? "srgb" : "b-w")
          .image();
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
    save(
        "webpsave",
        call ->
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
                    MemorySegment.NULL));
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
    save(
        "heifsave",
        call ->
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
                    MemorySegment.NULL));
  }

  /**
   * {@code vips_gifsave}: writes {@code image} to {@code file} as a GIF (cgif, palette by
   * libimagequant with dithering), alpha thresholded to GIF's one transparent colour, no metadata
   * ({@link #KEEP_NONE}).
   *
   * @param effort {@link #GIF_MIN_EFFORT} (fastest) .. {@link #GIF_MAX_EFFORT} (best palette);
   *     libvips' default is 7
   * @throws IllegalArgumentException if {@code effort} is outside that range (libvips would only
   *     warn)
   * @throws VipsException if encoding or writing fails
   */
  public void saveGif(VipsImage image, Path file, int effort) {
    if (effort < GIF_MIN_EFFORT || effort > GIF_MAX_EFFORT) {
      throw new IllegalArgumentException("gif effort must be 1..10, not " + effort);
    }
    save(
        "gifsave",
        call ->
            (int)
                gifsave.invokeExact(
                    image.pointer(),
                    call.allocateFrom(file.toString()),
                    call.allocateFrom("effort"),
                    effort,
                    call.allocateFrom("keep"),
                    KEEP_NONE,
                    MemorySegment.NULL));
  }

  /**
   * The one shape of a libvips call: clears libvips' error buffer, runs {@code body} with a
   * confined arena for its arguments (freed after the call), lets a {@link VipsException} through
   * and turns anything else a downcall throws into an unchecked exception ({@link #rethrow}).
   */
  private <T> T call(Call<T> body) {
    clearError();
    try (Arena arena = Arena.ofConfined()) {
      return body.run(arena);
    } catch (VipsException e) {
      throw e;
    } catch (Throwable e) {
      throw rethrow(e);
    }
  }

  /**
   * A saver's {@link #call}: a status other than 0 fails with libvips' error, named {@code what}.
   */
  private void save(String what, Call<Integer> body) {
    int status = call(body);
    if (status != 0) {
      throw new VipsException(what + ": " + takeError());
    }
  }

  /** The body of a libvips call, given the arena of its arguments. */
  @FunctionalInterface
  private interface Call<T> {
    T run(Arena call) throws Throwable;
  }

  /**
   * A {@link #call} of a libvips operation that writes a new image to its {@code out} argument and
   * returns a status: the image, or a {@link VipsException} with libvips' error, named {@code
   * what}.
   */
  private VipsImage image(String what, ImageCall body) {
    return call(
        call -> {
          MemorySegment out = call.allocate(ADDRESS);
          return result(body.run(call, out), out, what);
        });
  }

  /** The body of an image-making libvips call: its status, given its arena and its output. */
  @FunctionalInterface
  private interface ImageCall {
    int run(Arena call, MemorySegment out) throws Throwable;
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

  /** The bytes of a blob header field (e.g. an ICC profile), copied, or empty without it. */
  Optional<byte[]> blob(MemorySegment image, String field) {
    try (Arena call = Arena.ofConfined()) {
      MemorySegment name = call.allocateFrom(field);
      if ((long) typeOf.invokeExact(image, name) == 0L) {
        return Optional.empty();
      }
      MemorySegment data = call.allocate(ADDRESS);
      MemorySegment length = call.allocate(JAVA_LONG);
      if ((int) getBlob.invokeExact(image, name, data, length) != 0) {
        takeError();
        return Optional.empty();
      }
      return Optional.of(
          data.get(ADDRESS, 0).reinterpret(length.get(JAVA_LONG, 0)).toArray(JAVA_BYTE));
    } catch (Throwable e) {
      throw rethrow(e);
    }
  }

  /** Whether {@code image}'s header has {@code field} ({@code vips_image_get_typeof} not 0). */
  boolean has(MemorySegment image, String field) {
    try (Arena call = Arena.ofConfined()) {
      return (long) typeOf.invokeExact(image, call.allocateFrom(field)) != 0L;
    } catch (Throwable e) {
      throw rethrow(e);
    }
  }

  /** The value of an int header field, or empty without it (see {@link VipsImage#integer}). */
  OptionalInt integer(MemorySegment image, String field) {
    try (Arena call = Arena.ofConfined()) {
      MemorySegment name = call.allocateFrom(field);
      MemorySegment out = call.allocate(JAVA_INT);
      if ((int) getInt.invokeExact(image, name, out) != 0) {
        takeError();
        return OptionalInt.empty();
      }
      return OptionalInt.of(out.get(JAVA_INT, 0));
    } catch (Throwable e) {
      throw rethrow(e);
    }
  }

  /** The values of an int-array header field, or empty without it (see {@link VipsImage#ints}). */
  Optional<int[]> ints(MemorySegment image, String field) {
    try (Arena call = Arena.ofConfined()) {
      MemorySegment name = call.allocateFrom(field);
      if ((long) typeOf.invokeExact(image, name) == 0L) {
        return Optional.empty();
      }
      MemorySegment out = call.allocate(ADDRESS);
      MemorySegment count = call.allocate(JAVA_INT);
      if ((int) getArrayInt.invokeExact(image, name, out, count) != 0) {
        takeError();
        return Optional.empty();
      }
      int n = count.get(JAVA_INT, 0);
      return Optional.of(
          n == 0
              ? new int[0]
              : out.get(ADDRESS, 0).reinterpret(JAVA_INT.byteSize() * n).toArray(JAVA_INT));
    } catch (Throwable e) {
      throw rethrow(e);
    }
  }

  /** Sets an int header field of {@code image} (see {@link VipsImage#set}). */
  void setInteger(MemorySegment image, String field, int value) {
    try (Arena call = Arena.ofConfined()) {
      setInt.invokeExact(image, call.allocateFrom(field), value);
    } catch (Throwable e) {
      throw rethrow(e);
    }
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
  record Binder(Linker linker, SymbolLookup symbols) {
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
