package dev.derive.worker.image;

import dev.derive.worker.ffmpeg.IsoBoxes;
import dev.derive.worker.ffmpeg.IsoBoxes.Box;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The item structure of a HEIF file (ISO/IEC 23008-12, on ISO/IEC 14496-12 boxes), read from its
 * {@code meta} box without decoding a pixel: the primary item ({@code pitm}), each item's type
 * ({@code iinf}), where its data is ({@code iloc}, in the file or in {@code idat}), its references
 * ({@code iref}: a grid's tiles by {@code dimg}, an alpha plane by {@code auxl}) and properties
 * ({@code iprp}: {@code hvcC}, {@code ispe}, {@code clap}, {@code irot}, {@code imir}, {@code
 * pixi}, {@code colr}, {@code auxC}). Boxes after {@code meta} (an Android motion photo's trailing
 * {@code mpvd} video) are never read.
 *
 * <p>About 350 lines because HEIF spreads one image over eight boxes, each with its own version
 * dependent layout; the reader only parses, {@link HeicDecoder} decides what to draw.
 */
// Over 300 lines because one HEIF box tree whose items, properties and grids refer to each other.
final class HeifStructure {
  /** The largest {@code meta} box read: iPhone photos' are a few kilobytes. */
  static final int MAX_META_BYTES = 16 << 20;

  /** The most items a file may declare (an iPhone photo has about 50). */
  static final int MAX_ITEMS = 4096;

  private final Path file;
  private final Set<String> brands;
  private final int primary;
  private final Map<Integer, Item> items;
  private final ByteBuffer idat;

  /** A property of an item; {@code essential} as its association says. */
  sealed interface Property {}

  /** {@code hvcC}: the HEVC decoder configuration (parameter sets, NAL length size). */
  record HevcConfig(int nalLengthSize, int bitDepth, List<byte[]> parameterSets)
      implements Property {}

  /** {@code ispe}: the coded image's size. */
  record Extent(int width, int height) implements Property {}

  /** {@code clap}: the clean aperture, a centred crop given as fractions. */
  record CleanAperture(
      long widthN,
      long widthD,
      long heightN,
      long heightD,
      long hOffN,
      long hOffD,
      long vOffN,
      long vOffD)
      implements Property {}

  /** {@code irot}: a rotation by {@code quarters} × 90° anticlockwise. */
  record Rotation(int quarters) implements Property {}

  /**
   * {@code imir}: a mirroring about a vertical axis ({@code 0}, left-right) or horizontal ({@code
   * 1}).
   */
  record Mirror(int axis) implements Property {}

  /** {@code pixi}: bits per channel. */
  record PixelInformation(int[] bits) implements Property {}

  /** {@code colr} of type {@code nclx}. */
  record ColourNclx(Sniffer.Nclx nclx) implements Property {}

  /** {@code colr} of type {@code prof} or {@code rICC}: an ICC profile. */
  record ColourProfile(byte[] icc) implements Property {}

  /** {@code auxC}: what an auxiliary image is, e.g. {@code urn:mpeg:hevc:2015:auxid:1} (alpha). */
  record Auxiliary(String type) implements Property {}

  /** A property Derive does not read. */
  record Other(String type) implements Property {}

  /**
   * A data extent of an item: {@code offset} in the file, or in {@code idat} when {@code inIdat}.
   */
  record Extent64(long offset, long length) {}

  /** One item: its id, four-character type, data extents, references and properties in order. */
  record Item(
      int id,
      String type,
      boolean hidden,
      boolean inIdat,
      List<Extent64> extents,
      Map<String, List<Integer>> references,
      List<Property> properties) {
    /** The first property of {@code kind}, or {@code null}. */
    <T extends Property> T property(Class<T> kind) {
      for (Property p : properties) {
        if (kind.isInstance(p)) {
          return kind.cast(p);
        }
      }
      return null;
    }

    /** The items this one refers to by {@code type}, in order (a grid's tiles by {@code dimg}). */
    List<Integer> referenced(String type) {
      return references.getOrDefault(type, List.of());
    }
  }

  /** A HEIF file the reader cannot make sense of: damaged or cut short. */
  static final class Malformed extends Exception {
    Malformed(String message) {
      super(message);
    }
  }

  private HeifStructure(
      Path file, Set<String> brands, int primary, Map<Integer, Item> items, ByteBuffer idat) {
    this.file = file;
    this.brands = brands;
    this.primary = primary;
    this.items = items;
    this.idat = idat;
  }

  /**
   * Reads the structure of {@code file}.
   *
   * @throws Malformed if the boxes are inconsistent, cut short, or name data outside the file
   * @throws IOException if the file cannot be read
   */
  static HeifStructure read(Path file, Set<String> brands) throws IOException, Malformed {
    try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
      IsoBoxes.FileBox meta = IsoBoxes.find(channel, "meta");
      if (meta == null) {
        throw new Malformed("it has no meta box");
      }
      if (meta.bodyLength() > MAX_META_BYTES) {
        throw new Malformed("its meta box is " + meta.bodyLength() + " bytes");
      }
      HeifStructure structure =
          parseMeta(
              file, brands, IsoBoxes.read(channel, meta.bodyOffset(), (int) meta.bodyLength()));
      structure.checkExtents(channel.size());
      return structure;
    } catch (IsoBoxes.Malformed e) {
      throw new Malformed(e.getMessage());
    }
  }

  /** Whether every data extent lies inside the file (or inside {@code idat}). */
  private void checkExtents(long fileSize) throws Malformed {
    for (Item item : items.values()) {
      for (Extent64 extent : item.extents()) {
        long limit = item.inIdat() ? (idat == null ? 0 : idat.limit()) : fileSize;
        if (extent.offset() < 0
            || extent.length() < 0
            || extent.offset() + extent.length() > limit) {
          throw new Malformed(
              "item " + item.id() + "'s data lies outside the file: the file is cut short");
        }
      }
    }
  }

  Set<String> brands() {
    return brands;
  }

  /** The primary item: the image a viewer shows. */
  Item primary() throws Malformed {
    return item(primary);
  }

  /** The item with {@code id}. */
  Item item(int id) throws Malformed {
    Item item = items.get(id);
    if (item == null) {
      throw new Malformed("it refers to item " + id + ", which it does not have");
    }
    return item;
  }

  /**
   * The top-level images in file order, the primary first: images no other item uses as a tile, an
   * auxiliary image or a thumbnail, and not hidden.
   */
  List<Item> topLevelImages() {
    Set<Integer> used = new java.util.HashSet<>();
    for (Item item : items.values()) {
      for (Map.Entry<String, List<Integer>> ref : item.references().entrySet()) {
        switch (ref.getKey()) {
          case "dimg" -> used.addAll(ref.getValue());
          case "auxl", "thmb" -> used.add(item.id());
          default -> {}
        }
      }
    }
    List<Item> result = new ArrayList<>();
    Item first = items.get(primary);
    if (first != null) {
      result.add(first);
    }
    for (Item item : items.values()) {
      boolean image = item.type().equals("hvc1") || item.type().equals("grid");
      if (image && item.id() != primary && !item.hidden() && !used.contains(item.id())) {
        result.add(item);
      }
    }
    return result;
  }

  /** The thumbnail items of {@code image} ({@code thmb} references to it), in file order. */
  List<Item> thumbnailsOf(Item image) {
    List<Item> result = new ArrayList<>();
    for (Item item : items.values()) {
      if (item.referenced("thmb").contains(image.id())) {
        result.add(item);
      }
    }
    return result;
  }

  /**
   * The auxiliary alpha image of {@code image} ({@code auxl} reference, alpha {@code auxC}), or
   * {@code null}.
   */
  Item alphaOf(Item image) {
    for (Item item : items.values()) {
      if (item.referenced("auxl").contains(image.id())) {
        Auxiliary aux = item.property(Auxiliary.class);
        if (aux != null
            && (aux.type().equals("urn:mpeg:hevc:2015:auxid:1")
                || aux.type().equals("urn:mpeg:mpegB:cicp:systems:auxiliary:alpha"))) {
          return item;
        }
      }
    }
    return null;
  }

  /**
   * The bytes of {@code item}'s data, its extents concatenated.
   *
   * @throws IOException if the file cannot be read
   */
  byte[] data(Item item, long maxBytes) throws IOException, Malformed {
    long total = 0;
    for (Extent64 extent : item.extents()) {
      total += extent.length();
    }
    if (total > maxBytes) {
      throw new Malformed("item " + item.id() + " holds " + total + " bytes");
    }
    byte[] out = new byte[(int) total];
    int at = 0;
    if (item.inIdat()) {
      for (Extent64 extent : item.extents()) {
        idat.get((int) extent.offset(), out, at, (int) extent.length());
        at += (int) extent.length();
      }
      return out;
    }
    try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
      for (Extent64 extent : item.extents()) {
        ByteBuffer buffer = ByteBuffer.wrap(out, at, (int) extent.length());
        long position = extent.offset();
        while (buffer.hasRemaining()) {
          int n = channel.read(buffer, position);
          if (n < 0) {
            throw new Malformed("item " + item.id() + "'s data ends early: the file is cut short");
          }
          position += n;
        }
        at += (int) extent.length();
      }
    }
    return out;
  }

  private static HeifStructure parseMeta(Path file, Set<String> brands, ByteBuffer meta)
      throws Malformed {
    int primary = -1;
    Map<Integer, String> types = new LinkedHashMap<>();
    Set<Integer> hidden = new java.util.HashSet<>();
    Map<Integer, Location> locations = new HashMap<>();
    Map<Integer, Map<String, List<Integer>>> references = new HashMap<>();
    List<Property> properties = new ArrayList<>();
    Map<Integer, List<Integer>> associations = new HashMap<>();
    ByteBuffer idat = null;
    try {
      for (Box box : children(meta, 4, meta.limit())) { // meta is a full box
        ByteBuffer body =
            meta.slice(box.start(), box.end() - box.start()).order(ByteOrder.BIG_ENDIAN);
        switch (box.type()) {
          case "pitm" ->
              primary = body.get(0) == 0 ? Short.toUnsignedInt(body.getShort(4)) : body.getInt(4);
          case "iinf" -> parseItemInfo(body, types, hidden);
          case "iloc" -> parseLocations(body, locations);
          case "iref" -> parseReferences(body, references);
          case "iprp" -> parseProperties(body, properties, associations);
          case "idat" -> idat = body;
          default -> {}
        }
      }
    } catch (IndexOutOfBoundsException | java.nio.BufferUnderflowException e) {
      throw new Malformed("its meta box is damaged or cut short");
    }
    if (primary < 0) {
      throw new Malformed("it names no primary image (pitm)");
    }
    if (types.size() > MAX_ITEMS) {
      throw new Malformed("it declares " + types.size() + " items");
    }
    Map<Integer, Item> items = new LinkedHashMap<>();
    for (Map.Entry<Integer, String> entry : types.entrySet()) {
      int id = entry.getKey();
      Location location = locations.getOrDefault(id, new Location(false, List.of()));
      List<Property> own = new ArrayList<>();
      for (int index : associations.getOrDefault(id, List.of())) {
        if (index < 1 || index > properties.size()) {
          throw new Malformed("item " + id + " names property " + index + ", which does not exist");
        }
        own.add(properties.get(index - 1));
      }
      items.put(
          id,
          new Item(
              id,
              entry.getValue(),
              hidden.contains(id),
              location.inIdat(),
              location.extents(),
              references.getOrDefault(id, Map.of()),
              List.copyOf(own)));
    }
    return new HeifStructure(file, brands, primary, items, idat);
  }

  private static void parseItemInfo(
      ByteBuffer body, Map<Integer, String> types, Set<Integer> hidden) throws Malformed {
    int version = body.get(0);
    int start = version == 0 ? 6 : 8;
    for (Box infe : children(body, start, body.limit())) {
      if (!infe.type().equals("infe")) {
        continue;
      }
      int at = infe.start();
      int infeVersion = body.get(at);
      boolean isHidden = (body.get(at + 3) & 1) != 0;
      if (infeVersion < 2) {
        continue; // item types arrived with version 2
      }
      int id;
      if (infeVersion == 2) {
        id = Short.toUnsignedInt(body.getShort(at + 4));
        at += 6;
      } else {
        id = body.getInt(at + 4);
        at += 8;
      }
      at += 2; // protection index
      types.put(id, fourcc(body, at));
      if (isHidden) {
        hidden.add(id);
      }
    }
  }

  private record Location(boolean inIdat, List<Extent64> extents) {}

  private static void parseLocations(ByteBuffer body, Map<Integer, Location> locations)
      throws Malformed {
    int version = body.get(0);
    int sizes = Byte.toUnsignedInt(body.get(4));
    int offsetSize = sizes >> 4;
    int lengthSize = sizes & 15;
    int sizes2 = Byte.toUnsignedInt(body.get(5));
    int baseOffsetSize = sizes2 >> 4;
    int indexSize = version == 1 || version == 2 ? sizes2 & 15 : 0;
    int at = 6;
    long count;
    if (version < 2) {
      count = Short.toUnsignedInt(body.getShort(at));
      at += 2;
    } else {
      count = Integer.toUnsignedLong(body.getInt(at));
      at += 4;
    }
    if (count > MAX_ITEMS) {
      throw new Malformed("its iloc box locates " + count + " items");
    }
    for (long i = 0; i < count; i++) {
      int id;
      if (version < 2) {
        id = Short.toUnsignedInt(body.getShort(at));
        at += 2;
      } else {
        id = body.getInt(at);
        at += 4;
      }
      int method = 0;
      if (version == 1 || version == 2) {
        method = body.getShort(at) & 15;
        at += 2;
      }
      at += 2; // data reference index
      long base = uint(body, at, baseOffsetSize);
      at += baseOffsetSize;
      int extentCount = Short.toUnsignedInt(body.getShort(at));
      at += 2;
      List<Extent64> extents = new ArrayList<>();
      for (int e = 0; e < extentCount; e++) {
        at += indexSize;
        long offset = uint(body, at, offsetSize);
        at += offsetSize;
        long length = uint(body, at, lengthSize);
        at += lengthSize;
        extents.add(new Extent64(base + offset, length));
      }
      if (method > 1) {
        throw new Malformed("item " + id + " is stored by reference to another item");
      }
      locations.put(id, new Location(method == 1, List.copyOf(extents)));
    }
  }

  private static void parseReferences(
      ByteBuffer body, Map<Integer, Map<String, List<Integer>>> references) throws Malformed {
    int version = body.get(0);
    int idSize = version == 0 ? 2 : 4;
    for (Box ref : children(body, 4, body.limit())) {
      int at = ref.start();
      int from = (int) uint(body, at, idSize);
      at += idSize;
      int count = Short.toUnsignedInt(body.getShort(at));
      at += 2;
      List<Integer> to = new ArrayList<>(count);
      for (int i = 0; i < count; i++) {
        to.add((int) uint(body, at, idSize));
        at += idSize;
      }
      references
          .computeIfAbsent(from, k -> new LinkedHashMap<>())
          .computeIfAbsent(ref.type(), k -> new ArrayList<>())
          .addAll(to);
    }
  }

  private static void parseProperties(
      ByteBuffer body, List<Property> properties, Map<Integer, List<Integer>> associations)
      throws Malformed {
    for (Box box : children(body, 0, body.limit())) {
      if (box.type().equals("ipco")) {
        for (Box property : children(body, box.start(), box.end())) {
          properties.add(property(body, property));
        }
      } else if (box.type().equals("ipma")) {
        int at = box.start();
        int version = body.get(at);
        boolean wide = (body.get(at + 3) & 1) != 0;
        at += 4;
        long entries = Integer.toUnsignedLong(body.getInt(at));
        at += 4;
        for (long i = 0; i < entries; i++) {
          int id;
          if (version < 1) {
            id = Short.toUnsignedInt(body.getShort(at));
            at += 2;
          } else {
            id = body.getInt(at);
            at += 4;
          }
          int count = Byte.toUnsignedInt(body.get(at++));
          List<Integer> list = associations.computeIfAbsent(id, k -> new ArrayList<>());
          for (int a = 0; a < count; a++) {
            if (wide) {
              list.add(body.getShort(at) & 0x7FFF);
              at += 2;
            } else {
              list.add(body.get(at) & 0x7F);
              at += 1;
            }
          }
        }
      }
    }
  }

  private static Property property(ByteBuffer body, Box box) {
    int at = box.start();
    return switch (box.type()) {
      case "hvcC" -> hevcConfig(body, at, box.end());
      case "ispe" -> new Extent(body.getInt(at + 4), body.getInt(at + 8));
      case "irot" -> new Rotation(body.get(at) & 3);
      case "imir" -> new Mirror(body.get(at) & 1);
      case "clap" ->
          new CleanAperture(
              Integer.toUnsignedLong(body.getInt(at)),
              Integer.toUnsignedLong(body.getInt(at + 4)),
              Integer.toUnsignedLong(body.getInt(at + 8)),
              Integer.toUnsignedLong(body.getInt(at + 12)),
              body.getInt(at + 16),
              Integer.toUnsignedLong(body.getInt(at + 20)),
              body.getInt(at + 24),
              Integer.toUnsignedLong(body.getInt(at + 28)));
      case "pixi" -> {
        int channels = Byte.toUnsignedInt(body.get(at + 4));
        int[] bits = new int[channels];
        for (int i = 0; i < channels; i++) {
          bits[i] = Byte.toUnsignedInt(body.get(at + 5 + i));
        }
        yield new PixelInformation(bits);
      }
      case "colr" -> {
        String kind = fourcc(body, at);
        if (kind.equals("nclx")) {
          yield new ColourNclx(
              new Sniffer.Nclx(
                  Short.toUnsignedInt(body.getShort(at + 4)),
                  Short.toUnsignedInt(body.getShort(at + 6)),
                  Short.toUnsignedInt(body.getShort(at + 8)),
                  (body.get(at + 10) & 0x80) != 0));
        }
        if (kind.equals("prof") || kind.equals("rICC")) {
          byte[] icc = new byte[box.end() - at - 4];
          body.get(at + 4, icc);
          yield new ColourProfile(icc);
        }
        yield new Other("colr/" + kind);
      }
      case "auxC" -> {
        int end = at + 4;
        while (end < box.end() && body.get(end) != 0) {
          end++;
        }
        byte[] text = new byte[end - at - 4];
        body.get(at + 4, text);
        yield new Auxiliary(new String(text, StandardCharsets.US_ASCII));
      }
      default -> new Other(box.type());
    };
  }

  /** {@code HEVCDecoderConfigurationRecord} (ISO/IEC 14496-15 §8.3.3.1). */
  private static HevcConfig hevcConfig(ByteBuffer body, int at, int end) {
    int bitDepth = (body.get(at + 17) & 7) + 8;
    int nalLengthSize = (body.get(at + 21) & 3) + 1;
    int arrays = Byte.toUnsignedInt(body.get(at + 22));
    int p = at + 23;
    List<byte[]> sets = new ArrayList<>();
    for (int a = 0; a < arrays; a++) {
      p += 1; // completeness and NAL unit type
      int count = Short.toUnsignedInt(body.getShort(p));
      p += 2;
      for (int n = 0; n < count; n++) {
        int length = Short.toUnsignedInt(body.getShort(p));
        p += 2;
        if (p + length > end) {
          throw new IndexOutOfBoundsException("hvcC parameter set past its box");
        }
        byte[] nal = new byte[length];
        body.get(p, nal);
        sets.add(nal);
        p += length;
      }
    }
    return new HevcConfig(nalLengthSize, bitDepth, List.copyOf(sets));
  }

  /** The boxes in {@code [start, end)} of {@code buffer} ({@link IsoBoxes#children}). */
  private static List<Box> children(ByteBuffer buffer, int start, int end) throws Malformed {
    try {
      return IsoBoxes.children(buffer, start, end);
    } catch (IsoBoxes.Malformed e) {
      throw new Malformed(e.getMessage());
    }
  }

  private static long uint(ByteBuffer buffer, int at, int size) {
    return IsoBoxes.uint(buffer, at, size);
  }

  private static String fourcc(ByteBuffer buffer, int at) {
    return IsoBoxes.fourcc(buffer, at);
  }
}
