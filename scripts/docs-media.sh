#!/usr/bin/env bash
# Regenerates every media file of the README, into docs/media/, from a runtop binary:
#
#   scripts/docs-media.sh build/runtop
#
#   docs/media/{overview,ranks,heatmap,anomalies,detail,compare}.txt
#       `runtop snapshot --size 100x30` frames (plain text, no colour) of demo runs
#   docs/media/demo.cast   asciinema recording of the live `runtop demo` (100x30, about 20 s)
#   docs/media/demo.svg    the same recording as an animated SVG (svg-term-cli, through npx)
#
# Needs tmux, asciinema and python3 (Debian packages), and npx (npm: svg-term-cli is fetched
# from the npm registry on first use; or set SVG_TERM=/path/to/svg-term). The demo runs are
# written at once and dated from SOURCE_DATE_EPOCH, so the text files come out byte for byte the
# same on every run (the demo is seeded); the cast is live and differs each time.
set -euo pipefail

if [[ $# -ne 1 || $1 == -h || $1 == --help ]]; then
    echo "usage: $0 path/to/runtop" >&2
    exit 2
fi
[[ -x $1 ]] || { echo "$0: $1: not an executable" >&2; exit 2; }
for tool in tmux asciinema python3; do
    command -v "$tool" >/dev/null || { echo "$0: $tool is missing (apt-get install $tool)" >&2; exit 2; }
done

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
out=$repo/docs/media
mkdir -p "$out"

work=$(mktemp -d "${TMPDIR:-/tmp}/runtop-docs-media.XXXXXX")
sock=runtop-docs-media-$$ # a tmux server of our own, whatever else runs tmux here
cleanup() {
    tmux -L "$sock" kill-server 2>/dev/null || true
    rm -rf "$work"
}
trap cleanup EXIT

# A copy, so that a rebuild in progress cannot swap the binary under the recording.
cp "$1" "$work/runtop"
runtop=$work/runtop

# Stable output: UTF-8 glyphs, times in UTC, no user config, theme or rules file.
export LANG=C.UTF-8 LC_ALL=C.UTF-8 TZ=UTC XDG_CONFIG_HOME=$work/config
mkdir -p "$XDG_CONFIG_HOME"

# 2026-01-15 09:00:00 UTC: `runtop demo --rate 0` dates its points from it.
export SOURCE_DATE_EPOCH=1768467600

# --- 1. demo runs, written at once ---------------------------------------------------------
# The demo is seeded: same options, same values. Its trouble: a loss/grad_norm spike on rank 1
# at 35% of the steps, NaN on rank 2 at 70%, rank 7 straggling (throughput, GPU util).
demo() { "$runtop" demo --no-ui --rate 0 --ranks 8 "$@" >/dev/null; }
demo --steps 600 --dir "$work/run"
# For the compare view: the same job on a longer schedule (warmup, decay, trouble all scale).
demo --steps 800 --dir "$work/long"

# --- 2. text screenshots -------------------------------------------------------------------
snap() {
    local name=$1
    shift
    "$runtop" snapshot --size 100x30 --color never "$@" >"$out/$name.txt"
}
snap overview --view overview "$work/run"
snap ranks --view ranks "$work/run"
snap heatmap --view heatmap --tag train/loss "$work/run"
snap anomalies --view anomalies "$work/run"
snap detail --view detail --tag train/loss --step 210 "$work/run" # the rank-1 spike
# The TensorBoard halves: with whole demo directories the compare view pairs the msProbe runs
# (the first run of each root), whose tags read less plainly than train/loss.
snap compare --view compare base="$work/run/tensorboard" new="$work/long/tensorboard"

# --- 3. asciinema recording of the live dashboard, in a detached 100x30 tmux ---------------
cat >"$work/tmux.conf" <<'EOF'
set -g status off
set -g remain-on-exit off
EOF
tmx() { tmux -L "$sock" -f "$work/tmux.conf" "$@"; }

# Wait until the pane shows TEXT (at most $2 seconds, default 30).
wait_for() {
    local deadline=$((SECONDS + ${2:-30}))
    until tmx capture-pane -p -t media 2>/dev/null | grep -qF -- "$1"; do
        if ((SECONDS >= deadline)); then
            echo "$0: timed out waiting for '$1' in the recording; the screen:" >&2
            tmx capture-pane -p -t media >&2 || true
            exit 1
        fi
        sleep 0.2
    done
}
key() { tmx send-keys -t media "$@"; }

# 600 steps at 40 a second: the spike lands about 5 s in, the NaN about 10 s in. Run from the
# work directory, so the recording shows a short relative path rather than a temporary one.
live='./runtop demo --ranks 8 --steps 600 --rate 40 --dir runs/demo'
rec="asciinema rec --overwrite --quiet --idle-time-limit 1 --title 'runtop demo' -c '$live' demo.cast"
tmx new-session -d -s media -x 100 -y 30 -c "$work" \
    "env -u NO_COLOR -u COLORTERM TERM=xterm-256color SHELL=/bin/sh $rec"

wait_for 'train/loss'    # the overview is up, filling live
wait_for '△' 30          # the spike on rank 1 is flagged
sleep 2
key 2                    # ranks: tags x ranks, cells off the median coloured
wait_for 'OUTLIERS'
sleep 3
key 3                    # heatmap: rank x step
wait_for 'steps a column'
sleep 3
key 4                    # anomalies, first failure first
wait_for 'RULE'
wait_for ' alert ' 30    # the NaN on rank 2 (an alert) has arrived
sleep 2
key Enter                # the first anomaly's chart: grad_norm, rank 1, step 210
wait_for 'CURSOR'
sleep 3
key n                    # the next anomaly: the loss spike
wait_for 'train/loss  8 ranks'
sleep 3
key q
for _ in $(seq 100); do
    tmx has-session -t media 2>/dev/null || break
    sleep 0.1
done
if tmx has-session -t media 2>/dev/null; then
    echo "$0: the dashboard did not quit" >&2
    exit 1
fi
[[ -s $work/demo.cast ]] || { echo "$0: no recording was written" >&2; exit 1; }
cp "$work/demo.cast" "$out/demo.cast"

# --- 4. animated SVG of the recording ------------------------------------------------------
# svg-term makes one SVG frame per cast event: the output is merged into 0.2 s slots first
# (5 frames a second: about 1.3 MB instead of 2.4), and cut where the dashboard leaves the
# alternate screen, so the animation loops on the dashboard. --no-optimize: svgo would
# collapse the runs of spaces that align the columns.
python3 - "$out/demo.cast" "$work/svg.cast" <<'EOF'
import json, sys
lines = open(sys.argv[1], encoding="utf-8").read().splitlines()
frames, slot, buf = [], None, ""
for line in lines[1:]:
    t, kind, data = json.loads(line)
    if kind != "o":
        continue
    if "\x1b[?1049l" in data:  # the dashboard quit
        break
    s = round(int(t / 0.2) * 0.2, 1)
    if slot is not None and s != slot:
        frames.append([slot, "o", buf])
        buf = ""
    slot, buf = s, buf + data
if buf:
    frames.append([slot, "o", buf])
with open(sys.argv[2], "w", encoding="utf-8") as f:
    f.write(lines[0] + "\n" + "".join(json.dumps(e) + "\n" for e in frames))
EOF
if [[ -n ${SVG_TERM:-} ]]; then
    svg_term=("$SVG_TERM")
elif command -v npx >/dev/null; then
    svg_term=(npx --yes svg-term-cli@2.1.1)
else
    svg_term=()
    echo "$0: neither SVG_TERM nor npx: demo.svg not made" >&2
fi
if ((${#svg_term[@]})); then
    "${svg_term[@]}" --in "$work/svg.cast" --out "$work/demo.svg" --window --width 100 \
        --height 30 --no-optimize
    # svg-term places each run of text at its column but lets the font lay out the glyphs:
    # braille, missing from most monospace fonts, comes from a wider fallback font and pushes
    # the charts past their frames, and the last column is cut. textLength pins such runs to
    # their cells (1.002 units a column in svg-term's drawing, 100 columns).
    python3 - "$work/demo.svg" "$out/demo.svg" <<'EOF'
import html, re, sys
svg = open(sys.argv[1], encoding="utf-8").read()
def pin(m):
    attrs, text = m.group(1), m.group(2)
    x = re.search(r'\bx="([-0-9.]+)"', attrs)
    n = len(html.unescape(text))
    if not n or not x or "textLength" in attrs:
        return m.group(0)
    end = float(x.group(1)) + n * 1.002
    if text.isascii() and end < 99.9:
        return m.group(0)  # plain ASCII inside the frame: the monospace font gets it right
    length = n * 1.002 - max(0.0, end - 100)
    return f'<text{attrs} textLength="{length:.3f}" lengthAdjust="spacingAndGlyphs">{text}</text>'
open(sys.argv[2], "w", encoding="utf-8").write(re.sub(r"<text([^>]*)>([^<]*)</text>", pin, svg))
EOF
fi

ls -l "$out"
