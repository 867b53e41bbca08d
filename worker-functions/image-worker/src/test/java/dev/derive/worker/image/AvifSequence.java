package dev.derive.worker.image;

import dev.derive.worker.ffmpeg.Ffmpeg;
import java.awt.image.BufferedImage;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * An animated AVIF read back by FFmpeg (libvips 8.18 reads only its still item): the sequence's
 * track is the stream of more than one packet (the other is the still primary item).
 *
 * @param track the track's stream index
 * @param durations each frame's duration as {@code ffprobe} prints it, in seconds
 * @param width the frames' width in pixels
 * @param height the frames' height in pixels
 */
record AvifSequence(String track, List<String> durations, int width, int height) {
  private static final Duration TIMEOUT = Duration.ofMinutes(2);

  /** The sequence of {@code file}, probed by {@code ffprobe}. */
  static AvifSequence probe(Path file) {
    Map<String, List<String>> packets = new TreeMap<>();
    for (String line : ffprobe(file, "packet=stream_index,duration_time")) {
      String[] fields = line.split(",");
      packets.computeIfAbsent(fields[0], k -> new ArrayList<>()).add(fields[1]);
    }
    String track =
        packets.entrySet().stream()
            .filter(e -> e.getValue().size() > 1)
            .findFirst()
            .orElseThrow(() -> new AssertionError("no sequence track in " + packets))
            .getKey();
    for (String line : ffprobe(file, "stream=index,width,height")) {
      String[] fields = line.split(",");
      if (fields[0].equals(track)) {
        return new AvifSequence(
            track, packets.get(track), Integer.parseInt(fields[1]), Integer.parseInt(fields[2]));
      }
    }
    throw new AssertionError("no stream " + track);
  }

  /** Every frame of the sequence in {@code file}, decoded by FFmpeg to 8-bit RGB. */
  List<BufferedImage> frames(Path file) {
    byte[] rgb =
        Ffmpeg.shared()
            .run(
                Ffmpeg.Tool.FFMPEG,
                List.of(
                    "-v",
                    "error",
                    "-i",
                    file.toString(),
                    "-map",
                    "0:" + track,
                    "-fps_mode",
                    "passthrough",
                    "-f",
                    "rawvideo",
                    "-pix_fmt",
                    "rgb24",
                    "pipe:1"),
                null,
                1L << 30,
                TIMEOUT);
    int frameBytes = width * height * 3;
    List<BufferedImage> frames = new ArrayList<>();
    for (int offset = 0; offset + frameBytes <= rgb.length; offset += frameBytes) {
      BufferedImage frame = new BufferedImage(width, height, BufferedImage.TYPE_INT_RGB);
      for (int y = 0; y < height; y++) {
        for (int x = 0; x < width; x++) {
          int at = offset + (y * width + x) * 3;
          frame.setRGB(
              x, y, (rgb[at] & 0xFF) << 16 | (rgb[at + 1] & 0xFF) << 8 | rgb[at + 2] & 0xFF);
        }
      }
      frames.add(frame);
    }
    return frames;
  }

  private static String[] ffprobe(Path file, String entries) {
    byte[] out =
        Ffmpeg.shared()
            .run(
                Ffmpeg.Tool.FFPROBE,
                List.of("-v", "error", "-show_entries", entries, "-of", "csv=p=0", file.toString()),
                null,
                1 << 20,
                TIMEOUT);
    return new String(out, StandardCharsets.US_ASCII).strip().split("\\n");
  }
}
