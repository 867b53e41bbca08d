/**
 * FFmpeg as a separate process: {@link dev.derive.worker.ffmpeg.Ffmpeg} finds Bytedeco's prebuilt
 * {@code ffmpeg} and {@code ffprobe} (the Lambda layer this module builds) and runs one of them
 * with a clean environment, a deadline and a bound on what it may print; {@link
 * dev.derive.worker.ffmpeg.FfmpegException} is a run that failed, {@link
 * dev.derive.worker.ffmpeg.FfmpegTimeoutException} one that was killed at its deadline and {@link
 * dev.derive.worker.ffmpeg.FfmpegUnavailableException} executables that cannot be found. {@link
 * dev.derive.worker.ffmpeg.IsoBoxes} walks the boxes of an MP4, MOV or HEIF file, so that the
 * capabilities read those headers themselves before FFmpeg sees the file; {@link
 * dev.derive.worker.ffmpeg.TestPattern} makes a test clip. Nothing else of Derive is used:
 * capabilities depend on this module, never the other way round.
 */
package dev.derive.worker.ffmpeg;
