#!/usr/bin/env bash
# The portable binary on a bare Debian: copies runtop-portable alone into a minimal debootstrap
# chroot (minbase: no ncurses library, no libstdc++ beyond what apt needs, no protobuf, RE2 or
# fmt), removes the chroot's terminfo database, and checks that it writes a demo run, lists and
# renders it, and runs the dashboard in a tmux pane (TERM=tmux-256color, unknown there), through
# `ssh -tt` when an sshd is given. Needs root, debootstrap and tmux; the chroot is made once.
#
#   scripts/portable-smoke.sh BINARY [CHROOT_DIR] [SSH_PORT]
#
# SSH_PORT: an sshd on 127.0.0.1 that takes root's key (as tests/ssh_localhost.cpp starts);
# without it the pane runs chroot directly.
set -euo pipefail

binary=${1:?usage: scripts/portable-smoke.sh BINARY [CHROOT_DIR] [SSH_PORT]}
root=${2:-/tmp/runtop-chroot}
ssh_port=${3:-}

if [[ ! -x $root/bin/sh ]]; then
    echo "debootstrap --variant=minbase bookworm $root"
    debootstrap --variant=minbase bookworm "$root" http://deb.debian.org/debian >/dev/null
fi
# No terminfo at all: the built-in xterm-256color must carry the dashboard.
rm -rf "$root/usr/share/terminfo" "$root/lib/terminfo" "$root/etc/terminfo"
for lib in libncursesw.so.6 libprotobuf.so.32 libre2.so.9 libfmt.so.9; do
    if compgen -G "$root/usr/lib/x86_64-linux-gnu/$lib*" >/dev/null; then
        echo "note: the chroot has $lib (the binary must not need it)"
    fi
done

install -m 0755 "$binary" "$root/runtop"
in_root() { chroot "$root" env -i PATH=/usr/bin:/bin HOME=/root LANG=C.UTF-8 "$@"; }

echo "size: $(stat -c %s "$binary") bytes"
in_root /runtop --version
rm -rf "$root/tmp/run"
in_root /runtop demo --no-ui --rate 0 --ranks 4 --steps 300 --dir /tmp/run
in_root /runtop ls /tmp/run | sed -n 1,3p
in_root /runtop snapshot --size 100x12 /tmp/run | sed -n 1,6p
in_root /runtop check /tmp/run >/dev/null && status=0 || status=$?
[[ $status == 1 ]] || { echo "runtop check: exit $status, expected 1 (the demo's NaN)"; exit 1; }

# The dashboard, live, in a terminal whose type the chroot cannot look up.
session=runtop-smoke-$$
command="chroot $root env -i PATH=/usr/bin:/bin HOME=/root LANG=C.UTF-8 TERM=tmux-256color \
/runtop demo --dir /tmp/live --ranks 4 --steps 3000 --rate 30"
if [[ -n $ssh_port ]]; then
    command="ssh -p $ssh_port -o StrictHostKeyChecking=no -o UserKnownHostsFile=/dev/null \
-o BatchMode=yes -o LogLevel=ERROR -tt root@127.0.0.1 '$command'"
fi
rm -rf "$root/tmp/live"
tmux new-session -d -s "$session" -x 120 -y 32 "$command; sleep 30"
trap 'tmux kill-session -t "$session" 2>/dev/null || true' EXIT
for _ in $(seq 100); do
    screen=$(tmux capture-pane -p -t "$session")
    if grep -q "train/loss" <<<"$screen" && grep -q "drawing as xterm-256color" <<<"$screen"; then
        break
    fi
    sleep 0.1
done
echo "$screen" | head -8
echo "$screen" | tail -2
grep -q "train/loss" <<<"$screen" || { echo "FAIL: no dashboard in the pane"; exit 1; }
LC_ALL=C.UTF-8 grep -qP '[\x{2801}-\x{28FF}]' <<<"$screen" || { echo "FAIL: no braille in the pane"; exit 1; }
tmux send-keys -t "$session" q
echo "OK: runtop-portable ran alone in $root$([[ -n $ssh_port ]] && echo ' through ssh')"
