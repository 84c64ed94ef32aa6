#!/usr/bin/env bash
# The .deb on a bare Debian: installs build/runtop_*.deb with apt into a minimal debootstrap
# chroot (apt resolves its Depends from the Debian archive) and checks `runtop --help`,
# `man runtop`, the completions and the theme files, then removes it again. Needs root,
# debootstrap and network access to deb.debian.org; the chroot is made once.
#
#   scripts/deb-smoke.sh DEB [CHROOT_DIR]
set -euo pipefail

deb=${1:?usage: scripts/deb-smoke.sh DEB [CHROOT_DIR]}
root=${2:-/tmp/runtop-deb-chroot}

if [[ ! -x $root/bin/sh ]]; then
    echo "debootstrap --variant=minbase bookworm $root"
    debootstrap --variant=minbase bookworm "$root" http://deb.debian.org/debian >/dev/null
fi
in_root() { chroot "$root" env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root LANG=C.UTF-8 \
    TERM=xterm-256color DEBIAN_FRONTEND=noninteractive "$@"; }

cp "$deb" "$root/tmp/runtop.deb"
# man-db is what `man` needs; a minimal Debian has no man. The package itself pulls in only
# its Depends (dpkg -I shows them).
in_root apt-get update -qq
in_root apt-get install -y -qq man-db >/dev/null
# minbase excludes man pages (/etc/dpkg/dpkg.cfg.d/excludes on some images): allow them.
rm -f "$root/etc/dpkg/dpkg.cfg.d/excludes"
in_root apt-get install -y -qq /tmp/runtop.deb >/dev/null
in_root dpkg -s runtop | grep -E '^(Status|Version|Depends):'

in_root runtop --version
in_root runtop --help | sed -n 1,4p
in_root runtop check --help | sed -n 1,3p
in_root man -P cat runtop | sed -n 1,12p
in_root man -w runtop
in_root sh -c 'man -P cat runtop | grep -q "print-config"'
in_root test -f /usr/share/bash-completion/completions/runtop
in_root test -f /usr/share/zsh/vendor-completions/_runtop
in_root ls /usr/share/runtop/themes
in_root runtop demo --no-ui --rate 0 --ranks 2 --steps 100 --dir /tmp/run >/dev/null
in_root runtop snapshot --size 80x8 /tmp/run | sed -n 1,4p
in_root apt-get remove -y -qq runtop >/dev/null
echo "OK: $(basename "$deb") installed, ran, and removed in $root"
