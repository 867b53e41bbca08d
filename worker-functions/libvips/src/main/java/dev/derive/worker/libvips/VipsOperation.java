package dev.derive.worker.libvips;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_DOUBLE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Any libvips operation by name, its arguments set and read through GObject properties, the way
 * pyvips and ruby-vips call libvips: {@code vips_operation_new}, each argument's type read from its
 * {@code GParamSpec} ({@code vips_object_get_argument}), a {@code GValue} of that type set ({@code
 * g_object_set_property}), {@code vips_cache_operation_build}, outputs read back ({@code
 * g_object_get_property}). A wrong argument name or value type is a {@link VipsException} naming
 * it, never a crash: no call here has a variadic layout to get wrong.
 *
 * <pre>{@code
 * try (VipsImage blurred = vips.operation("gaussblur").set("in", image).set("sigma", 2.0).image()) …
 * Map<String, Object> box = vips.operation("find_trim").set("in", image).run("left", "top", "width", "height");
 * }</pre>
 *
 * <p>Values: {@code Integer}, {@code Double}, {@code Boolean}, {@code String} (for an enum or flags
 * argument its nick, e.g. {@code "attention"}), {@link VipsImage}, {@code double[]}, {@code int[]},
 * {@code VipsImage[]} and {@code byte[]} (a {@code VipsBlob}, e.g. a loader's {@code buffer},
 * copied). Outputs come back as {@code Integer}, {@code Double}, {@code Boolean}, {@code String},
 * {@code double[]} or a new {@link VipsImage} reference the caller closes.
 */
// Over 300 lines because the generic call is one GObject protocol: create, set, build, read.
public final class VipsOperation {
  /** GLib's fundamental types (gtype.h: {@code G_TYPE_MAKE_FUNDAMENTAL(n)} = n << 2). */
  private static final long G_TYPE_BOOLEAN = 5 << 2;

  private static final long G_TYPE_INT = 6 << 2;
  private static final long G_TYPE_UINT64 = 11 << 2;
  private static final long G_TYPE_ENUM = 12 << 2;
  private static final long G_TYPE_FLAGS = 13 << 2;
  private static final long G_TYPE_DOUBLE = 15 << 2;
  private static final long G_TYPE_STRING = 16 << 2;
  private static final long G_TYPE_BOXED = 18 << 2;
  private static final long G_TYPE_OBJECT = 20 << 2;

  /** {@code sizeof(GValue)} on LP64: a {@code GType} and two 8-byte data words. */
  private static final long GVALUE_SIZE = 24;

  /** Offset of {@code value_type} in {@code GParamSpec} (instance, name, flags + padding). */
  private static final long PSPEC_VALUE_TYPE = 24;

  private final Vips vips;
  private final Handles h;
  private final String name;
  private final Map<String, Object> inputs = new LinkedHashMap<>();

  VipsOperation(Vips vips, Handles handles, String name) {
    this.vips = vips;
    this.h = handles;
    this.name = name;
  }

  /** Sets input {@code argument} to {@code value}; a {@code null} value leaves it unset. */
  public VipsOperation set(String argument, Object value) {
    if (value != null) {
      inputs.put(argument, value);
    }
    return this;
  }

  /**
   * Runs the operation and returns its output {@code out}, a new reference.
   *
   * @throws VipsException if libvips refuses an argument or the operation fails
   */
  public VipsImage image() {
    return (VipsImage) run("out").get("out");
  }

  /**
   * Runs the operation and returns the named outputs (images as new references the caller closes).
   *
   * @throws VipsException if libvips refuses an argument or the operation fails
   */
  public Map<String, Object> run(String... outputs) {
    vips.clearError();
    try (Arena call = Arena.ofConfined()) {
      MemorySegment op = (MemorySegment) h.operationNew.invokeExact(call.allocateFrom(name));
      if (op.address() == 0) {
        throw new VipsException(name + ": " + vips.takeError());
      }
      MemorySegment built = MemorySegment.NULL;
      try {
        for (Map.Entry<String, Object> input : inputs.entrySet()) {
          setProperty(call, op, input.getKey(), input.getValue());
        }
        built = (MemorySegment) h.cacheOperationBuild.invokeExact(op);
        if (built.address() == 0) {
          throw new VipsException(name + ": " + vips.takeError());
        }
        Map<String, Object> result = new LinkedHashMap<>();
        for (String output : outputs) {
          result.put(output, getProperty(call, built, output));
        }
        return result;
      } finally {
        MemorySegment last = built.address() != 0 ? built : op;
        h.unrefOutputs.invokeExact(last);
        vips.unref(op);
        if (built.address() != 0) {
          vips.unref(built);
        }
      }
    } catch (VipsException e) {
      throw e;
    } catch (Throwable e) {
      throw Vips.rethrow(e);
    }
  }

  /** The {@code GType} of argument {@code argument} of {@code object}. */
  private long argumentType(Arena call, MemorySegment object, String argument) throws Throwable {
    MemorySegment pspec = call.allocate(ADDRESS);
    MemorySegment argClass = call.allocate(ADDRESS);
    MemorySegment argInstance = call.allocate(ADDRESS);
    int status =
        (int)
            h.getArgument.invokeExact(
                object, call.allocateFrom(argument), pspec, argClass, argInstance);
    if (status != 0) {
      throw new VipsException(name + ": no argument " + argument + ": " + vips.takeError());
    }
    return pspec.get(ADDRESS, 0).reinterpret(PSPEC_VALUE_TYPE + 8).get(JAVA_LONG, PSPEC_VALUE_TYPE);
  }

  private void setProperty(Arena call, MemorySegment op, String argument, Object value)
      throws Throwable {
    long type = argumentType(call, op, argument);
    long fundamental = (long) h.typeFundamental.invokeExact(type);
    MemorySegment gvalue = call.allocate(GVALUE_SIZE, 8);
    MemorySegment ignored = (MemorySegment) h.valueInit.invokeExact(gvalue, type);
    try {
      if (fundamental == G_TYPE_INT && value instanceof Integer i) {
        h.setInt.invokeExact(gvalue, (int) i);
      } else if (fundamental == G_TYPE_UINT64 && value instanceof Number n) {
        h.setUint64.invokeExact(gvalue, n.longValue());
      } else if (fundamental == G_TYPE_DOUBLE && value instanceof Number n) {
        h.setDouble.invokeExact(gvalue, n.doubleValue());
      } else if (fundamental == G_TYPE_BOOLEAN && value instanceof Boolean b) {
        h.setBoolean.invokeExact(gvalue, b ? 1 : 0);
      } else if (fundamental == G_TYPE_STRING && value instanceof String s) {
        h.setString.invokeExact(gvalue, call.allocateFrom(s));
      } else if ((fundamental == G_TYPE_ENUM || fundamental == G_TYPE_FLAGS)
          && (value instanceof String || value instanceof Integer)) {
        int code =
            value instanceof Integer i
                ? i
                : fundamental == G_TYPE_ENUM
                    ? (int)
                        h.enumFromNick.invokeExact(
                            call.allocateFrom(name), type, call.allocateFrom((String) value))
                    : (int)
                        h.flagsFromNick.invokeExact(
                            call.allocateFrom(name), type, call.allocateFrom((String) value));
        if (code < 0) {
          throw new VipsException(
              name + ": " + argument + " has no value " + value + ": " + vips.takeError());
        }
        if (fundamental == G_TYPE_ENUM) {
          h.setEnum.invokeExact(gvalue, code);
        } else {
          h.setFlags.invokeExact(gvalue, code);
        }
      } else if (fundamental == G_TYPE_OBJECT && value instanceof VipsImage image) {
        h.setObject.invokeExact(gvalue, image.pointer());
      } else if (fundamental == G_TYPE_BOXED && value instanceof double[] doubles) {
        int unused =
            (int)
                h.setArrayDouble.invokeExact(
                    gvalue, call.allocateFrom(JAVA_DOUBLE, doubles), doubles.length);
      } else if (fundamental == G_TYPE_BOXED && value instanceof int[] ints) {
        int unused =
            (int) h.setArrayInt.invokeExact(gvalue, call.allocateFrom(JAVA_INT, ints), ints.length);
      } else if (fundamental == G_TYPE_BOXED && value instanceof byte[] bytes) {
        MemorySegment blob =
            (MemorySegment)
                h.blobCopy.invokeExact(call.allocateFrom(JAVA_BYTE, bytes), (long) bytes.length);
        h.setBoxed.invokeExact(gvalue, blob);
        h.areaUnref.invokeExact(blob);
      } else if (fundamental == G_TYPE_BOXED && value instanceof VipsImage[] images) {
        h.setArrayImage.invokeExact(gvalue, images.length);
        MemorySegment count = call.allocate(JAVA_INT);
        MemorySegment array =
            ((MemorySegment) h.getArrayImage.invokeExact(gvalue, count))
                .reinterpret(ADDRESS.byteSize() * images.length);
        for (int i = 0; i < images.length; i++) {
          MemorySegment ref = (MemorySegment) h.objectRef.invokeExact(images[i].pointer());
          array.setAtIndex(ADDRESS, i, ref);
        }
      } else {
        throw new VipsException(
            name
                + ": "
                + argument
                + " cannot take a "
                + value.getClass().getSimpleName()
                + " (GType fundamental "
                + fundamental
                + ")");
      }
      h.setProperty.invokeExact(op, call.allocateFrom(argument), gvalue);
    } finally {
      h.valueUnset.invokeExact(gvalue);
    }
  }

  private Object getProperty(Arena call, MemorySegment op, String argument) throws Throwable {
    long type = argumentType(call, op, argument);
    long fundamental = (long) h.typeFundamental.invokeExact(type);
    MemorySegment gvalue = call.allocate(GVALUE_SIZE, 8);
    MemorySegment ignored = (MemorySegment) h.valueInit.invokeExact(gvalue, type);
    try {
      h.getProperty.invokeExact(op, call.allocateFrom(argument), gvalue);
      if (fundamental == G_TYPE_INT) {
        return (int) h.getInt.invokeExact(gvalue);
      } else if (fundamental == G_TYPE_DOUBLE) {
        return (double) h.getDouble.invokeExact(gvalue);
      } else if (fundamental == G_TYPE_BOOLEAN) {
        return ((int) h.getBoolean.invokeExact(gvalue)) != 0;
      } else if (fundamental == G_TYPE_ENUM) {
        return (int) h.getEnum.invokeExact(gvalue);
      } else if (fundamental == G_TYPE_STRING) {
        return Vips.string((MemorySegment) h.getString.invokeExact(gvalue));
      } else if (fundamental == G_TYPE_OBJECT) {
        MemorySegment object = (MemorySegment) h.getObject.invokeExact(gvalue);
        if (object.address() == 0) {
          return null;
        }
        return new VipsImage(vips, (MemorySegment) h.objectRef.invokeExact(object));
      } else if (fundamental == G_TYPE_BOXED) {
        MemorySegment count = call.allocate(JAVA_INT);
        MemorySegment data = (MemorySegment) h.getArrayDouble.invokeExact(gvalue, count);
        int n = count.get(JAVA_INT, 0);
        return data.address() == 0
            ? new double[0]
            : data.reinterpret(JAVA_DOUBLE.byteSize() * n).toArray(JAVA_DOUBLE);
      }
      throw new VipsException(
          name + ": cannot read output " + argument + " (GType fundamental " + fundamental + ")");
    } finally {
      h.valueUnset.invokeExact(gvalue);
    }
  }

  /** The GObject and libvips functions the generic call needs, bound once per {@link Vips}. */
  record Handles(
      MethodHandle operationNew,
      MethodHandle cacheOperationBuild,
      MethodHandle unrefOutputs,
      MethodHandle getArgument,
      MethodHandle typeFundamental,
      MethodHandle valueInit,
      MethodHandle valueUnset,
      MethodHandle setProperty,
      MethodHandle getProperty,
      MethodHandle setInt,
      MethodHandle setUint64,
      MethodHandle setDouble,
      MethodHandle setBoolean,
      MethodHandle setString,
      MethodHandle setEnum,
      MethodHandle setFlags,
      MethodHandle setObject,
      MethodHandle setArrayDouble,
      MethodHandle setArrayInt,
      MethodHandle setArrayImage,
      MethodHandle getArrayImage,
      MethodHandle getInt,
      MethodHandle getDouble,
      MethodHandle getBoolean,
      MethodHandle getEnum,
      MethodHandle getString,
      MethodHandle getObject,
      MethodHandle getArrayDouble,
      MethodHandle objectRef,
      MethodHandle enumFromNick,
      MethodHandle flagsFromNick,
      MethodHandle blobCopy,
      MethodHandle setBoxed,
      MethodHandle areaUnref) {

    /** Binds each function by its prototype in GLib's and libvips' headers (none variadic). */
    static Handles bind(Vips.Binder b) {
      FunctionDescriptor valueInt = FunctionDescriptor.ofVoid(ADDRESS, JAVA_INT);
      return new Handles(
          // VipsOperation *vips_operation_new(const char *name)
          b.bind("vips_operation_new", FunctionDescriptor.of(ADDRESS, ADDRESS)),
          // VipsOperation *vips_cache_operation_build(VipsOperation *operation)
          b.bind("vips_cache_operation_build", FunctionDescriptor.of(ADDRESS, ADDRESS)),
          // void vips_object_unref_outputs(VipsObject *object)
          b.bind("vips_object_unref_outputs", FunctionDescriptor.ofVoid(ADDRESS)),
          // int vips_object_get_argument(VipsObject *, const char *, GParamSpec **,
          //     VipsArgumentClass **, VipsArgumentInstance **)
          b.bind(
              "vips_object_get_argument",
              FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, ADDRESS, ADDRESS, ADDRESS)),
          // GType g_type_fundamental(GType)
          b.bind("g_type_fundamental", FunctionDescriptor.of(JAVA_LONG, JAVA_LONG)),
          // GValue *g_value_init(GValue *, GType)
          b.bind("g_value_init", FunctionDescriptor.of(ADDRESS, ADDRESS, JAVA_LONG)),
          b.bind("g_value_unset", FunctionDescriptor.ofVoid(ADDRESS)),
          // void g_object_set_property(GObject *, const gchar *, const GValue *)
          b.bind("g_object_set_property", FunctionDescriptor.ofVoid(ADDRESS, ADDRESS, ADDRESS)),
          b.bind("g_object_get_property", FunctionDescriptor.ofVoid(ADDRESS, ADDRESS, ADDRESS)),
          b.bind("g_value_set_int", valueInt),
          b.bind("g_value_set_uint64", FunctionDescriptor.ofVoid(ADDRESS, JAVA_LONG)),
          b.bind("g_value_set_double", FunctionDescriptor.ofVoid(ADDRESS, JAVA_DOUBLE)),
          b.bind("g_value_set_boolean", valueInt),
          b.bind("g_value_set_string", FunctionDescriptor.ofVoid(ADDRESS, ADDRESS)),
          b.bind("g_value_set_enum", valueInt),
          b.bind("g_value_set_flags", valueInt),
          b.bind("g_value_set_object", FunctionDescriptor.ofVoid(ADDRESS, ADDRESS)),
          // int vips_value_set_array_double(GValue *, const double *, int n)
          b.bind(
              "vips_value_set_array_double",
              FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, JAVA_INT)),
          b.bind(
              "vips_value_set_array_int",
              FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, JAVA_INT)),
          // void vips_value_set_array_image(GValue *, int n)
          b.bind("vips_value_set_array_image", FunctionDescriptor.ofVoid(ADDRESS, JAVA_INT)),
          // VipsImage **vips_value_get_array_image(const GValue *, int *n)
          b.bind("vips_value_get_array_image", FunctionDescriptor.of(ADDRESS, ADDRESS, ADDRESS)),
          b.bind("g_value_get_int", FunctionDescriptor.of(JAVA_INT, ADDRESS)),
          b.bind("g_value_get_double", FunctionDescriptor.of(JAVA_DOUBLE, ADDRESS)),
          b.bind("g_value_get_boolean", FunctionDescriptor.of(JAVA_INT, ADDRESS)),
          b.bind("g_value_get_enum", FunctionDescriptor.of(JAVA_INT, ADDRESS)),
          b.bind("g_value_get_string", FunctionDescriptor.of(ADDRESS, ADDRESS)),
          b.bind("g_value_get_object", FunctionDescriptor.of(ADDRESS, ADDRESS)),
          // double *vips_value_get_array_double(const GValue *, int *n)
          b.bind("vips_value_get_array_double", FunctionDescriptor.of(ADDRESS, ADDRESS, ADDRESS)),
          b.bind("g_object_ref", FunctionDescriptor.of(ADDRESS, ADDRESS)),
          // int vips_enum_from_nick(const char *domain, GType type, const char *str)
          b.bind(
              "vips_enum_from_nick", FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_LONG, ADDRESS)),
          b.bind(
              "vips_flags_from_nick", FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_LONG, ADDRESS)),
          // VipsBlob *vips_blob_copy(const void *data, size_t length)
          b.bind("vips_blob_copy", FunctionDescriptor.of(ADDRESS, ADDRESS, JAVA_LONG)),
          // void g_value_set_boxed(GValue *, gconstpointer): copies (refs) the blob
          b.bind("g_value_set_boxed", FunctionDescriptor.ofVoid(ADDRESS, ADDRESS)),
          // void vips_area_unref(VipsArea *)
          b.bind("vips_area_unref", FunctionDescriptor.ofVoid(ADDRESS)));
    }
  }
}
