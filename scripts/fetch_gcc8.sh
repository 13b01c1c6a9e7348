#!/usr/bin/env bash
# An older Arm GCC beside the project's, for the silicon references' compiler question (issue 23,
# docs/results.md "Against silicon: how far the compiler moves the scores"): the reports were
# built by GCC 4.6.2-4.7.4, which no registry reachable here serves; the oldest Arm GCC Debian
# still serves is bullseye's gcc-arm-none-eabi 8-2019-q3 (GCC 8.3.1, before GCC 10 changed the
# -O2 inlining). This unpacks it with its binutils and newlib into build/gcc8 (nothing installed
# system-wide: the project's toolchain stays GCC 12) and writes build/gcc8/arm-none-eabi-gcc, a
# driver that finds that newlib, for `python -m rtoslab.silicon --gcc build/gcc8/arm-none-eabi-gcc`.
# Idempotent; about 70 MB from Debian's archive.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
dest="$root/build/gcc8"
driver="$dest/arm-none-eabi-gcc"
if [ -x "$driver" ] && "$driver" -dumpfullversion >/dev/null 2>&1; then
    echo "fetch_gcc8: $driver ($("$driver" -dumpfullversion)) is there"
    exit 0
fi
apt_dir="$dest/apt"
mkdir -p "$apt_dir/lists/partial" "$apt_dir/archives/partial" "$dest/debs"
# bullseye from the same archive as the machine's own sources, in a private apt state so the
# system's package lists and installed packages are not touched
echo "deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] http://deb.debian.org/debian bullseye main" \
    > "$apt_dir/sources.list"
apt_opts=(-o "Dir::Etc::sourcelist=$apt_dir/sources.list" -o "Dir::Etc::sourceparts=-"
          -o "Dir::State::Lists=$apt_dir/lists" -o "Dir::Cache::Archives=$apt_dir/archives"
          -o "APT::Sandbox::User=root")
apt-get "${apt_opts[@]}" -qq update
(cd "$dest/debs" && apt-get "${apt_opts[@]}" -qq download \
    gcc-arm-none-eabi/bullseye binutils-arm-none-eabi/bullseye \
    libnewlib-arm-none-eabi/bullseye libnewlib-dev/bullseye)
rm -rf "$dest/root"
for deb in "$dest"/debs/*.deb; do
    dpkg-deb -x "$deb" "$dest/root"
done
# Debian's driver looks for newlib under /usr (its configured prefix); point it at the unpacked one
cat > "$driver" <<'EOF'
#!/bin/sh
# GCC 8.3.1 (Debian bullseye's gcc-arm-none-eabi) unpacked beside this file, with its own newlib
here=$(cd "$(dirname "$0")" && pwd)
r="$here/root/usr"
exec "$r/bin/arm-none-eabi-gcc" -B"$r/lib/arm-none-eabi/newlib/" -isystem "$r/include/newlib" "$@"
EOF
chmod +x "$driver"
echo "fetch_gcc8: $driver ($("$driver" -dumpfullversion))"
