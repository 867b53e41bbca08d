package dev.derive.worker.video;

import dev.derive.worker.ffmpeg.IsoBoxes;
import dev.derive.worker.ffmpeg.IsoBoxes.Box;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Reads an MP4, M4V, MOV or 3GP header in Java (ISO/IEC 14496-12 boxes, {@link IsoBoxes}) for the
 * poster and storyboard, so that one {@code ffmpeg} process suffices instead of {@code ffprobe}
 * then {@code ffmpeg}: the movie's duration ({@code mvhd}), and of the first video track ({@code
 * hdlr} {@code vide}) its position among the tracks (FFmpeg's stream index), display matrix ({@code
 * tkhd}: rotation and mirroring), coded frame size and codec ({@code stsd}), colour transfer
 * ({@code colr}) and frame rate ({@code mdhd}, {@code stts}).
 *
 * <p>It answers only when the header is plain: anything it does not read with certainty is {@link
 * Optional#empty()} and {@link VideoProbe} asks {@code ffprobe} as for other containers. That is a
 * file that is not ISO BMFF, has no {@code moov} before a box that runs past the end, a {@code
 * moov} over {@link #MAX_MOOV_BYTES}, a fragmented movie ({@code mvex}), a cover picture ({@code
 * covr}, which FFmpeg makes a stream and so shifts the indices), a movie matrix, a rotation that is
 * not a quarter turn, no video track or one without samples, a codec that may carry HDR without a
 * {@code colr} box (HEVC, AV1, VP9), or any box cut short. It only descends the fixed path {@code
 * moov/trak/mdia/minf/stbl/stsd}, so a file's nesting cannot make it recurse; every count is
 * checked against its box's length before it is used.
 */
// Over 300 lines because it walks one fixed box path; its box readers share one bounds check.
final class Mp4Header {
  /** The largest {@code moov} read: a 4-hour 30 fps video's is about 6 MB. */
  static final int MAX_MOOV_BYTES = 16 << 20;

  /** The most keyframe times kept ({@link VideoInfo#keyframeSeconds}). */
  static final int MAX_KEYFRAMES = 4096;

  /** The most tracks looked at (a phone video has 2 to 6). */
  static final int MAX_TRACKS = 64;

  /** FFmpeg's names of the {@code mov} demuxer's containers, as ffprobe prints them. */
  static final String CONTAINER = "mov,mp4,m4a,3gp,3g2,mj2";

  /** The first boxes an ISO BMFF movie may start with (QuickTime files may lack {@code ftyp}). */
  private static final Set<String> FIRST_BOXES = Set.of("ftyp", "moov", "mdat", "wide", "free");

  /** Sample entry types and FFmpeg's codec names. */
  private static final Map<String, String> VIDEO_CODECS =
      Map.ofEntries(
          Map.entry("avc1", "h264"),
          Map.entry("avc3", "h264"),
          Map.entry("hvc1", "hevc"),
          Map.entry("hev1", "hevc"),
          Map.entry("dvh1", "hevc"),
          Map.entry("dvhe", "hevc"),
          Map.entry("av01", "av1"),
          Map.entry("vp09", "vp9"),
          Map.entry("mp4v", "mpeg4"),
          Map.entry("jpeg", "mjpeg"),
          Map.entry("mjpa", "mjpeg"),
          Map.entry("s263", "h263"),
          Map.entry("apcn", "prores"),
          Map.entry("apch", "prores"),
          Map.entry("apcs", "prores"),
          Map.entry("apco", "prores"),
          Map.entry("ap4h", "prores"));

  /** Codecs whose HDR signalling, without a {@code colr} box, is only in their bitstream. */
  private static final Set<String> MAY_BE_HDR_INSIDE = Set.of("hevc", "av1", "vp9");

  private static final Map<String, String> AUDIO_CODECS =
      Map.of(
          "mp4a",
          "aac",
          "ac-3",
          "ac3",
          "ec-3",
          "eac3",
          "Opus",
          "opus",
          "fLaC",
          "flac",
          "alac",
          "alac",
          "samr",
          "amr_nb",
          "lpcm",
          "pcm_s16le",
          "sowt",
          "pcm_s16le",
          "twos",
          "pcm_s16be");

  private Mp4Header() {}

  /**
   * The header of {@code input}, or empty when it is not a plain ISO BMFF movie this reader is
   * certain of (see the class comment); never throws for what the file holds.
   *
   * @throws IOException if the file cannot be read
   */
  static Optional<VideoInfo> read(Path input) throws IOException {
    try (FileChannel channel = FileChannel.open(input, StandardOpenOption.READ)) {
      String first = IsoBoxes.firstType(channel);
      if (first == null || !FIRST_BOXES.contains(first)) {
        return Optional.empty();
      }
      IsoBoxes.FileBox moov = IsoBoxes.find(channel, "moov");
      if (moov == null || moov.bodyLength() > MAX_MOOV_BYTES) {
        return Optional.empty();
      }
      ByteBuffer body = IsoBoxes.read(channel, moov.bodyOffset(), (int) moov.bodyLength());
      return parse(body, channel.size());
    } catch (IsoBoxes.Malformed | IndexOutOfBoundsException | ArithmeticException e) {
      return Optional.empty();
    }
  }

  /** The {@link VideoInfo} of the {@code moov} box's body {@code moov}, of a file {@code size}. */
  static Optional<VideoInfo> parse(ByteBuffer moov, long fileSize) throws IsoBoxes.Malformed {
    double duration = 0;
    Track video = null;
    String audio = null;
    int index = 0;
    for (Box box : IsoBoxes.children(moov, 0, moov.limit())) {
      switch (box.type()) {
        case "mvhd" -> {
          if (box.length() < (moov.get(box.start()) == 1 ? 112 : 100)
              || !identity(moov, box.start() + (moov.get(box.start()) == 1 ? 48 : 36))) {
            return Optional.empty();
          }
          duration = duration(moov, box.start());
        }
        case "mvex" -> {
          return Optional.empty();
        }
        case "udta", "meta" -> {
          if (hasCover(moov, box)) {
            return Optional.empty();
          }
        }
        case "trak" -> {
          if (index == MAX_TRACKS) {
            return Optional.empty();
          }
          Track track = track(moov, box, index++);
          if (track == null) {
            continue;
          }
          if (track.handler().equals("vide") && video == null) {
            video = track;
          } else if (track.handler().equals("soun") && audio == null) {
            audio = AUDIO_CODECS.getOrDefault(track.entry(), track.entry());
          }
        }
        default -> {}
      }
    }
    if (video == null || video.codec() == null || video.frames() <= 0 || duration <= 0) {
      return Optional.empty();
    }
    if (video.transfer() == null && MAY_BE_HDR_INSIDE.contains(video.codec())) {
      return Optional.empty();
    }
    return Optional.of(
        new VideoInfo(
            "mov",
            CONTAINER,
            duration,
            (long) (fileSize * 8 / duration),
            video.index(),
            video.codec(),
            video.width(),
            video.height(),
            video.rotation(),
            video.mirrored(),
            video.frameRate(),
            video.frames(),
            video.transfer() == null ? "unknown" : video.transfer(),
            audio,
            video.keyframes()));
  }

  /**
   * One track: {@code handler} ({@code vide}, {@code soun}, ...), its first sample entry's type,
   * and for video the rest; {@code codec} is {@code null} for an entry type not in {@link
   * #VIDEO_CODECS}, {@code transfer} {@code null} without a {@code colr} box.
   */
  private record Track(
      int index,
      String handler,
      String entry,
      String codec,
      int width,
      int height,
      int rotation,
      boolean mirrored,
      double frameRate,
      long frames,
      String transfer,
      double[] keyframes) {}

  /** The track {@code trak} at {@code index}, or {@code null} if it lacks a box it needs. */
  private static Track track(ByteBuffer b, Box trak, int index) throws IsoBoxes.Malformed {
    Box tkhd = IsoBoxes.child(b, trak.start(), trak.end(), "tkhd");
    Box mdia = IsoBoxes.child(b, trak.start(), trak.end(), "mdia");
    if (tkhd == null || mdia == null) {
      return null;
    }
    Box mdhd = IsoBoxes.child(b, mdia.start(), mdia.end(), "mdhd");
    Box hdlr = IsoBoxes.child(b, mdia.start(), mdia.end(), "hdlr");
    Box minf = IsoBoxes.child(b, mdia.start(), mdia.end(), "minf");
    Box stbl = minf == null ? null : IsoBoxes.child(b, minf.start(), minf.end(), "stbl");
    Box stsd = stbl == null ? null : IsoBoxes.child(b, stbl.start(), stbl.end(), "stsd");
    if (mdhd == null
        || hdlr == null
        || stsd == null
        || stsd.length() < 8 + 8
        || hdlr.length() < 12
        || tkhd.length() < (b.get(tkhd.start()) == 1 ? 96 : 84)
        || mdhd.length() < (b.get(mdhd.start()) == 1 ? 36 : 24)) {
      return null;
    }
    String handler = IsoBoxes.fourcc(b, hdlr.start() + 8);
    Box entry =
        IsoBoxes.children(b, stsd.start() + 8, stsd.end()).stream().findFirst().orElse(null);
    if (entry == null) {
      return null;
    }
    if (!handler.equals("vide")) {
      return new Track(index, handler, entry.type(), null, 0, 0, 0, false, 0, 0, null, null);
    }
    // VisualSampleEntry: 8 bytes of SampleEntry, 16 reserved, width and height, then 50 bytes
    // (resolutions, frame count, compressor name, depth) before its child boxes
    if (entry.length() < 78) {
      return null;
    }
    int width = Short.toUnsignedInt(b.getShort(entry.start() + 24));
    int height = Short.toUnsignedInt(b.getShort(entry.start() + 26));
    String transfer = null;
    Box colr = IsoBoxes.child(b, entry.start() + 78, entry.end(), "colr");
    if (colr != null && colr.length() >= 10) {
      String kind = IsoBoxes.fourcc(b, colr.start());
      if (kind.equals("nclx") || kind.equals("nclc")) {
        transfer = transfer(Short.toUnsignedInt(b.getShort(colr.start() + 6)));
      }
    }
    int matrix = tkhd.start() + (b.get(tkhd.start()) == 1 ? 52 : 40);
    long a = b.getInt(matrix);
    long bb = b.getInt(matrix + 4);
    long c = b.getInt(matrix + 12);
    long d = b.getInt(matrix + 16);
    // as FFmpeg's av_display_rotation_get and ffprobe's sign: clockwise degrees
    double scaleX = Math.hypot(a, c);
    double scaleY = Math.hypot(bb, d);
    if (scaleX == 0 || scaleY == 0) {
      return null;
    }
    double degrees = Math.toDegrees(Math.atan2(bb / scaleY, a / scaleX));
    int rotation = Math.floorMod((int) Math.round(degrees), 360);
    if (rotation % 90 != 0 || Math.abs(degrees - Math.round(degrees)) > 1e-6) {
      return null;
    }
    long[] samples = samples(b, stbl);
    double timescale =
        Integer.toUnsignedLong(b.getInt(mdhd.start() + (b.get(mdhd.start()) == 1 ? 20 : 12)));
    double rate = samples[1] > 0 && timescale > 0 ? samples[0] * timescale / samples[1] : 0;
    double[] keyframes = timescale > 0 ? keyframes(b, stbl, timescale) : null;
    return new Track(
        index,
        handler,
        entry.type(),
        VIDEO_CODECS.get(entry.type()),
        width,
        height,
        rotation,
        a * d - bb * c < 0,
        rate,
        samples[0],
        transfer,
        keyframes);
  }

  /**
   * The decode times in seconds of the first {@value #MAX_KEYFRAMES} sync samples ({@code stss}
   * sample numbers placed on the {@code stts} time line), ascending; {@code null} without {@code
   * stss} (every sample is a keyframe) or when it is out of order or past the samples.
   */
  private static double[] keyframes(ByteBuffer b, Box stbl, double timescale)
      throws IsoBoxes.Malformed {
    Box stss = IsoBoxes.child(b, stbl.start(), stbl.end(), "stss");
    Box stts = IsoBoxes.child(b, stbl.start(), stbl.end(), "stts");
    if (stss == null || stts == null || stss.length() < 8) {
      return null;
    }
    long count = Integer.toUnsignedLong(b.getInt(stss.start() + 4));
    if (count > (stss.length() - 8) / 4) {
      throw new IsoBoxes.Malformed("its stss box declares more entries than it holds");
    }
    double[] times = new double[(int) Math.min(count, MAX_KEYFRAMES)];
    long entries = Integer.toUnsignedLong(b.getInt(stts.start() + 4));
    int entry = 0;
    long entryFirst = 1; // the number of the first sample of stts entry `entry`
    long entryTime = 0; // its decode time
    long previous = 0;
    for (int k = 0; k < times.length; k++) {
      long sample = Integer.toUnsignedLong(b.getInt(stss.start() + 8 + 4 * k));
      if (sample <= previous) {
        return null;
      }
      previous = sample;
      while (true) {
        if (entry >= entries) {
          return null;
        }
        int at = stts.start() + 8 + 8 * entry;
        long n = Integer.toUnsignedLong(b.getInt(at));
        long delta = Integer.toUnsignedLong(b.getInt(at + 4));
        if (sample < entryFirst + n) {
          times[k] = (entryTime + (sample - entryFirst) * delta) / timescale;
          break;
        }
        entryFirst += n;
        entryTime += n * delta;
        entry++;
      }
    }
    return times;
  }

  /** The sample count and their summed duration (timescale units) from {@code stts}. */
  private static long[] samples(ByteBuffer b, Box stbl) throws IsoBoxes.Malformed {
    Box stts = IsoBoxes.child(b, stbl.start(), stbl.end(), "stts");
    if (stts == null || stts.length() < 8) {
      return new long[] {0, 0};
    }
    long entries = Integer.toUnsignedLong(b.getInt(stts.start() + 4));
    if (entries > (stts.length() - 8) / 8) {
      throw new IsoBoxes.Malformed("its stts box declares more entries than it holds");
    }
    long count = 0;
    long total = 0;
    for (int i = 0; i < entries; i++) {
      int at = stts.start() + 8 + 8 * i;
      long n = Integer.toUnsignedLong(b.getInt(at));
      count += n;
      total = Math.addExact(total, Math.multiplyExact(n, Integer.toUnsignedLong(b.getInt(at + 4))));
    }
    return new long[] {count, total};
  }

  /** ffprobe's name of an H.273 transfer characteristic. */
  private static String transfer(int code) {
    return switch (code) {
      case 1 -> "bt709";
      case 13 -> "iec61966-2-1";
      case 16 -> "smpte2084";
      case 18 -> "arib-std-b67";
      default -> "unknown";
    };
  }

  /** {@code mvhd}'s duration in seconds (version 0: 32-bit fields, 1: 64-bit times). */
  private static double duration(ByteBuffer b, int at) {
    boolean wide = b.get(at) == 1;
    long timescale = Integer.toUnsignedLong(b.getInt(at + (wide ? 20 : 12)));
    long duration = wide ? b.getLong(at + 24) : Integer.toUnsignedLong(b.getInt(at + 16));
    boolean unknown = duration == (wide ? -1L : 0xFFFFFFFFL);
    return timescale == 0 || unknown || duration < 0 ? 0 : (double) duration / timescale;
  }

  /** Whether the 3x3 matrix at {@code at} is the identity (16.16 and 2.30 fixed point). */
  private static boolean identity(ByteBuffer b, int at) {
    int[] expected = {0x10000, 0, 0, 0, 0x10000, 0, 0, 0, 0x40000000};
    for (int i = 0; i < 9; i++) {
      if (b.getInt(at + 4 * i) != expected[i]) {
        return false;
      }
    }
    return true;
  }

  /**
   * Whether {@code udta} or {@code meta} (of {@code moov}) holds a cover picture: {@code
   * [udta/]meta/ilst/covr}.
   */
  private static boolean hasCover(ByteBuffer b, Box box) throws IsoBoxes.Malformed {
    Box meta = box.type().equals("meta") ? box : IsoBoxes.child(b, box.start(), box.end(), "meta");
    if (meta == null) {
      return false;
    }
    // an ISO meta is a full box (4 bytes of version and flags); QuickTime's is not
    int start = meta.length() >= 8 && b.getInt(meta.start()) == 0 ? meta.start() + 4 : meta.start();
    Box ilst = IsoBoxes.child(b, start, meta.end(), "ilst");
    return ilst != null && IsoBoxes.child(b, ilst.start(), ilst.end(), "covr") != null;
  }
}
