#!/usr/bin/env bash
# End-to-end ingest benchmark (DESIGN.md §7), then the micro benchmarks.
# Usage: bench/run_bench.sh BUILD_DIR   (what `make bench` runs)
#
# 1. Writes ~100 MB of scalar event files into BUILD_DIR/bench-data once (8 ranks, ~160 tags,
#    runtop_benchgen); kept while its size matches what was generated.
# 2. Warms the page cache, then in the same run times `cat FILES >/dev/null` and
#    `runtop ls DIR >/dev/null` on one core (taskset -c 0 when available), best of 3 each,
#    and prints MB/s, records/s and ratios (to cat, and to TensorBoard's Python
#    EventAccumulator at 4.25 MB/s, TFEVENTS.md §8.1), plus runtop's peak RSS.
# 3. The same for msProbe monitor CSVs: ~BENCH_MB of them in BUILD_DIR/bench-data-csv (8 ranks,
#    thousands of 5-step files, `runtop_benchgen --msprobe-csv`), `cat FILES` next to
#    `runtop ls DIR`, rows/s, and pandas.read_csv over the same files in one Python process
#    when pandas is importable (bar: >= 500 MB/s on one core and >= 5x pandas). Wall and CPU
#    time both (CPU time is the steadier on a shared machine), and where ls spends its time:
#    runtop_ingest_probe reads the data into a counting sink (the readers alone) and into the
#    Store, and ls runs once more with malloc on huge pages (the Store's page faults).
# 3c. logs: a Megatron job's text output of BENCH_LOG_MB (default 200) where one line in 50 is
#     an iteration line (`runtop_benchgen --megatron-log`): `cat`, `grep -c iteration` and
#     `runtop ls` of it on one core, wall and CPU time, MB/s, and ls next to grep (bar: >= 500
#     MB/s wall).
# 4a. `runtop check` next to `runtop ls` on both data sets (the cost the rules add to reading;
#     bar: check at most 20 % slower).
# 4b. The core on 10^8 decoded points (runtop_analyze_probe, 1000 series, 256 MiB budget): the
#     Store alone, then Store + Analyzer with the default rules: points/s, bytes per retained
#     point, peak RSS (bars: >= 20 M points/s, <= 16 bytes per point, memory under the budget).
# 4. Live tail latency: append -> `runtop dump --follow` output, inotify and --poll=100
#    (the DumpFollow.AppendToOutputLatency test of BUILD_DIR/tests/runtop_tests).
# 5. Checks parse_value against strtod on a million random decimals (runtop_number_check),
#    then runs runtop_microbench briefly.
# Environment: BENCH_MB (default 100), BENCH_RUNS (default 3), BENCH_MIN_TIME (default 0.2),
# BENCH_NO_GNU_TIME=1 (measure RSS from /proc as on systems without GNU time),
# BENCH_PYTHON (default python3, then /usr/bin/python3: the first that imports pandas),
# 4c. The dashboard through a pseudo-terminal (runtop_pty_probe at 250x80): time to the first
#     frame showing train/loss on 1 GB of event files (bar 300 ms) and key latency while that
#     GB backfills (bar 50 ms); bytes written per frame when one value changes (a 100-card run,
#     runtop_append_probe appending one point at a time; bar 200 B) and idle CPU; frame time of
#     each view in-process (runtop_microbench BM_Frame*, 100 cards x 8 ranks x 10^4 points);
#     q at the first frame while that GB, or a 2 GB sparse file, is still read (bar 200 ms).
# 4d. Two 1 GB runs compared (issue 6): the 1 GB set of 4c and a second from the same seed that
#     diverges at step 5000 (`runtop_benchgen --diverge-at`). `runtop diff` next to `runtop ls`
#     of both (the reading they share; the difference is the comparison of every tag); `runtop
#     snapshot --view compare` next to `--view overview` (the first compare frame after ingest:
#     a RunComparer from scratch plus the drawing); the dashboard on a pty until its compare frame
#     says "live" next to the overview of the same two runs; runtop_compare_probe in-process
#     (compare_runs in each mode, a RunComparer's first and incremental updates).
#     Bars: diff of all tags <= 1 s, first compare frame <= 300 ms after ingest.
# 6. portable: runtop-portable (make portable) next to the dynamically linked runtop: size
#     (both stripped), start-up (`--version`, 200 runs) and `ls` of a demo run (820 k points).
# 3b. json: the files the JSON readers take whole (`runtop_benchgen --json`, BENCH_JSON_MB each,
#     default 30): one Hugging Face trainer_state.json (about 100 k log_history entries per
#     30 MB) and msProbe anomaly.json for 8 ranks. `runtop ls` of each, best of 3, MB/s; with
#     BENCH_BEFORE=OTHER_RUNTOP the same for that binary on the same files, and the ratio.
# 4e. scale (bench/scale_bench.sh, bench/README.md): msProbe trees and event files of a real
#     job's size, typed shapes in BENCH_SCALE_SHAPES: MB/s next to cat, peak RSS next to the
#     budget, bytes per series and point, check vs ls, ls --filter, first frame, key latency.
# BENCH_ONLY=events|csv|json|logs|check|guard|core|scale|dashboard|compare|live|micro|portable (run one
# section).
set -euo pipefail
export LC_ALL=C

BUILD=${1:-build}
MB=${BENCH_MB:-100}
RUNS=${BENCH_RUNS:-3}
MIN_TIME=${BENCH_MIN_TIME:-0.2}
RUNTOP=$BUILD/runtop
GEN=$BUILD/bench/runtop_benchgen
MICRO=$BUILD/bench/runtop_microbench
PROBE=$BUILD/bench/runtop_ingest_probe
NUMCHECK=$BUILD/bench/runtop_number_check
DATA=$BUILD/bench-data
STAMP=$DATA/.benchgen
PYTHON_MBPS=4.25  # TensorBoard EventAccumulator.Reload(), TFEVENTS.md §8.1
BAR_MBPS=1000     # DESIGN.md §7: >= 1 GB/s on one core with CRC checked
CSV_DATA=$BUILD/bench-data-csv
CSV_STAMP=$CSV_DATA/.benchgen
CSV_GEN_VERSION=msprobe-csv-1  # bump when runtop_benchgen --msprobe-csv writes other bytes
CSV_BAR_MBPS=500  # CSV ingest on one core
CSV_BAR_PANDAS=5  # ... and at least this many times pandas.read_csv
ONLY=${BENCH_ONLY:-}

for exe in "$RUNTOP" "$GEN" "$MICRO" "$PROBE" "$NUMCHECK" "$BUILD/bench/runtop_analyze_probe"; do
    if [[ ! -x $exe ]]; then
        echo "run_bench.sh: $exe is missing; build first (make build)" >&2
        exit 1
    fi
done

data_bytes() {
    find "$DATA" -type f -name 'events.out.tfevents.*' -printf '%s\n' 2>/dev/null |
        awk '{ s += $1 } END { printf "%d\n", s }'
}

# now, best_of, best_times: bench/bench_lib.sh (the scale section uses them too).
source "$(dirname "$0")/bench_lib.sh"

# Peak RSS of `runtop ls DIR`: GNU time when present, else sampled from /proc while it runs.
# Sets RSS_KB and RSS_HOW.
measure_rss() {
    RSS_KB=""
    RSS_HOW=""
    if [[ -z ${BENCH_NO_GNU_TIME:-} && -x /usr/bin/time ]] && /usr/bin/time -f %M -o /dev/null true 2>/dev/null; then
        local rss_file
        rss_file=$(mktemp)
        /usr/bin/time -f %M -o "$rss_file" "$RUNTOP" ls "$1" >/dev/null 2>&1
        RSS_KB=$(tail -1 "$rss_file")
        rm -f "$rss_file"
        RSS_HOW="GNU time %M"
    else
        "$RUNTOP" ls "$1" >/dev/null 2>&1 &
        local pid=$! peak=0 state hwm key value
        while :; do
            state="" hwm=""
            { while read -r key value _; do
                case $key in
                    State:) state=$value ;;
                    VmHWM:) hwm=$value ;;
                esac
            done <"/proc/$pid/status"; } 2>/dev/null || break
            if [[ -n $hwm ]] && ((hwm > peak)); then peak=$hwm; fi
            [[ $state == Z ]] && break  # exited: a zombie has no memory left to report
        done
        wait "$pid" || true
        RSS_KB=$peak
        RSS_HOW="VmHWM sampled from /proc (a lower bound)"
    fi
}

PIN=()
if command -v taskset >/dev/null 2>&1 && taskset -c 0 true 2>/dev/null; then
    PIN=(taskset -c 0)
    PINNED="pinned to CPU 0 (taskset -c 0)"
else
    PINNED="not pinned (no taskset)"
fi

LS_ERR=$(mktemp)
CSV_ERR=$(mktemp)
CSV_LIST=$(mktemp)
trap 'rm -f "$LS_ERR" "$CSV_ERR" "$CSV_LIST"' EXIT

if [[ -z $ONLY || $ONLY == events ]]; then
# --- 1. data ---------------------------------------------------------------------------------
if [[ -f $STAMP && "$(cat "$STAMP")" == "$MB $(data_bytes)" ]]; then
    echo "bench data: $DATA (kept, $(data_bytes) bytes)"
else
    rm -rf "$DATA"
    "$GEN" "$DATA" "$MB"
    echo "$MB $(data_bytes)" >"$STAMP"
fi
mapfile -t FILES < <(find "$DATA" -type f -name 'events.out.tfevents.*' | sort)
BYTES=$(data_bytes)

# --- 2. end to end ---------------------------------------------------------------------------
run_cat() { "${PIN[@]}" cat "${FILES[@]}" >/dev/null; }
run_ls() { "${PIN[@]}" "$RUNTOP" ls "$DATA" >/dev/null 2>"$LS_ERR"; }

# Warm the page cache (and runtop's own first-run costs) before timing anything.
run_cat
run_cat
run_ls

T_CAT=$(best_of run_cat)
T_LS=$(best_of run_ls)

RECORDS=$(sed -n 's/.* MB, \([0-9][0-9]*\) records).*/\1/p' "$LS_ERR" | tail -1)
if [[ -z $RECORDS ]]; then
    echo "run_bench.sh: could not read the record count from runtop ls:" >&2
    cat "$LS_ERR" >&2
    exit 1
fi
if ! grep -q ' 0 bad records, 0 bad rows, 0 resyncs; 0 unreadable, 0 waiting, 0 warnings' "$LS_ERR"; then
    echo "run_bench.sh: runtop ls reported problems with the bench data:" >&2
    cat "$LS_ERR" >&2
    exit 1
fi

measure_rss "$DATA"

echo
echo "ingest: $(( ${#FILES[@]} )) files, $BYTES bytes, $RECORDS records; page cache warm;" \
    "$PINNED; best of $RUNS"
awk -v bytes="$BYTES" -v recs="$RECORDS" -v tc="$T_CAT" -v tl="$T_LS" -v py="$PYTHON_MBPS" \
    -v bar="$BAR_MBPS" -v rss="$RSS_KB" -v rss_how="$RSS_HOW" 'BEGIN {
    mc = bytes / tc / 1e6; ml = bytes / tl / 1e6
    printf "  %-30s %9s %10s %14s %10s\n", "", "time (s)", "MB/s", "records/s", "vs cat"
    printf "  %-30s %9.4f %10.0f %14.0f %10s\n", "cat FILES > /dev/null", tc, mc, recs / tc, "1"
    printf "  %-30s %9.4f %10.0f %14.0f %10s\n", "runtop ls DIR > /dev/null", tl, ml, recs / tl,
           sprintf("%.3f", ml / mc)
    printf "  runtop / cat            = %.3f (1/%.1f)\n", ml / mc, mc / ml
    printf "  runtop / TensorBoard py = %.0fx  (EventAccumulator.Reload at %.2f MB/s, TFEVENTS.md 8.1)\n",
           ml / py, py
    printf "  runtop ls peak RSS      = %.1f MB  (%s; %.1f bytes per record)\n", rss / 1024,
           rss_how, rss * 1024 / recs
    ok = (ml >= bar && ml * 8 >= mc)
    printf "  bar (DESIGN.md 7): >= %d MB/s and >= 1/8 of cat: %s\n", bar, ok ? "PASS" : "FAIL"
}'

fi  # events

if [[ -z $ONLY || $ONLY == csv ]]; then
# --- 3. msProbe monitor CSVs -----------------------------------------------------------------
csv_bytes() {
    find "$CSV_DATA" -type f -name '*.csv' -printf '%s\n' 2>/dev/null |
        awk '{ s += $1 } END { printf "%d\n", s }'
}
if [[ -f $CSV_STAMP && "$(cat "$CSV_STAMP")" == "$CSV_GEN_VERSION $MB $(csv_bytes)" ]]; then
    echo
    echo "csv bench data: $CSV_DATA (kept, $(csv_bytes) bytes)"
else
    rm -rf "$CSV_DATA"
    echo
    "$GEN" --msprobe-csv "$CSV_DATA" "$MB"
    echo "$CSV_GEN_VERSION $MB $(csv_bytes)" >"$CSV_STAMP"
fi
mapfile -t CSV_FILES < <(find "$CSV_DATA" -type f -name '*.csv' | sort)
printf '%s\n' "${CSV_FILES[@]}" >"$CSV_LIST"
CSV_BYTES=$(csv_bytes)
# Data rows: every line but each file's one header (no quoted field spans lines here).
CSV_LINES=$(cat "${CSV_FILES[@]}" | wc -l)
CSV_ROWS=$((CSV_LINES - ${#CSV_FILES[@]}))

run_cat_csv() { "${PIN[@]}" cat "${CSV_FILES[@]}" >/dev/null; }
run_ls_csv() { "${PIN[@]}" "$RUNTOP" ls "$CSV_DATA" >/dev/null 2>"$CSV_ERR"; }

run_cat_csv
run_cat_csv
run_ls_csv

read -r T_CAT_CSV C_CAT_CSV <<<"$(best_times run_cat_csv)"
read -r T_LS_CSV C_LS_CSV <<<"$(best_times run_ls_csv)"

CSV_RECORDS=$(sed -n 's/.* MB, \([0-9][0-9]*\) records).*/\1/p' "$CSV_ERR" | tail -1)
if [[ $CSV_RECORDS != "$CSV_ROWS" ]]; then
    echo "run_bench.sh: runtop ls read ${CSV_RECORDS:-?} rows of the $CSV_ROWS in the CSV bench data:" >&2
    cat "$CSV_ERR" >&2
    exit 1
fi
if ! grep -q ' 0 bad records, 0 bad rows, 0 resyncs; 0 unreadable, 0 waiting, 0 warnings' "$CSV_ERR"; then
    echo "run_bench.sh: runtop ls reported problems with the CSV bench data:" >&2
    cat "$CSV_ERR" >&2
    exit 1
fi
# The same ls with malloc on transparent huge pages: what the Store's page faults cost.
run_ls_csv_thp() {
    GLIBC_TUNABLES=glibc.malloc.hugetlb=1 "${PIN[@]}" "$RUNTOP" ls "$CSV_DATA" >/dev/null 2>&1
}
read -r T_LS_THP C_LS_THP <<<"$(best_times run_ls_csv_thp)"
CSV_POINTS=$(sed -n 's/.* series, \([0-9][0-9]*\) points read from.*/\1/p' "$CSV_ERR" | tail -1)
CSV_SERIES=$(sed -n 's/^runtop: \([0-9][0-9]*\) series,.*/\1/p' "$CSV_ERR" | tail -1)
measure_rss "$CSV_DATA"

# pandas.read_csv over the same files: one process, every file once per pass, best pass of
# $RUNS after one warm-up pass; the interpreter's start and `import pandas` are not timed.
PANDAS_PY=""
PANDAS_WHY=""
for py in "${BENCH_PYTHON:-python3}" /usr/bin/python3; do
    if ! command -v "$py" >/dev/null 2>&1; then
        PANDAS_WHY+="${PANDAS_WHY:+; }$py: not found"
    elif "$py" -c 'import pandas' 2>/dev/null; then
        PANDAS_PY=$py
        break
    else
        PANDAS_WHY+="${PANDAS_WHY:+; }$py: cannot import pandas"
    fi
done
T_PANDAS=""
if [[ -n $PANDAS_PY ]]; then
    PANDAS_OUT=$("${PIN[@]}" "$PANDAS_PY" - "$CSV_LIST" "$RUNS" <<'PY'
import sys, time
import pandas as pd
paths = open(sys.argv[1]).read().split("\n")[:-1]
runs = int(sys.argv[2])
best = best_cpu = None
rows = 0
for i in range(runs + 1):
    t0, c0 = time.perf_counter(), time.process_time()
    n = 0
    for path in paths:
        n += len(pd.read_csv(path))
    dt, dc = time.perf_counter() - t0, time.process_time() - c0
    if i > 0:
        best = dt if best is None else min(best, dt)
        best_cpu = dc if best_cpu is None else min(best_cpu, dc)
    rows = n
print(f"{best:.6f} {best_cpu:.6f} {rows} {pd.__version__}")
PY
    )
    read -r T_PANDAS C_PANDAS PANDAS_ROWS PANDAS_VERSION <<<"$PANDAS_OUT"
    if [[ $PANDAS_ROWS != "$CSV_ROWS" ]]; then
        echo "run_bench.sh: pandas read $PANDAS_ROWS rows, not $CSV_ROWS" >&2
        exit 1
    fi
fi

# Where runtop's time goes: the readers alone (a sink that only numbers series and counts
# points) and the readers into the Store, each in a fresh process; best CPU time of $RUNS.
min_of() { awk -v a="$1" -v b="$2" 'BEGIN { print (b == "" || a < b) ? a : b }'; }
C_READERS="" C_STORE="" T_TEARDOWN=""
for ((r = 0; r < RUNS; r++)); do
    read -r _ c _ _ _ <<<"$("${PIN[@]}" "$PROBE" "$CSV_DATA" readers)"
    C_READERS=$(min_of "$c" "$C_READERS")
    read -r _ c td _ _ <<<"$("${PIN[@]}" "$PROBE" "$CSV_DATA" store)"
    C_STORE=$(min_of "$c" "$C_STORE")
    T_TEARDOWN=$(min_of "$td" "$T_TEARDOWN")
done

echo
echo "msProbe CSV ingest: ${#CSV_FILES[@]} files, $CSV_BYTES bytes, $CSV_ROWS rows" \
    "($CSV_POINTS points in $CSV_SERIES series); page cache warm; $PINNED; best of $RUNS"
awk -v bytes="$CSV_BYTES" -v rows="$CSV_ROWS" -v tc="$T_CAT_CSV" -v tl="$T_LS_CSV" \
    -v cc="$C_CAT_CSV" -v cl="$C_LS_CSV" -v tp="$T_PANDAS" -v cp="${C_PANDAS:-}" \
    -v pyv="${PANDAS_VERSION:-}" -v pypath="$PANDAS_PY" -v why="$PANDAS_WHY" \
    -v cr="$C_READERS" -v cs="$C_STORE" -v ttd="$T_TEARDOWN" -v cthp="$C_LS_THP" \
    -v bar="$CSV_BAR_MBPS" -v barpd="$CSV_BAR_PANDAS" -v rss="$RSS_KB" -v rss_how="$RSS_HOW" \
    -v runs="$RUNS" '
function mbps(t) { return t > 0 ? bytes / t / 1e6 : 0 }
function row(name, t, c, ref) {
    printf "  %-30s %9.4f %10.0f %12.0f %8s %9.4f %10.0f\n", name, t, mbps(t), rows / t,
           sprintf("%.3f", mbps(t) / ref), c, mbps(c)
}
BEGIN {
    mc = mbps(tc); ml = mbps(tl)
    printf "  %-30s %9s %10s %12s %8s %9s %10s\n", "", "wall (s)", "MB/s", "rows/s", "vs cat",
           "cpu (s)", "MB/s cpu"
    row("cat FILES > /dev/null", tc, cc, mc)
    row("runtop ls DIR > /dev/null", tl, cl, mc)
    if (tp != "") { mp = mbps(tp); row("pandas.read_csv each file", tp, cp, mc) }
    printf "  runtop / cat            = %.3f (1/%.1f); cpu time: %.3f\n", ml / mc, mc / ml,
           mbps(cl) / mbps(cc)
    if (tp != "")
        printf "  runtop / pandas         = %.1fx; cpu time: %.1fx  (pandas %s, %s, one process, C engine, import not timed)\n",
               ml / mp, mbps(cl) / mbps(cp), pyv, pypath
    else
        printf "  runtop / pandas         = skipped: no Python with pandas (%s)\n", why
    printf "  runtop ls peak RSS      = %.1f MB  (%s; %.1f bytes per row)\n", rss / 1024,
           rss_how, rss * 1024 / rows
    printf "  where runtop ls spends its CPU time (runtop_ingest_probe, fresh processes, best of %d):\n", runs
    printf "    %-46s %9.4f s %6.0f MB/s\n", "readers alone (sink counts, numbers series)", cr, mbps(cr)
    printf "    %-46s %9.4f s %6.0f MB/s\n", "readers into the Store (ls without its table)", cs, mbps(cs)
    printf "    %-46s %9.4f s  (%.0f%% of ls)\n", "the Store (the difference)", cs - cr,
           100 * (cs - cr) / cl
    printf "    %-46s %9.4f s  (%.0f%% of ls)\n", "the table, exit, start (ls minus the above)",
           cl - cs, 100 * (cl - cs) / cl
    printf "    %-46s %9.4f s (wall)\n", "  of which freeing SourceSet and Store", ttd
    printf "    %-46s %9.4f s %6.0f MB/s  (GLIBC_TUNABLES=glibc.malloc.hugetlb=1)\n",
           "ls with malloc on transparent huge pages", cthp, mbps(cthp)
    # The bar is about ingest: files into the Store. ls adds its 9-column table of every
    # series and the process teardown; both verdicts are printed.
    ingest_ok = mbps(cs) >= bar
    ls_ok = ml >= bar
    pandas_ok = tp == "" || ml >= barpd * mp
    printf "  bar: ingest (files into the Store) >= %d MB/s on one core: %s (%.0f MB/s)\n", bar,
           ingest_ok ? "PASS" : "FAIL", mbps(cs)
    printf "       runtop ls end to end >= %d MB/s: %s (%.0f MB/s)\n", bar, ls_ok ? "PASS" : "FAIL", ml
    printf "       runtop ls >= %dx pandas: %s%s\n", barpd, pandas_ok ? "PASS" : "FAIL",
           tp == "" ? " (not checked: no pandas)" : ""
}'
fi  # csv

if [[ -z $ONLY || $ONLY == json ]]; then
# --- 3b. JSON readers: trainer_state.json and anomaly.json ------------------------------------
JSON_MB=${BENCH_JSON_MB:-30}
JSON_DATA=$BUILD/bench-data-json
JSON_STAMP=$JSON_DATA/.benchgen
JSON_GEN_VERSION=json-1  # bump when runtop_benchgen --json writes other bytes
if [[ -f $JSON_STAMP && "$(cat "$JSON_STAMP")" == "$JSON_GEN_VERSION $JSON_MB" ]]; then
    echo "json bench data: $JSON_DATA (kept)"
else
    rm -rf "$JSON_DATA"
    "$GEN" --json "$JSON_DATA" "$JSON_MB"
    echo "$JSON_GEN_VERSION $JSON_MB" >"$JSON_STAMP"
fi
JSON_ERR=$(mktemp)
json_bytes() { find "$1" -type f -name '*.json' -printf '%s\n' | awk '{ s += $1 } END { print s }'; }
JSON_BIN=$RUNTOP
JSON_DIR=""
run_ls_json() { "${PIN[@]}" "$JSON_BIN" ls "$JSON_DIR" >/dev/null 2>"$JSON_ERR"; }
echo
echo "json ingest: runtop ls, page cache warm; $PINNED; best of $RUNS"
printf '  %-34s %10s %9s %10s\n' "" "bytes" "time (s)" "MB/s"
for set in hf msprobe; do
    JSON_DIR=$JSON_DATA/$set
    bytes=$(json_bytes "$JSON_DIR")
    cat "$(find "$JSON_DIR" -type f -name '*.json' | head -1)" >/dev/null
    declare -A T=()
    for who in after before; do
        if [[ $who == before ]]; then
            [[ -n ${BENCH_BEFORE:-} ]] || continue
            JSON_BIN=$BENCH_BEFORE
        else
            JSON_BIN=$RUNTOP
        fi
        run_ls_json
        if ! grep -q ' 0 unreadable, 0 waiting, 0 warnings' "$JSON_ERR"; then
            echo "run_bench.sh: $JSON_BIN ls reported problems with $JSON_DIR:" >&2
            cat "$JSON_ERR" >&2
            exit 1
        fi
        T[$who]=$(best_of run_ls_json)
        label="runtop ls $set"
        [[ -n ${BENCH_BEFORE:-} ]] && label="$label ($who)"
        awk -v l="$label" -v b="$bytes" -v t="${T[$who]}" \
            'BEGIN { printf "  %-34s %10d %9.4f %10.0f\n", l, b, t, b / t / 1e6 }'
    done
    if [[ -n ${T[before]:-} ]]; then
        awk -v a="${T[after]}" -v b="${T[before]}" -v s="$set" \
            'BEGIN { printf "  %s: time after/before = %.3f\n", s, a / b }'
    fi
    unset T
done
rm -f "$JSON_ERR"
fi  # json

if [[ -z $ONLY || $ONLY == logs ]]; then
# --- 3c. Training logs: a Megatron job's output next to grep -c ----------------------------------
LOG_MB=${BENCH_LOG_MB:-200}
LOG_DATA=$BUILD/bench-data-log
LOG_STAMP=$LOG_DATA/.benchgen
LOG_GEN_VERSION=megatron-log-1  # bump when runtop_benchgen --megatron-log writes other bytes
if [[ -f $LOG_STAMP && "$(cat "$LOG_STAMP")" == "$LOG_GEN_VERSION $LOG_MB" ]]; then
    echo "log bench data: $LOG_DATA (kept)"
else
    rm -rf "$LOG_DATA"
    "$GEN" --megatron-log "$LOG_DATA" "$LOG_MB"
    echo "$LOG_GEN_VERSION $LOG_MB" >"$LOG_STAMP"
fi
LOG_FILE=$LOG_DATA/slurm-1.out
LOG_ERR=$(mktemp)
log_bytes=$(stat -c %s "$LOG_FILE")
run_cat_log() { "${PIN[@]}" cat "$LOG_FILE" >/dev/null; }
# Not to /dev/null: GNU grep then stops at the first match, as with -q.
run_grep_log() { "${PIN[@]}" grep -c iteration "$LOG_FILE" >"$LOG_ERR.count"; }
run_ls_log() { "${PIN[@]}" "$RUNTOP" ls "$LOG_DATA" >/dev/null 2>"$LOG_ERR"; }
run_cat_log
run_ls_log
if ! grep -q ' 0 unreadable, 0 waiting, 0 warnings' "$LOG_ERR"; then
    echo "run_bench.sh: runtop ls reported problems with $LOG_DATA:" >&2
    cat "$LOG_ERR" >&2
    exit 1
fi
echo
echo "log ingest: $(awk -v b="$log_bytes" 'BEGIN { printf "%.0f MB", b / 1e6 }') Megatron job output, 1 line in 50 an iteration line; page cache warm; $PINNED; best of $RUNS"
echo "  $(sed -n 's/^runtop: \([0-9]* series, [0-9]* points\).*/\1/p' "$LOG_ERR")"
printf '  %-26s %9s %9s %10s %10s\n' "" "wall (s)" "CPU (s)" "MB/s wall" "MB/s CPU"
declare -A LOG_W=() LOG_C=()
for who in cat grep ls; do
    read -r w c < <(best_times "run_${who}_log")
    LOG_W[$who]=$w
    LOG_C[$who]=$c
    label=$who
    [[ $who == grep ]] && label="grep -c iteration"
    [[ $who == ls ]] && label="runtop ls"
    awk -v l="$label" -v b="$log_bytes" -v w="$w" -v c="$c" \
        'BEGIN { printf "  %-26s %9.3f %9.3f %10.0f %10.0f\n", l, w, c, b / w / 1e6, (c > 0 ? b / c / 1e6 : 0) }'
done
awk -v l="${LOG_W[ls]}" -v g="${LOG_W[grep]}" -v b="$log_bytes" \
    'BEGIN { printf "  runtop ls / grep -c: %.2fx wall; %.0f MB/s wall (bar >= 500 MB/s: %s)\n", l / g, b / l / 1e6, (b / l / 1e6 >= 500 ? "met" : "NOT met") }'
unset LOG_W LOG_C
rm -f "$LOG_ERR" "$LOG_ERR.count"
fi  # logs

if [[ -z $ONLY || $ONLY == check ]]; then
# --- 4a. the rules' cost: runtop check next to runtop ls ------------------------------------
# Same files, same run, one core: check reads like ls, then every point also goes through the
# Analyzer with the default rules (issue 4 bar: check at most 20 % slower than ls).
echo
echo "runtop check next to runtop ls ($PINNED, best of $RUNS, wall and CPU seconds):"
for set in "$DATA" "$CSV_DATA"; do
    if [[ ! -d $set ]]; then
        echo "  $set: missing (run the events and csv sections first)"
        continue
    fi
    run_ls_set() { "${PIN[@]}" "$RUNTOP" ls "$set" >/dev/null 2>&1; }
    run_check_set() { "${PIN[@]}" "$RUNTOP" check "$set" >/dev/null 2>&1 || true; }
    run_ls_set
    run_check_set
    read -r TL CL <<<"$(best_times run_ls_set)"
    read -r TK CK <<<"$(best_times run_check_set)"
    awk -v n="$(basename "$set")" -v tl="$TL" -v cl="$CL" -v tk="$TK" -v ck="$CK" 'BEGIN {
        printf "  %-16s ls %.3f s (cpu %.3f)   check %.3f s (cpu %.3f)   check/ls = %.3f wall, %.3f cpu: %s\n",
               n, tl, cl, tk, ck, tk / tl, ck / cl, (ck / cl <= 1.2 || tk / tl <= 1.2) ? "PASS (<= 1.2)" : "FAIL (> 1.2)"
    }'
done
fi  # check

if [[ -z $ONLY || $ONLY == guard ]]; then
# --- 4a'. the guard: from the append of a NaN to `check --follow`'s exit ---------------------
# Issue 19 bar: <= 1 s with inotify, <= the poll interval + 1 s when polling. One rank's event
# file of 4 tags x 100 steps; the guard is started, has read it ("watching"), then one NaN point
# is appended and the time to the guard's exit (code 1) is taken, 5 times, median quoted.
echo
echo "check --follow: from the NaN's append to the exit (median of 5):"
GUARD_APPEND=$BUILD/bench/runtop_append_probe
GUARD_DIR=$BUILD/bench-data-guard
for mode in "" "--poll=500"; do
    lat=()
    for _ in 1 2 3 4 5; do
        rm -rf "$GUARD_DIR"
        "$GUARD_APPEND" create "$GUARD_DIR" 4 1 100 >/dev/null
        "$RUNTOP" check --follow $mode "$GUARD_DIR" >/dev/null 2>"$GUARD_DIR.err" &
        gpid=$!
        for _ in $(seq 100); do grep -q watching "$GUARD_DIR.err" 2>/dev/null && break; sleep 0.05; done
        t0=$(date +%s.%N)
        "$GUARD_APPEND" append "$GUARD_DIR/rank_0/events.out.tfevents.1" train/loss 100 1 0 nan >/dev/null
        wait "$gpid" || true
        t1=$(date +%s.%N)
        lat+=("$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f", b - a }')")
    done
    median=$(printf '%s\n' "${lat[@]}" | sort -n | sed -n 3p)
    bound=$([[ -z $mode ]] && echo 1.0 || echo 1.5)
    awk -v m="${mode:-inotify}" -v t="$median" -v b="$bound" -v all="${lat[*]}" 'BEGIN {
        printf "  %-12s %.3f s (runs: %s)   bar %.1f s: %s\n", m, t, all, b, t <= b ? "PASS" : "FAIL"
    }'
done
rm -rf "$GUARD_DIR" "$GUARD_DIR.err"
fi  # guard

if [[ -z $ONLY || $ONLY == core ]]; then
# --- 4b. the core alone on decoded points ----------------------------------------------------
# 10^8 points (1000 series, one point each per step) into the Store under a 256 MiB budget,
# alone and with the Analyzer's default rules; each mode in its own process (its own peak RSS).
echo
CORE_POINTS=${BENCH_CORE_POINTS:-100000000}
echo "core on $CORE_POINTS decoded points, 1000 series, --memory 256MiB ($PINNED):"
ANALYZE=$BUILD/bench/runtop_analyze_probe
first=1
for mode in store analyze; do
    if ((first)); then
        "${PIN[@]}" "$ANALYZE" "$CORE_POINTS" 1000 256MiB "$mode" | sed 's/^/  /'
        first=0
    else
        "${PIN[@]}" "$ANALYZE" "$CORE_POINTS" 1000 256MiB "$mode" | tail -1 | sed 's/^/  /'
    fi
done
echo "  bar: analyze >= 20 M points/s on one core, <= 16 bytes per retained point, RSS near 256 MiB"
fi  # core

if [[ -z $ONLY || $ONLY == scale ]]; then
# --- 4e. scale: msProbe trees and event files at a job's size --------------------------------
"$(dirname "$0")/scale_bench.sh" "$BUILD"
fi  # scale

if [[ -z $ONLY || $ONLY == dashboard ]]; then
# --- 4c. the dashboard through a pty ---------------------------------------------------------
echo
PTY=$BUILD/bench/runtop_pty_probe
APPEND=$BUILD/bench/runtop_append_probe
BIG=$BUILD/bench-data-1g
if [[ ! -f $BIG/.benchgen ]]; then
    rm -rf "$BIG"
    "$GEN" "$BIG" 1000 >/dev/null
    touch "$BIG/.benchgen"
fi
cat "$BIG"/*/* >/dev/null  # warm cache, as for the other sections
echo "dashboard on $(du -sh "$BIG" | cut -f1) of event files at 250x80 (runtop_pty_probe):"
"$PTY" --size 250x80 --wait-text train/loss --keys "j,j,j,l,k,2,1,4,1,j" --repeat 3 \
    --key-window-ms 500 --quiet-ms 10 --quit-keys q -- "$RUNTOP" "$BIG" |
    grep -E '^(first_frame_ms|key_latency_ms_(median|p95|max)|key_frame_ms_median)=' | sed 's/^/  /'
echo "  bars: first frame <= 300 ms, key latency <= 50 ms while it backfills"
# q at the first frame, while gigabytes are still being read: a real run and a 2 GB sparse file
# (zeros: the reader scans them for a record). The median of 5 runs each.
SPARSE=$BUILD/bench-data-sparse
mkdir -p "$SPARSE" && truncate -s 2G "$SPARSE/events.out.tfevents.1.sparse"
for target in "$BIG" "$SPARSE"; do
    for _ in 1 2 3 4 5; do
        "$PTY" --size 250x80 --wait-text runs --idle-seconds 0 --quiet-ms 10 --quit-keys q \
            -- "$RUNTOP" "$target" | sed -n 's/^quit_ms=//p'
    done | sort -n | sed -n 3p | sed "s|^|  q while loading $(basename "$target"): quit_ms median=|"
done
echo "  bar: quit <= 200 ms at any time"
WIDE=$BUILD/bench-data-256ranks
if [[ ! -d $WIDE ]]; then "$APPEND" create "$WIDE" 50 256 500; fi
cat "$WIDE"/*/* >/dev/null
echo "a large job: 50 tags x 256 ranks x 500 steps ($(du -sh "$WIDE" | cut -f1)), keys while it loads:"
"$PTY" --size 250x80 --wait-text train/loss --keys "j,j,l,k,2,1,3,1,4,1,j" --repeat 2 \
    --key-window-ms 800 --quiet-ms 10 --quit-keys q -- "$RUNTOP" "$WIDE" |
    grep -E '^(first_frame_ms|key_latency_ms_(median|p95|max))=' | sed 's/^/  /'
CARDS=$BUILD/bench-data-100cards
rm -rf "$CARDS"
"$APPEND" create "$CARDS" 100 8 2000
echo "one value changing once every 1.5 s (100 cards x 8 ranks x 2000 steps, 250x80):"
# layers/stat_5 sits near 6.0: the appended values stay in the card's range.
( sleep 3.5; "$APPEND" append "$CARDS/rank_3/events.out.tfevents.1" layers/stat_5 2000 4 1500 6.0 ) &
"$PTY" --size 250x80 --wait-text train/loss --idle-seconds 10 --quiet-ms 50 --quit-keys q \
    -- "$RUNTOP" "$CARDS" | grep -E '^(idle_frames_at|idle_cpu_percent)=' | sed 's/^/  /'
wait
echo "  (frames at ~4.4, 5.9, 7.4, 8.9 s are the appends; the others the status line's 1 s tick)"
echo "  bar: <= 200 bytes per frame for one value"
# The tag tree's size: 10,000 tags x 256 ranks (2.56 M series, ~390 MB); the overview folds them
# into groups. The appends (at 45 s) fall in the idle window once the backfill (~20-30 s) is over.
HUGE=$BUILD/bench-data-10k-tags
rm -rf "$HUGE"  # made again: each run appends to it
"$APPEND" create "$HUGE" 10000 256 3
echo "one value changing once every 1.5 s on 10,000 tags x 256 ranks (250x80):"
( sleep 45; "$APPEND" append "$HUGE/rank_3/events.out.tfevents.1" layers/stat_5 3 6 1500 6.0 ) &
"$PTY" --size 250x80 --wait-text live --idle-seconds 60 --quiet-ms 50 --timeout-seconds 200 \
    --quit-keys q -- "$RUNTOP" "$HUGE" | grep -E '^(first_frame_ms|idle_frames_at|idle_frame_bytes_max)=' |
    sed 's/^/  /'
wait
echo "  bar: <= 200 bytes per frame for one value"
echo "idle: nothing changing, 5 s:"
"$PTY" --size 250x80 --wait-text train/loss --idle-seconds 5 --quiet-ms 50 --quit-keys q \
    -- "$RUNTOP" "$CARDS" | grep -E '^(idle_cpu_percent|idle_frames)=' | sed 's/^/  /'
echo "frame time in-process (draw_screen into a 250x80 canvas):"
"${PIN[@]}" "$MICRO" --benchmark_filter=BM_Frame --benchmark_min_time="$MIN_TIME" 2>/dev/null |
    grep BM_ | sed 's/^/  /'
fi  # dashboard

if [[ -z $ONLY || $ONLY == compare ]]; then
# --- 4d. two 1 GB runs compared --------------------------------------------------------------
echo
PTY=$BUILD/bench/runtop_pty_probe
CMP=$BUILD/bench-data-compare
CMP_AT=5000  # 1 GB holds ~8500 steps of ~160 tags x 8 ranks
if [[ "$(cat "$CMP/.benchgen" 2>/dev/null)" != "diverge-at $CMP_AT" ]]; then
    rm -rf "$CMP"
    mkdir -p "$CMP"
    "$GEN" "$CMP/base" 1000 >/dev/null
    "$GEN" --diverge-at "$CMP_AT" "$CMP/new" 1000 >/dev/null
    echo "diverge-at $CMP_AT" >"$CMP/.benchgen"
fi
cat "$CMP"/*/*/* >/dev/null  # warm cache
echo "two runs of $(du -sh "$CMP/base" | cut -f1) each (the second 0.1% higher from step $CMP_AT), wall / CPU s, best of $RUNS:"
# stderr too: `time` reports there, and ls prints its summary there.
cmp_ls() { "$RUNTOP" ls "base=$CMP/base" "new=$CMP/new" >/dev/null 2>&1; }
cmp_diff() { "$RUNTOP" diff "base=$CMP/base" "new=$CMP/new" >/dev/null 2>&1 || [[ $? == 1 ]]; }
cmp_overview() {
    "$RUNTOP" snapshot --size 250x80 --view overview "base=$CMP/base" "new=$CMP/new" >/dev/null 2>&1
}
cmp_compare() {
    "$RUNTOP" snapshot --size 250x80 --view compare "base=$CMP/base" "new=$CMP/new" >/dev/null 2>&1
}
read -r lw lc < <(best_times cmp_ls)
read -r dw dc < <(best_times cmp_diff)
read -r ow oc < <(best_times cmp_overview)
read -r cw cc < <(best_times cmp_compare)
printf "  %-46s %8.3f / %8.3f\n" "runtop ls (reading both)" "$lw" "$lc"
printf "  %-46s %8.3f / %8.3f\n" "runtop diff" "$dw" "$dc"
printf "  %-46s %8.3f / %8.3f   (%.2fx the 1 s bar)\n" "  diff - ls: comparing every tag" \
    "$(awk -v a="$dw" -v b="$lw" 'BEGIN { print a - b }')" "$(awk -v a="$dc" -v b="$lc" 'BEGIN { print a - b }')" \
    "$(awk -v a="$dw" -v b="$lw" 'BEGIN { print (a - b) / 1.0 }')"
printf "  %-46s %8.3f / %8.3f\n" "snapshot --view overview" "$ow" "$oc"
printf "  %-46s %8.3f / %8.3f\n" "snapshot --view compare" "$cw" "$cc"
printf "  %-46s %8.3f / %8.3f   (%.2fx the 300 ms bar)\n" "  compare - overview: first compare frame" \
    "$(awk -v a="$cw" -v b="$ow" 'BEGIN { print a - b }')" "$(awk -v a="$cc" -v b="$oc" 'BEGIN { print a - b }')" \
    "$(awk -v a="$cw" -v b="$ow" 'BEGIN { print (a - b) / 0.3 }')"
"$RUNTOP" diff "base=$CMP/base" "new=$CMP/new" | tail -1 | sed 's/^/  diff says: /' || true
echo "the dashboard at 250x80 until the frame says live (backfill done), ms:"
"$PTY" --size 250x80 --wait-text live --quiet-ms 10 --quit-keys q -- "$RUNTOP" "base=$CMP/base" "new=$CMP/new" |
    grep -E '^first_frame_ms=' | sed 's/^/  compare view (two roots):  /'
"$PTY" --size 250x80 --wait-text live --quiet-ms 10 --quit-keys q -- "$RUNTOP" "$CMP" |
    grep -E '^first_frame_ms=' | sed 's/^/  overview (one root):       /'
echo "in-process (runtop_compare_probe: 2 x 28 M points, 20 tags x 8 ranks):"
"${PIN[@]}" "$BUILD/bench/runtop_compare_probe" | sed 's/^/  /'
fi  # compare

if [[ -z $ONLY || $ONLY == live ]]; then
# --- 4. live tail latency --------------------------------------------------------------------
# The real binary: `runtop dump --follow` on a CSV, the time from an append to its line on
# stdout, in inotify mode and with --poll=100 (follow_test.cpp prints the figures).
echo
TESTS=$BUILD/tests/runtop_tests
if [[ -x $TESTS ]]; then
    echo "live tail latency (append -> runtop dump --follow output, 30 appends each):"
    "$TESTS" --gtest_filter='DumpFollow.AppendToOutputLatency' 2>&1 | grep '^append' | sed 's/^/  /'
else
    echo "live tail latency: skipped ($TESTS is missing: build with RUNTOP_TESTS=ON)"
fi
fi  # live

if [[ -z $ONLY || $ONLY == micro ]]; then
# --- 5. micro benchmarks ---------------------------------------------------------------------
echo
"$NUMCHECK"
echo "micro benchmarks ($PINNED, --benchmark_min_time=$MIN_TIME):"
"${PIN[@]}" "$MICRO" --benchmark_min_time="$MIN_TIME"
fi  # micro

if [[ -z $ONLY || $ONLY == portable ]]; then
# --- 6. the static binary next to the dynamic one ----------------------------------------------
echo
PORTABLE=$BUILD/runtop-portable
if [[ ! -x $PORTABLE ]]; then
    echo "portable: skipped ($PORTABLE is missing: make portable)"
else
    PORT_DATA=$BUILD/bench-data-portable
    if [[ ! -d $PORT_DATA/tensorboard ]]; then
        rm -rf "$PORT_DATA"
        SOURCE_DATE_EPOCH=1768467600 "$RUNTOP" demo --no-ui --rate 0 --ranks 8 --steps 600 \
            --dir "$PORT_DATA" >/dev/null 2>&1
    fi
    stripped=$(mktemp)
    strip -o "$stripped" "$RUNTOP"
    dyn_size=$(stat -c %s "$stripped")
    rm -f "$stripped"
    port_size=$(stat -c %s "$PORTABLE")
    start_200() { for ((k = 0; k < 200; k++)); do "$1" --version >/dev/null; done; }
    start_dyn() { start_200 "$RUNTOP"; }
    start_port() { start_200 "$PORTABLE"; }
    ls_dyn() { "${PIN[@]}" "$RUNTOP" ls "$PORT_DATA" >/dev/null 2>&1; }
    ls_port() { "${PIN[@]}" "$PORTABLE" ls "$PORT_DATA" >/dev/null 2>&1; }
    ls_dyn
    ls_port
    t_sd=$(best_of start_dyn)
    t_sp=$(best_of start_port)
    t_ld=$(best_of ls_dyn)
    t_lp=$(best_of ls_port)
    echo "portable: $PORTABLE ($(file -b "$PORTABLE" | cut -d, -f1-4)); best of $RUNS"
    awk -v ds="$dyn_size" -v ps="$port_size" -v sd="$t_sd" -v sp="$t_sp" -v ld="$t_ld" \
        -v lp="$t_lp" 'BEGIN {
        printf "  %-34s %12s %12s %8s\n", "", "runtop", "portable", "ratio"
        printf "  %-34s %12d %12d %8.2f\n", "size, stripped (bytes)", ds, ps, ps / ds
        printf "  %-34s %12.3f %12.3f %8.2f\n", "start-up: --version (ms)", sd * 5, sp * 5, sp / sd
        printf "  %-34s %12.1f %12.1f %8.2f\n", "ls of the 8-rank demo (ms)", ld * 1000, lp * 1000,
               lp / ld
    }'
fi
fi  # portable
