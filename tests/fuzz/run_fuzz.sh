#!/usr/bin/env bash
# Runs every fuzzer of a RUNTOP_FUZZ build for RUNS executions each, one after the other.
# Usage: tests/fuzz/run_fuzz.sh BUILD_DIR RUNS
# Seed corpora are built at run time in BUILD_DIR/corpus-<target>/ (never in the repository)
# from runtop's own writer and, when present, ../shared/samples/tfevents-public (or
# $RUNTOP_FUZZ_SAMPLES). Crash inputs land in BUILD_DIR/fuzz-artifacts/. $FUZZ_TARGETS picks
# fuzzers (default: all), $FUZZ_FLAGS adds libFuzzer flags. Exits non-zero when one fails.
# Replay a crash: BUILD_DIR/tests/fuzz/<target> BUILD_DIR/fuzz-artifacts/<target>-crash-...
set -euo pipefail

if [[ $# -ne 2 ]]; then
    echo "usage: $0 BUILD_DIR RUNS" >&2
    exit 2
fi
build=$(cd "$1" && pwd)
runs=$2
repo=$(cd "$(dirname "$0")/../.." && pwd)
samples=${RUNTOP_FUZZ_SAMPLES:-$repo/../shared/samples/tfevents-public}
bin=$build/tests/fuzz
file_max=16384     # event files: a few dozen records; bigger sample files are cut as seeds
payload_max=4096   # one Event: scalars and texts are far smaller

declare -A max_len=([fuzz_event_file]=$file_max [fuzz_event_decoder]=$payload_max)
declare -A corpus=([fuzz_event_file]=$build/corpus-fuzz_event_file
                   [fuzz_event_decoder]=$build/corpus-fuzz_event_decoder)
read -r -a targets <<<"${FUZZ_TARGETS:-fuzz_event_file fuzz_event_decoder}"

for t in "${targets[@]}" fuzz_seedgen; do
    if [[ ! -x $bin/$t ]]; then
        echo "run_fuzz: $bin/$t is missing; build with -DRUNTOP_FUZZ=ON first" >&2
        exit 2
    fi
done

# --- seed corpora ---
mkdir -p "${corpus[fuzz_event_file]}" "${corpus[fuzz_event_decoder]}" "$build/fuzz-artifacts"
"$bin/fuzz_seedgen" generate "${corpus[fuzz_event_file]}" "${corpus[fuzz_event_decoder]}"
if [[ -d $samples ]]; then
    find "$samples" -type f ! -path '*/EXPECTED/*' ! -name '*.md' ! -name '*.txt' ! -name '*.csv' \
        -print0 | xargs -0 -r "$bin/fuzz_seedgen" extract "${corpus[fuzz_event_file]}" \
        "${corpus[fuzz_event_decoder]}" "$file_max" "$payload_max"
else
    echo "run_fuzz: no samples at $samples; seeding from runtop's writer only"
fi

# --- fuzzing ---
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-halt_on_error=1:print_stacktrace=1}
status=0
for t in "${targets[@]}"; do
    log=$build/fuzz-$t.log
    echo "run_fuzz: $t, $runs runs, max_len ${max_len[$t]} (log: $log)"
    start=$SECONDS
    rc=0
    # shellcheck disable=SC2086
    "$bin/$t" -runs="$runs" -max_len="${max_len[$t]}" -timeout=10 -rss_limit_mb=2048 \
        -print_final_stats=1 -artifact_prefix="$build/fuzz-artifacts/$t-" ${FUZZ_FLAGS:-} \
        "${corpus[$t]}" >"$log" 2>&1 || rc=$?
    done_line=$(grep -E '^Done [0-9]+ runs' "$log" | tail -1 || true)
    if [[ $rc -eq 0 && -n $done_line ]]; then
        execs=$(sed -E 's/^Done ([0-9]+) runs.*/\1/' <<<"$done_line")
        echo "run_fuzz: $t: $execs executions in $((SECONDS - start)) s"
    else
        status=1
        execs=$(grep -oE '^#[0-9]+' "$log" | tail -1 | tr -d '#' || true)
        echo "run_fuzz: $t FAILED (exit $rc) after about ${execs:-0} executions:" >&2
        grep -E 'ERROR|PROPERTY|SUMMARY|runtime error|Test unit written|deadly signal|timeout' \
            "$log" | head -20 >&2 || true
        echo "run_fuzz: full log: $log" >&2
    fi
done
exit $status
