#!/usr/bin/env bash
# Writes runtop's command-line outputs on the shared samples to one file per command, so a
# restructuring can be shown to change no output: run it before and after, then `diff -r`.
# usage: scripts/output_snapshot.sh RUNTOP OUTDIR [SAMPLES]
set -u
runtop=$1 out=$2 samples=${3:-$(dirname "$0")/../../shared/samples}
[ -d "$samples" ] || { echo "output_snapshot: no samples at $samples" >&2; exit 2; }
mkdir -p "$out"
tf=$samples/tfevents-public gen=$samples/generated other=$samples/other-public
n=0
run() {  # run NAME ARGS...: stdout, stderr and the exit code; the version line names a commit
    local name=$1; shift
    n=$((n + 1))
    "$runtop" "$@" >"$out/$name.out" 2>"$out/$name.err" </dev/null
    echo "exit $?" >>"$out/$name.err"
    sed -i -E 's/\(git [0-9a-f]+[^)]*\)/(git X)/' "$out/$name.out" "$out/$name.err"
}
run help --help
for c in ls dump check snapshot diff demo; do run "help-$c" "$c" --help; done
run print-config --print-config
roots=("$tf" "$gen" "$other")
for r in "${roots[@]}"; do
    b=$(basename "$r")
    run "ls-$b" ls "$r"
    run "ls-csv-$b" ls --format csv "$r"
    run "dump-$b" dump "$r"
    run "dump-jsonl-$b" dump --format jsonl "$r"
    run "check-$b" check "$r"
    run "check-json-$b" check --format json "$r"
done
run check-msprobe check --format json "$gen/msprobe"
run check-fail-warn check --fail-on warn "$gen"
for f in text csv json; do
    run "diff-$f-lightning" diff --format "$f" \
        a="$other/lightning/pytorchLit15min__version_0__metrics.csv" \
        b="$other/lightning/pytorchLit15min__version_1__metrics.csv"
    run "diff-$f-oumi" diff --format "$f" "$gen/oumi/rank0_only" "$gen/oumi/collect_all_ranks"
    run "diff-$f-msprobe" diff --format "$f" "$gen/msprobe/trainermon_2rank_csv" \
        "$gen/msprobe/trainermon_single_process_defaults"
    run "diff-$f-ds" diff --format "$f" "$gen/deepspeed/tensorboard" "$gen/deepspeed/csv_monitor"
    run "diff-$f-dipesh" diff --format "$f" --align wall --by mean \
        "$tf/tensorboard-logs-dipesh/runs" "$tf/tensorboard-reducer"
done
echo "output_snapshot: $n commands -> $out"
