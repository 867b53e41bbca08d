package dev.derive.worker.video;

/**
 * What ffprobe reads from a video's header ({@link VideoProbe}), no frame decoded.
 *
 * @param demuxer the FFmpeg demuxer that reads it, e.g. {@code mov} or {@code matroska}
 * @param container FFmpeg's names of the container, e.g. {@code mov,mp4,m4a,3gp,3g2,mj2}
 * @param durationSeconds the duration, 0 if unknown
 * @param bitRate the overall bit rate in bits per second, 0 if unknown
 * @param streamIndex the index of the video stream used (the first that is not a cover picture)
 * @param videoCodec e.g. {@code h264}, {@code hevc}, {@code vp9}
 * @param codedWidth the stored width, before the display rotation
 * @param codedHeight the stored height
 * @param rotation the display rotation in degrees clockwise (0, 90, 180, 270)
 * @param mirrored whether the display matrix also mirrors the picture
 * @param frameRate frames per second, 0 if unknown
 * @param frames the frame count the container declares, 0 if unknown
 * @param transfer the transfer characteristic, e.g. {@code smpte2084} (PQ) or {@code arib-std-b67}
 *     (HLG), or {@code unknown}
 * @param audioCodec the first audio stream's codec, or {@code null} without audio
 * @param keyframeSeconds the decode times of the first keyframes in seconds, ascending ({@link
 *     Mp4Header}); {@code null} when unknown (ffprobe does not list them) or every frame is one
 */
record VideoInfo(
    String demuxer,
    String container,
    double durationSeconds,
    long bitRate,
    int streamIndex,
    String videoCodec,
    int codedWidth,
    int codedHeight,
    int rotation,
    boolean mirrored,
    double frameRate,
    long frames,
    String transfer,
    String audioCodec,
    double[] keyframeSeconds) {

  /**
   * How many keyframes are known to start at or after {@code seconds}; 0 when they are not known.
   */
  int keyframesFrom(double seconds) {
    if (keyframeSeconds == null) {
      return 0;
    }
    int n = 0;
    for (double t : keyframeSeconds) {
      if (t >= seconds) {
        n++;
      }
    }
    return n;
  }

  /** The width as shown (after a quarter turn, the stored height). */
  int width() {
    return rotation % 180 == 0 ? codedWidth : codedHeight;
  }

  /** The height as shown. */
  int height() {
    return rotation % 180 == 0 ? codedHeight : codedWidth;
  }

  /** Whether the pictures are HDR (PQ or HLG) and must be tone-mapped for an sRGB image. */
  boolean hdr() {
    return transfer.equals("smpte2084") || transfer.equals("arib-std-b67");
  }

  /** The start of the last frame, in seconds: where a poster may be taken at the latest. */
  double lastFrameSeconds() {
    double frame = frameRate > 0 ? 1 / frameRate : 0.04;
    return Math.max(0, durationSeconds - 1.5 * frame);
  }
}
