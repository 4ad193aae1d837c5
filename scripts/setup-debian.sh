#!/usr/bin/env bash
# Installs every Debian 12 package tableref needs to build, test and run.
# Idempotent: apt-get skips what is already installed. Run as root (or via sudo).
set -euo pipefail

packages=(
  build-essential meson ninja-build pkg-config
  libcjson-dev                      # JSON formats (snapshot, report, roster, calibration)
  libcriterion-dev                  # tests
  libapriltag-dev                   # tag detection
  libopencv-dev  # core, imgproc, calib3d: rendering and calibration (pictures, video, windows: media/)
  libcairo2-dev                     # overlay drawing (PNG, SVG, PDF)
  libcamera-dev                     # Raspberry Pi / libcamera capture (optional at build time)
  fonts-dejavu-core                 # legible overlay labels
  libmosquitto-dev mosquitto mosquitto-clients  # venue feed: MQTT client library, the broker, mosquitto_sub/pub
  libturbojpeg0-dev                 # venue feed: the overlay picture as JPEG
  libssl-dev                        # venue: the judge's page over https (tableref venue serve)
  chromium                          # the judge's page tested headless (tests/web)
  libxml2-dev libzip-dev            # army lists: BattleScribe .ros XML and .rosz zips, BSData .gst/.cat
  libpango1.0-dev                   # tag sheets: text laid out with Pango over Cairo
  poppler-utils                     # tests: tag sheets rendered with pdftoppm, as a printer would
  libturbojpeg0-dev libpng-dev      # the checked picture loader (vision/media_image_read.c)
  libavformat-dev libavcodec-dev libavutil-dev libswscale-dev  # the recorder (watch/watch_record.c)
  ffmpeg                            # ffprobe: the recording tests decode every frame
  util-linux e2fsprogs              # mount, fsfreeze, mkfs.ext4: the full and stalled disk tests
  clang libclang-rt-14-dev          # libFuzzer (-fsanitize=fuzzer): tests/fuzz/run.sh
  libx11-dev                        # the projector / `watch --show` window (media/media_window.c)
  xvfb                              # tests: the window drawn on a virtual X server
  debootstrap                       # tests: the page tests under Debian 12's own Node.js (scripts/debian12-node.sh)
)

sudo_cmd=()
if [ "$(id -u)" -ne 0 ]; then sudo_cmd=(sudo); fi

export DEBIAN_FRONTEND=noninteractive
"${sudo_cmd[@]}" apt-get update
"${sudo_cmd[@]}" apt-get install -y --no-install-recommends "${packages[@]}"

# Say now which tool is too old, rather than let a test fail on it later.
bash "$(dirname "$0")/check-tools.sh" debian
