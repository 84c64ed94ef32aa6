#!/usr/bin/env bash
# The scale section of `make bench` (issue 17): msProbe full weight-gradient monitoring at the
# size of a real job, written by `runtop_benchgen --msprobe-scale` (bench/msprobe_scale.h).
# For each shape RANKSxPARAMSxSTEPSxPER_FILE: the tree's files, bytes, series and points; `cat`
# and `runtop ls` on one core (taskset -c 0) and unpinned; peak RSS with the default budget and
# with --memory BUDGET next to that budget; bytes per series and per point; `check` next to
# `ls` (and that it finds the one injected spike); `ls --filter` on one tag; the headless first
# frame (`runtop snapshot`); the dashboard's first frame and key latency while it loads
# (runtop_pty_probe). Page cache warm; times are the best of RUNS.
# Usage: bench/scale_bench.sh BUILD_DIR. Environment: BENCH_SCALE_SHAPES (space-separated,
# default "256x400x100x5"), BENCH_SCALE_BUDGET (default 256M), BENCH_RUNS (default 3).
set -euo pipefail
export LC_ALL=C

BUILD=${1:-build}
RUNS=${BENCH_RUNS:-3}
SHAPES=${BENCH_SCALE_SHAPES:-256x400x100x5}
BUDGET=${BENCH_SCALE_BUDGET:-256M}
RUNTOP=$BUILD/runtop
GEN=$BUILD/bench/runtop_benchgen
PTY=$BUILD/bench/runtop_pty_probe
GEN_VERSION=msprobe-scale-1  # bump when runtop_benchgen --msprobe-scale writes other bytes
source "$(dirname "$0")/bench_lib.sh"

PIN=()
if command -v taskset >/dev/null 2>&1 && taskset -c 0 true 2>/dev/null; then PIN=(taskset -c 0); fi
budget_mb=$(awk -v b="$BUDGET" 'BEGIN { n = b + 0; u = toupper(substr(b, length(b)));
    print (u == "G") ? n * 1024 : (u == "K") ? n / 1024 : n }')

for shape in $SHAPES; do
    DIR=$BUILD/bench-scale-$shape
    STAMP=$DIR/.benchgen
    if [[ -f $STAMP && "$(head -1 "$STAMP")" == "$GEN_VERSION" ]]; then
        echo "scale bench data: $DIR (kept)"
    else
        rm -rf "$DIR"
        line=$("$GEN" --msprobe-scale "$shape" "$DIR")
        printf '%s\n%s\n' "$GEN_VERSION" "$line" >"$STAMP"
    fi
    gen_line=$(sed -n 2p "$STAMP")
    files=$(awk '{ print $2 }' <<<"$gen_line")
    bytes=$(awk '{ print $6 }' <<<"$gen_line")
    series=$(awk '{ print $8 }' <<<"$gen_line")
    points=$(awk '{ print $10 }' <<<"$gen_line")
    spike_tag=$(sed -E 's/.*spike: rank [0-9]+, ([^,]+), step.*/\1/' <<<"$gen_line")

    run_cat() { "${PIN[@]}" sh -c 'find "$1" -name "*.csv" -print0 | xargs -0 cat >/dev/null' _ "$DIR"; }
    run_ls() { "${PIN[@]}" "$RUNTOP" ls "$DIR" >/dev/null 2>&1; }
    run_ls_free() { "$RUNTOP" ls "$DIR" >/dev/null 2>&1; }
    run_check() { "${PIN[@]}" "$RUNTOP" check "$DIR" >/dev/null 2>&1 || [[ $? == 1 ]]; }
    run_filter() { "${PIN[@]}" "$RUNTOP" ls --filter "^${spike_tag//./\\.}\$" "$DIR" >/dev/null 2>&1; }
    run_snapshot() { "${PIN[@]}" "$RUNTOP" snapshot --size 250x80 "$DIR" >/dev/null 2>&1; }

    run_cat  # warm the page cache
    found=$("$RUNTOP" check --format json "$DIR" 2>/dev/null | grep -c '"rule": *"spike"' || true)
    read -r t_cat _ < <(best_times run_cat)
    read -r t_ls c_ls < <(best_times run_ls)
    read -r t_free _ < <(best_times run_ls_free)
    read -r t_check c_check < <(best_times run_check)
    read -r t_filter _ < <(best_times run_filter)
    t_snap=$(best_of run_snapshot)
    rss=$(peak_rss_kb "$RUNTOP" ls "$DIR")
    rss_budget=$(peak_rss_kb "$RUNTOP" ls --memory "$BUDGET" "$DIR")
    rss_filter=$(peak_rss_kb "$RUNTOP" ls --filter "^${spike_tag//./\\.}\$" "$DIR")
    rss_snap=$(peak_rss_kb "$RUNTOP" snapshot --size 250x80 "$DIR")

    echo
    echo "scale: msProbe $shape (ranks x params x steps x steps a file): $files files, $bytes bytes,"
    echo "       $series series, $points points; page cache warm; best of $RUNS"
    awk -v b="$bytes" -v s="$series" -v p="$points" -v tc="$t_cat" -v tl="$t_ls" -v cl="$c_ls" \
        -v tf="$t_free" -v tk="$t_check" -v ck="$c_check" -v tfl="$t_filter" -v ts="$t_snap" \
        -v r="$rss" -v rb="$rss_budget" -v rf="$rss_filter" -v rs="$rss_snap" -v bud="$BUDGET" \
        -v budmb="$budget_mb" -v found="$found" 'BEGIN {
        printf "  %-40s %9s %9s %12s\n", "", "wall (s)", "MB/s", "vs cat"
        printf "  %-40s %9.3f %9.0f %12s\n", "cat FILES, one core", tc, b / tc / 1e6, "1"
        printf "  %-40s %9.3f %9.0f %11.1fx\n", "runtop ls, one core", tl, b / tl / 1e6, tl / tc
        printf "  %-40s %9.3f %9.0f %11.1fx\n", "runtop ls, unpinned", tf, b / tf / 1e6, tf / tc
        printf "  unpinned vs one core = %.2fx (goal >= 1.7x)\n", tl / tf
        printf "  check vs ls, one core = %.2fx cpu (goal <= 1.25x); spike records found: %d (1 injected)\n", ck / cl, found
        printf "  ls --filter ONE_TAG = %.3f s, %.2fx unfiltered; peak RSS %.1f MB (goal <= 64 MB)\n", tfl, tfl / tl, rf / 1024
        printf "  peak RSS, default budget = %.1f MB: %.0f bytes per series, %.1f per point\n", r / 1024, r * 1024 / s, r * 1024 / p
        printf "  peak RSS, --memory %s = %.1f MB (goal <= %d MB + 64 MB)\n", bud, rb / 1024, budmb
        printf "  first frame, headless (snapshot 250x80) = %.3f s, peak RSS %.1f MB\n", ts, rs / 1024
    }'
    if [[ -x $PTY ]]; then
        "$PTY" --size 250x80 --wait-text grad_unreduced --keys "j,j,l,k,2,1,j" --repeat 2 \
            --key-window-ms 500 --quiet-ms 10 --quit-keys q --timeout-seconds 120 -- \
            "$RUNTOP" "$DIR" |
            grep -E '^(first_frame_ms|key_latency_ms_(median|p95|max))=' |
            sed 's/^/  dashboard (pty 250x80): /'
    fi
done
