#!/usr/bin/env bash
# The scale section of `make bench` (issue 17): runtop on trees of a real job's size, written by
# runtop_benchgen. A shape is typed:
#   msprobe:RANKSxPARAMSxSTEPSxPER_FILE  msProbe full weight-gradient monitoring, 5 ops a
#                                        parameter (so PARAMS parameters are 5 x PARAMS tags),
#                                        PER_FILE steps a CSV (--msprobe-scale, msprobe_scale.h)
#   events:RANKSxTAGSxSTEPS              one TensorBoard event file a rank with TAGS
#                                        per-parameter tags (--events-scale, events_scale.h)
# An untyped RxPxSxK is msprobe (the first form of this script). For each shape: the tree's
# files, bytes, series and points; `cat` and `runtop ls` on one core (taskset -c 0) and
# unpinned; peak RSS with the default budget and with --memory BUDGET next to that budget; bytes
# per series and per point; `check` next to `ls` (and that it finds the one injected spike);
# `ls --filter` on one tag; the headless first frame (`runtop snapshot`); the dashboard's first
# frame and key latency while it loads (runtop_pty_probe). Page cache warm; times are the best
# of RUNS. The tree is kept in BUILD/bench-scale-KIND-DIMS and written again when its
# generator's version (below) changes.
# Usage: bench/scale_bench.sh BUILD_DIR. Environment: BENCH_SCALE_SHAPES (space-separated,
# default "msprobe:256x400x100x5 events:8x2000x1000"), BENCH_SCALE_BUDGET (default 256M),
# BENCH_RUNS (default 3). bench/README.md lists the shapes of issue 17's goal table.
set -euo pipefail
export LC_ALL=C

BUILD=${1:-build}
RUNS=${BENCH_RUNS:-3}
SHAPES=${BENCH_SCALE_SHAPES:-msprobe:256x400x100x5 events:8x2000x1000}
BUDGET=${BENCH_SCALE_BUDGET:-256M}
RUNTOP=$BUILD/runtop
GEN=$BUILD/bench/runtop_benchgen
PTY=$BUILD/bench/runtop_pty_probe
source "$(dirname "$0")/bench_lib.sh"

PIN=() PIN2=()
if command -v taskset >/dev/null 2>&1 && taskset -c 0 true 2>/dev/null; then PIN=(taskset -c 0); fi
# A second CPU for the yardstick: two one-core runs side by side show what 2 cores give work
# that shares nothing on this machine (a VM's two vCPUs may share a core or its caches).
if [[ ${#PIN[@]} -gt 0 ]] && taskset -c 1 true 2>/dev/null; then PIN2=(taskset -c 1); fi
budget_mb=$(awk -v b="$BUDGET" 'BEGIN { n = b + 0; u = toupper(substr(b, length(b)));
    print (u == "G") ? n * 1024 : (u == "K") ? n / 1024 : n }')

# What each kind of shape is: its generator flag, the version of the bytes that flag writes
# (bump it when they change: a kept tree is then written again), the data files' names (what
# `cat` reads), the text of a card on the dashboard's first screen (its first tag family in
# name order: the pty probe waits for it), the kind and its dims in words.
set_kind() {
    case $1 in
    msprobe)
        GEN_FLAG=--msprobe-scale GEN_VERSION=msprobe-scale-1 DATA_NAME='*.csv'
        FIRST_CARD=grad_unreduced KIND_TEXT=msProbe
        DIMS_TEXT="ranks x params x steps x steps a file" ;;
    events)
        GEN_FLAG=--events-scale GEN_VERSION=events-scale-1 DATA_NAME='events.out.tfevents.*'
        FIRST_CARD=grad_abs_max KIND_TEXT="event files" DIMS_TEXT="ranks x tags x steps" ;;
    *)
        echo "scale_bench.sh: unknown shape kind '$1' (msprobe or events)" >&2
        exit 2 ;;
    esac
}

# prepare_tree DIR DIMS: writes the tree unless DIR holds one of this GEN_VERSION; its
# generator's line is the stamp's second line.
prepare_tree() {
    local dir=$1 dims=$2 stamp=$1/.benchgen line
    if [[ -f $stamp && "$(head -1 "$stamp")" == "$GEN_VERSION" ]]; then
        echo "scale bench data: $dir (kept)"
    else
        rm -rf "$dir"
        line=$("$GEN" "$GEN_FLAG" "$dims" "$dir")
        printf '%s\n%s\n' "$GEN_VERSION" "$line" >"$stamp"
    fi
}

# bench_tree DIR TITLE: every figure of the section for one tree.
bench_tree() {
    local dir=$1 title=$2 gen_line files bytes series points spike_tag
    gen_line=$(sed -n 2p "$dir/.benchgen")
    # Both generators print "runtop_benchgen: N <kind> files, B bytes, S series, P points in
    # DIR; spike: rank R, TAG, step N".
    files=$(awk '{ print $2 }' <<<"$gen_line")
    bytes=$(awk '{ print $6 }' <<<"$gen_line")
    series=$(awk '{ print $8 }' <<<"$gen_line")
    points=$(awk '{ print $10 }' <<<"$gen_line")
    spike_tag=$(sed -E 's/.*spike: rank [0-9]+, ([^,]+), step.*/\1/' <<<"$gen_line")
    local filter="^${spike_tag//./\\.}\$"

    run_cat() { "${PIN[@]}" sh -c 'find "$1" -name "$2" -print0 | xargs -0 cat >/dev/null' _ "$dir" "$DATA_NAME"; }
    run_ls() { "${PIN[@]}" "$RUNTOP" ls "$dir" >/dev/null 2>&1; }
    run_ls_free() { "$RUNTOP" ls "$dir" >/dev/null 2>&1; }
    run_ls_pair() {
        "${PIN[@]}" "$RUNTOP" ls "$dir" >/dev/null 2>&1 &
        "${PIN2[@]}" "$RUNTOP" ls "$dir" >/dev/null 2>&1
        wait
    }
    run_check() { "${PIN[@]}" "$RUNTOP" check "$dir" >/dev/null 2>&1 || [[ $? == 1 ]]; }
    run_filter() { "${PIN[@]}" "$RUNTOP" ls --filter "$filter" "$dir" >/dev/null 2>&1; }
    run_snapshot() { "${PIN[@]}" "$RUNTOP" snapshot --size 250x80 "$dir" >/dev/null 2>&1; }

    run_cat  # warm the page cache
    local found t_cat t_ls c_ls t_free m_ls m_free r_free t_pair=0 t_check c_check t_filter t_snap rss rss_budget rss_filter rss_snap
    found=$("$RUNTOP" check --format json "$dir" 2>/dev/null | grep -c '"rule": *"spike"' || true)
    read -r t_cat _ < <(best_times run_cat)
    read -r t_ls c_ls < <(best_times run_ls)
    # Unpinned is timed only in turn with one core: its best comes from those pairs.
    read -r m_ls m_free r_free _ t_free < <(paired_times run_ls run_ls_free)
    if [[ ${#PIN2[@]} -gt 0 ]]; then read -r t_pair _ < <(best_times run_ls_pair); fi
    read -r t_check c_check < <(best_times run_check)
    read -r t_filter _ < <(best_times run_filter)
    t_snap=$(best_of run_snapshot)
    rss=$(peak_rss_kb "$RUNTOP" ls "$dir")
    rss_budget=$(peak_rss_kb "$RUNTOP" ls --memory "$BUDGET" "$dir")
    rss_filter=$(peak_rss_kb "$RUNTOP" ls --filter "$filter" "$dir")
    rss_snap=$(peak_rss_kb "$RUNTOP" snapshot --size 250x80 "$dir")

    echo "scale: $title: $files files, $bytes bytes,"
    echo "       $series series, $points points; page cache warm; best of $RUNS"
    awk -v b="$bytes" -v s="$series" -v p="$points" -v tc="$t_cat" -v tl="$t_ls" -v cl="$c_ls" \
        -v tf="$t_free" -v ml="$m_ls" -v mf="$m_free" -v rf1="$r_free" -v tp="$t_pair" -v tk="$t_check" -v ck="$c_check" -v tfl="$t_filter" -v ts="$t_snap" \
        -v r="$rss" -v rb="$rss_budget" -v rf="$rss_filter" -v rs="$rss_snap" -v bud="$BUDGET" \
        -v budmb="$budget_mb" -v found="$found" -v runs="$RUNS" 'BEGIN {
        printf "  %-40s %9s %9s %12s\n", "", "wall (s)", "MB/s", "vs cat"
        printf "  %-40s %9.3f %9.0f %12s\n", "cat FILES, one core", tc, b / tc / 1e6, "1"
        printf "  %-40s %9.3f %9.0f %11.1fx\n", "runtop ls, one core", tl, b / tl / 1e6, tl / tc
        printf "  %-40s %9.3f %9.0f %11.1fx\n", "runtop ls, unpinned", tf, b / tf / 1e6, tf / tc
        printf "  unpinned vs one core = %.2fx (goal >= 1.7x): the median of %d pairs run in turn (%.3f vs %.3f s, medians); best against best %.2fx\n", rf1, runs, ml, mf, tl / tf
        if (tp > 0)
            printf "  two one-core ls side by side = %.3f s: this machine gives 2 cores %.2fx for work sharing nothing\n", tp, 2 * tl / tp
        printf "  check vs ls, one core = %.2fx cpu (goal <= 1.25x); spike records found: %d (1 injected)\n", ck / cl, found
        printf "  ls --filter ONE_TAG = %.3f s, %.2fx unfiltered; peak RSS %.1f MB (goal <= 64 MB)\n", tfl, tfl / tl, rf / 1024
        printf "  peak RSS, default budget = %.1f MB: %.0f bytes per series, %.1f per point\n", r / 1024, r * 1024 / s, r * 1024 / p
        printf "  peak RSS, --memory %s = %.1f MB (goal <= %d MB + 64 MB)\n", bud, rb / 1024, budmb
        printf "  first frame, headless (snapshot 250x80) = %.3f s, peak RSS %.1f MB\n", ts, rs / 1024
    }'
    if [[ -x $PTY ]]; then
        "$PTY" --size 250x80 --wait-text "$FIRST_CARD" --keys "j,j,l,k,2,1,j" --repeat 2 \
            --key-window-ms 500 --quiet-ms 10 --quit-keys q --timeout-seconds 120 -- \
            "$RUNTOP" "$dir" |
            grep -E '^(first_frame_ms|key_latency_ms_(median|p95|max))=' |
            sed 's/^/  dashboard (pty 250x80): /'
    fi
}

for shape in $SHAPES; do
    kind=msprobe dims=$shape
    if [[ $shape == *:* ]]; then kind=${shape%%:*} dims=${shape#*:}; fi
    set_kind "$kind"
    dir=$BUILD/bench-scale-$kind-$dims
    echo
    prepare_tree "$dir" "$dims"
    bench_tree "$dir" "$KIND_TEXT $dims ($DIMS_TEXT)"
done
