#!/bin/sh
# Lab check: the Pi venv, `zonkcam read` and the demo game on arm64 Bookworm under qemu.
# A Pi that is not this machine: an arm64 Debian Bookworm root (Raspberry Pi OS's base)
# run under qemu-user, the Pi venv made in it with the Pi constraints from aarch64 wheels,
# then `zonkcam read` on a rendered photo (its dice must come out right) and the headless
# demo game, under emulation. Needs root, debootstrap and qemu-user-static (Debian's
# packages), and binfmt_misc mounted with the qemu-aarch64 handler enabled:
#   apt-get install debootstrap qemu-user-static binfmt-support
#   mount -t binfmt_misc binfmt_misc /proc/sys/fs/binfmt_misc   # where it is not
#   update-binfmts --enable qemu-aarch64
# The root is kept in $PI_ROOT (default /var/tmp/zonkcam-pi-root) and reused; the venv
# is made afresh each run. This machine's pip settings and CA bundle are copied in.
# Run: make pi-check   (or: sudo sh scripts/pi_check.sh)
set -eu

ROOT=${PI_ROOT:-/var/tmp/zonkcam-pi-root}
MIRROR=${PI_MIRROR:-http://deb.debian.org/debian}
HERE=$(cd "$(dirname "$0")/.." && pwd)
PYTHON=${PYTHON:-python3}

say() { printf '%s\n' "pi-check: $*" >&2; }
fail() { say "$*"; exit 1; }
now() { date +%s; }

[ "$(id -u)" = 0 ] || fail "needs root (debootstrap and chroot): sudo make pi-check"
command -v debootstrap >/dev/null || fail "no debootstrap: apt-get install debootstrap"
command -v qemu-aarch64-static >/dev/null || fail "no qemu-aarch64-static: apt-get install qemu-user-static"
[ -e /proc/sys/fs/binfmt_misc/status ] || fail "binfmt_misc is not mounted: mount -t binfmt_misc binfmt_misc /proc/sys/fs/binfmt_misc"
grep -qx enabled /proc/sys/fs/binfmt_misc/qemu-aarch64 2>/dev/null ||
    fail "the qemu-aarch64 binfmt handler is not enabled: update-binfmts --enable qemu-aarch64"

start=$(now)
if [ ! -e "$ROOT/.zonkcam-root" ]; then
    say "building an arm64 Debian Bookworm root in $ROOT (a few minutes)"
    rm -rf "$ROOT"
    debootstrap --arch=arm64 --variant=minbase \
        --include=python3,python3-venv,python3-pip,ca-certificates \
        bookworm "$ROOT" "$MIRROR" >"$ROOT.log" 2>&1 || fail "debootstrap failed: see $ROOT.log"
    touch "$ROOT/.zonkcam-root"
fi
built=$(now)
say "root ready in $((built - start)) s"

# this machine's network settings, pip settings and CA bundle
cp /etc/resolv.conf "$ROOT/etc/resolv.conf"
bundle=${SSL_CERT_FILE:-/etc/ssl/certs/ca-certificates.crt}
[ -f "$bundle" ] && cp "$bundle" "$ROOT/etc/ssl/certs/host-ca.crt"
mkdir -p "$ROOT/etc/xdg/pip"
{
    echo "[global]"
    [ -f "$bundle" ] && echo "cert = /etc/ssl/certs/host-ca.crt"
    echo "timeout = 180"
    echo "disable-pip-version-check = 1"
    [ -n "${PIP_INDEX_URL:-}" ] && echo "index-url = $PIP_INDEX_URL"
    true
} >"$ROOT/etc/xdg/pip/pip.conf"
for var in HTTP_PROXY HTTPS_PROXY http_proxy https_proxy NO_PROXY no_proxy; do
    eval "value=\${$var:-}"
    [ -n "$value" ] && printf 'export %s=%s\n' "$var" "$value"
done >"$ROOT/etc/profile.d/zonkcam-proxy.sh"

# the working tree as it is, and a rendered photo whose dice are known
rm -rf "$ROOT/zonkcam"
mkdir -p "$ROOT/zonkcam"
(cd "$HERE" && git ls-files -z --cached --others --exclude-standard |
    xargs -0 tar -cf - --ignore-failed-read 2>/dev/null) | tar -xf - -C "$ROOT/zonkcam"
truth=$(cd "$HERE" && "$PYTHON" -c '
import sys
import cv2, numpy as np
from zonkcam.sim import renderer
from zonkcam.vision.model import load_model
from zonkcam.vision.reader import read_dice
model = load_model(threads=1)
for seed in range(100):  # the first rendered table this machine reads right
    rng = np.random.default_rng(seed)
    scene = renderer.random_scene(rng, n_dice=4)
    image = renderer.render(scene, rng).image
    want = sorted(d.value for d in scene.dice)
    if sorted(d.value for d in read_dice(image, model)) == want:
        cv2.imwrite(sys.argv[1], image)
        print(" ".join(map(str, want)))
        break
' "$ROOT/zonkcam/photo.png")
[ -n "$truth" ] || fail "no rendered table read right here to check the Pi against"

# inside, a clean environment (this machine's PIP_* and SSL_* name its own files)
inside() {
    env -i PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin HOME=/root \
        LANG=C.UTF-8 SSL_CERT_FILE=/etc/ssl/certs/host-ca.crt PIP_CERT=/etc/ssl/certs/host-ca.crt \
        chroot "$ROOT" /bin/sh -ec "$1"
}
[ -f "$bundle" ] || cp "$ROOT/etc/ssl/certs/ca-certificates.crt" "$ROOT/etc/ssl/certs/host-ca.crt"

mounted=""
cleanup() { for m in $mounted; do umount "$ROOT/$m" 2>/dev/null || true; done; }
trap cleanup EXIT
for m in proc dev; do
    mount --bind "/$m" "$ROOT/$m" && mounted="$m $mounted"
done

say "making the Pi venv (-c constraints/pi-bookworm.txt) under emulation"
inside '
    . /etc/profile.d/zonkcam-proxy.sh
    cd /zonkcam
    rm -rf /venv
    python3 -m venv /venv
    /venv/bin/python -m pip install --quiet -c constraints/pi-bookworm.txt .
    /venv/bin/python -c "import cv2, numpy, onnxruntime, pygame, platform; print(\"pi-check:\", platform.machine(), \"Python\", platform.python_version(), \"numpy\", numpy.__version__, \"OpenCV\", cv2.__version__, \"onnxruntime\", onnxruntime.__version__, \"pygame-ce\", pygame.version.ver)"
' || fail "the Pi venv could not be made"
installed=$(now)
say "venv made in $((installed - built)) s"

read=$(inside 'cd /tmp && /venv/bin/zonkcam read --json /zonkcam/photo.png') ||
    fail "zonkcam read failed under emulation"
got=$(printf '%s' "$read" | "$PYTHON" -c '
import json, sys
print(" ".join(str(v) for v in sorted(d["value"] for d in json.load(sys.stdin)["dice"])))')
[ "$got" = "$truth" ] || fail "zonkcam read under emulation read [$got], the photo holds [$truth]"
readdone=$(now)
say "zonkcam read: [$got], as drawn ($((readdone - installed)) s)"

inside '
    cd /tmp && rm -rf pi-home && mkdir pi-home
    HOME=/tmp/pi-home SDL_VIDEODRIVER=dummy SDL_AUDIODRIVER=dummy \
        /venv/bin/zonkcam play --source demo --fast --games 1 --db /tmp/pi-home/g.db | tail -4
' || fail "the headless demo game failed under emulation"
played=$(now)
say "the headless demo game played ($((played - readdone)) s)"
say "all right: $((played - start)) s in all (root $((built - start)) s, venv $((installed - built)) s, read $((readdone - installed)) s, demo game $((played - readdone)) s)"
