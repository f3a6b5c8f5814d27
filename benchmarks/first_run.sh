#!/usr/bin/env bash
# Times the README's first command on a fresh Debian bookworm (issue 44): a debootstrap
# --variant=minbase root in a temporary folder, with git and ca-certificates added (a machine
# that can clone the repository), this repository's HEAD cloned into it, then
#   scripts/setup && build/siren check examples/fig1.c
# run in a chroot and timed (package downloads from the machine's Debian mirror included).
# Needs root, debootstrap (Debian package) and the network to the mirror; nothing else running.
# Usage: sudo benchmarks/first_run.sh [MIRROR]     (default http://deb.debian.org/debian)
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
mirror="${1:-http://deb.debian.org/debian}"
[ "$(id -u)" -eq 0 ] || { echo "first_run: needs root (debootstrap, chroot)" >&2; exit 2; }
command -v debootstrap >/dev/null || { echo "first_run: needs debootstrap (apt-get install debootstrap)" >&2; exit 2; }
dir="$(mktemp -d /var/tmp/siren-first-run.XXXXXX)"
root="$dir/root"
cleanup() {
  for m in dev/pts dev proc sys; do mountpoint -q "$root/$m" 2>/dev/null && umount "$root/$m"; done
  rm -rf "$dir"
}
trap cleanup EXIT
debootstrap --variant=minbase bookworm "$root" "$mirror" >"$dir/debootstrap.log"
cp /etc/resolv.conf "$root/etc/"
for m in proc sys dev dev/pts; do mount --bind "/$m" "$root/$m"; done
chroot "$root" bash -c 'apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends git ca-certificates' >/dev/null
mkdir -p "$root/work"
git clone -q "$repo" "$root/work/siren"
chroot "$root" bash -c 'cd /work/siren && start=$(date +%s) && scripts/setup >/tmp/setup.log 2>&1 &&
  build/siren check examples/fig1.c && echo "first_run: $(( $(date +%s) - start )) s for scripts/setup && build/siren check examples/fig1.c"'
