#!/usr/bin/env bash
# Runs every fuzzer of a RUNTOP_FUZZ build for RUNS executions each, one after the other.
# Usage: tests/fuzz/run_fuzz.sh BUILD_DIR RUNS
# Seed corpora are built at run time in BUILD_DIR/corpus-<target>/ (never in the repository)
# from runtop's own writer and, when present, ../shared/samples/tfevents-public (or
# $RUNTOP_FUZZ_SAMPLES); fuzz_json's from a few documents written here and the JSON and YAML
# files of ../shared/samples (or $RUNTOP_FUZZ_JSON_SAMPLES); fuzz_csv's from a few files
# written here and the CSV files of ../shared/samples. Crash inputs land in
# BUILD_DIR/fuzz-artifacts/. $FUZZ_TARGETS picks fuzzers (default: all), $FUZZ_FLAGS adds
# libFuzzer flags. Exits non-zero when one fails.
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
json_max=16384     # anomaly.json, trainer_state.json, telemetry, hparams.yaml: bigger ones are cut
json_samples=${RUNTOP_FUZZ_JSON_SAMPLES:-$repo/../shared/samples}
csv_max=8192       # CSV monitor files: a few steps' rows; bigger sample files are cut

declare -A max_len=([fuzz_event_file]=$file_max [fuzz_event_decoder]=$payload_max
                    [fuzz_json]=$json_max [fuzz_csv]=$csv_max)
declare -A corpus=([fuzz_event_file]=$build/corpus-fuzz_event_file
                   [fuzz_event_decoder]=$build/corpus-fuzz_event_decoder
                   [fuzz_json]=$build/corpus-fuzz_json
                   [fuzz_csv]=$build/corpus-fuzz_csv)
declare -A extra_flags=([fuzz_json]=-dict=$build/fuzz_json.dict)
read -r -a targets <<<"${FUZZ_TARGETS:-fuzz_event_file fuzz_event_decoder fuzz_json fuzz_csv}"

for t in "${targets[@]}" fuzz_seedgen; do
    if [[ ! -x $bin/$t ]]; then
        echo "run_fuzz: $bin/$t is missing; build with -DRUNTOP_FUZZ=ON first" >&2
        exit 2
    fi
done

# --- seed corpora ---
mkdir -p "${corpus[fuzz_event_file]}" "${corpus[fuzz_event_decoder]}" "${corpus[fuzz_json]}" \
    "${corpus[fuzz_csv]}" "$build/fuzz-artifacts"
"$bin/fuzz_seedgen" generate "${corpus[fuzz_event_file]}" "${corpus[fuzz_event_decoder]}"
if [[ -d $samples ]]; then
    find "$samples" -type f ! -path '*/EXPECTED/*' ! -name '*.md' ! -name '*.txt' ! -name '*.csv' \
        -print0 | xargs -0 -r "$bin/fuzz_seedgen" extract "${corpus[fuzz_event_file]}" \
        "${corpus[fuzz_event_decoder]}" "$file_max" "$payload_max"
else
    echo "run_fuzz: no samples at $samples; seeding from runtop's writer only"
fi

# fuzz_json: one small document of each shape the readers take, the sample files (cut to
# json_max), and a dictionary of the tokens and keys they look for.
jc=${corpus[fuzz_json]}
cat >"$jc/seed-anomaly.json" <<'EOF'
{
 "0:fc1.input:0/rank0/actv_step_7_call_0": {
  "rank": 0, "step": 7, "micro_step": 0, "pp_stage": 0, "vpp_stage": 0, "call_id": 0,
  "tag_name": "0:fc1.input:0/rank0/actv",
  "message": "Rule AnomalyTurbulence reports anomaly signal in ('0:fc1.input:0/rank0/actv', 'norm') at step 7, current value 476.07618007421394, history mean nan.",
  "group_mates": [0, 1]
 },
 "0:fc1.weight/rank0/post_grad_step_4_call_2": {"rank": 0, "step": 4, "tag_name": "0:fc1.weight/rank0/post_grad",
  "message": "Rule AnomalyNan reports anomaly signal in 0:fc1.weight/rank0/post_grad at step 4."}
}
EOF
cat >"$jc/seed-trainer_state.json" <<'EOF'
{"best_metric": null, "epoch": 1.0, "global_step": 20, "log_history": [
  {"epoch": 0.5, "grad_norm": NaN, "learning_rate": 1e-05, "loss": Infinity, "step": 10},
  {"epoch": 1.0, "eval_loss": -Infinity, "eval_runtime": 5.7, "step": 20}],
 "max_steps": 20, "stateful_callbacks": {"a": {}}, "trial_name": "t\u00e9\ud83d\ude00"}
EOF
cat >"$jc/seed-telemetry.json" <<'EOF'
{"rank0000": {"hostname": "vm", "timers": {"steps": {"count": 10.0, "mean": 0.02, "std_dev": 0}},
  "cuda_timers": {}, "gpu_memory": [{"allocated": 1, "reserved": 2}], "gpu_temperature": {"max": 61}},
 "rank0001": {"total_time": 0.29}}
EOF
cat >"$jc/seed-hparams.yaml" <<'EOF'
lr: 0.001  # comment
name: 'it''s'
optimizer:
  betas:
  - 0.9
  - "0.999\t"
  sched: {}
script: |
  line
shape: !!python/tuple
- 3
EOF
if [[ -d $json_samples ]]; then
    find "$json_samples" -type f \( -name '*.json' -o -name '*.yaml' \) -print0 |
        while IFS= read -r -d '' f; do
            head -c "$json_max" "$f" >"$jc/sample-$(printf '%s' "$f" | cksum | cut -d' ' -f1)"
        done
fi
cat >"$build/fuzz_json.dict" <<'EOF'
"{"
"}"
"["
"]"
":"
","
"\""
"\\u"
"\\ud83d\\ude00"
"NaN"
"Infinity"
"-Infinity"
"true"
"false"
"null"
"1e-05"
"-0.0"
"\"log_history\""
"\"step\""
"\"global_step\""
"\"tag_name\""
"\"message\""
"\"rank\""
"\"call_id\""
"\"group_mates\""
"\"rank0001\""
"Rule "
" reports anomaly signal in ('"
"', '"
"') at step "
", current value "
", history mean "
"/rank1/post_grad"
"0:fc1.input:1"
"- "
": "
"\x0a  "
"# "
"|"
">-"
"!!python/tuple"
"---"
EOF

# fuzz_csv: byte 0 picks the reader (msProbe, monitor_v2, DeepSpeed, Lightning), bytes 1-2
# where the file is split into appends; every sample CSV under each reader, and a few here.
cc=${corpus[fuzz_csv]}
printf '\000\100\240vpp_stage,name,step,micro_step,norm,nans,shape,dtype\n0,fc1.input,0,0,1.5,0,"[4, 8]",torch.float32\n0,fc1.input,1,1,nan,1,"[4, 8]",torch.float32\n' >"$cc/seed-msprobe"
printf '\001\100\240vpp_stage,step,module_name,scope,micro_step,min,max\r\n-1,0,0.weight,reduced,1,-0.5,0.5\r\n' >"$cc/seed-v2"
printf '\002\100\240step,train_loss\r\n32,2.5\r\n256,nan\r\nstep,train_loss\r\n224,inf\r\n' >"$cc/seed-deepspeed"
printf '\003\100\240epoch,step,train_loss,val_acc\r\n0,1,1.5,\r\n0,1,,0.5\r\n' >"$cc/seed-lightning"
csv_samples=$repo/../shared/samples
if [[ -d $csv_samples ]]; then
    n=0
    while IFS= read -r -d '' f; do
        n=$((n + 1))
        for k in 0 1 2 3; do
            { printf "\\$(printf %03o "$k")\100\240"; head -c "$csv_max" "$f"; } >"$cc/sample-$n-$k"
        done
    done < <(find "$csv_samples/generated" "$csv_samples/other-public" -name '*.csv' -print0 2>/dev/null)
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
        -print_final_stats=1 -artifact_prefix="$build/fuzz-artifacts/$t-" ${extra_flags[$t]:-} \
        ${FUZZ_FLAGS:-} \
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
