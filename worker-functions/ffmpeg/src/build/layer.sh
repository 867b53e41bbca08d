#!/usr/bin/env bash
# Lays out one architecture's FFmpeg as a Lambda layer folder: <out>/ffmpeg/{ffmpeg,ffprobe,lib*.so*}
# from bytedeco's jar (unpacked in <unpacked>), plus empty stand-ins for the four libraries that only
# libavdevice needs (X11 capture, ALSA, PulseAudio), which Lambda's Amazon Linux 2023 image does not
# have. Derive never opens a capture or playback device (docs/heic-and-video.md), so the stand-ins'
# functions are never called; they carry the sonames and symbol versions the dynamic linker checks.
# Usage: layer.sh <bytedeco platform: linux-x86_64|linux-arm64> <unpacked jar dir> <out dir>
set -euo pipefail
platform=$1 unpacked=$2 out=$3
case "$platform" in
  linux-x86_64) tools=(x86_64-linux-gnu- "") ;;
  linux-arm64) tools=(aarch64-linux-gnu-) ;;
  *) echo "unknown platform $platform" >&2; exit 2 ;;
esac
as= ld=
for prefix in "${tools[@]}"; do
  if command -v "${prefix}as" >/dev/null && command -v "${prefix}ld" >/dev/null \
      && "${prefix}ld" -V | grep -q "$([ "$platform" = linux-arm64 ] && echo aarch64linux || echo elf_x86_64)"; then
    as=${prefix}as ld=${prefix}ld
    break
  fi
done
if [ -z "$as" ]; then
  pkg=$([ "$platform" = linux-arm64 ] && echo binutils-aarch64-linux-gnu || echo binutils-x86-64-linux-gnu)
  echo "the FFmpeg layer for $platform needs GNU as and ld for that architecture: apt-get install $pkg" >&2
  exit 1
fi
dir=$out/ffmpeg
rm -rf "$dir" && mkdir -p "$dir"
cp "$unpacked"/org/bytedeco/ffmpeg/"$platform"/{ffmpeg,ffprobe} "$dir"/
cp "$unpacked"/org/bytedeco/ffmpeg/"$platform"/lib{avutil,avcodec,avformat,avfilter,avdevice,swscale,swresample}.so.* "$dir"/
for extra in libdrm.so.2 libasound.so.2; do
  if [ -f "$unpacked/org/bytedeco/ffmpeg/$platform/$extra" ]; then cp "$unpacked/org/bytedeco/ffmpeg/$platform/$extra" "$dir"/; fi
done
chmod 755 "$dir"/*
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
: > "$work/empty.s"
"$as" "$work/empty.s" -o "$work/empty.o"
stub() { # soname [version-script lines]
  local soname=$1; shift
  [ -f "$dir/$soname" ] && return 0
  local script=()
  if [ $# -gt 0 ]; then printf '%s\n' "$@" > "$work/$soname.map"; script=(--version-script "$work/$soname.map"); fi
  "$ld" -shared -z max-page-size=0x10000 -soname "$soname" "${script[@]}" -o "$dir/$soname" "$work/empty.o"
}
stub libxcb.so.1
stub libxcb-shm.so.0
stub libasound.so.2 'ALSA_0.9 { local: *; };' 'ALSA_0.9.0rc4 { local: *; } ALSA_0.9;'
stub libpulse.so.0 'PULSE_0 { local: *; };'
chmod 755 "$dir"/*
