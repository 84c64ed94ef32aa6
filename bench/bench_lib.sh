# Shell helpers the benchmark scripts share (sourced by run_bench.sh and scale_bench.sh); they
# read RUNS (how many runs a figure is the best of).

now() {  # seconds, microsecond resolution; bash 5 has EPOCHREALTIME, no fork needed
    if [[ -n ${EPOCHREALTIME:-} ]]; then echo "$EPOCHREALTIME"; else date +%s.%N; fi
}

best_of() {  # best_of FUNCTION: prints the best wall time of $RUNS runs, in seconds
    local best="" t0 t1 dt
    for ((i = 0; i < RUNS; i++)); do
        t0=$(now)
        "$1"
        t1=$(now)
        dt=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.6f", b - a }')
        if [[ -z $best ]] || awk -v d="$dt" -v b="$best" 'BEGIN { exit !(d < b) }'; then
            best=$dt
        fi
    done
    echo "$best"
}

# best_times FUNCTION: prints "WALL CPU", the best wall time and the best CPU time (user +
# system of the children) of $RUNS runs, in seconds. On a shared machine CPU time is the
# steadier figure: waiting for another process's time slice is not counted.
best_times() {
    local best_w="" best_c="" w u s c
    for ((i = 0; i < RUNS; i++)); do
        read -r w u s < <( { TIMEFORMAT='%3R %3U %3S'; time "$1"; } 2>&1 >/dev/null )
        c=$(awk -v u="$u" -v s="$s" 'BEGIN { printf "%.3f", u + s }')
        if [[ -z $best_w ]] || awk -v d="$w" -v b="$best_w" 'BEGIN { exit !(d < b) }'; then
            best_w=$w
        fi
        if [[ -z $best_c ]] || awk -v d="$c" -v b="$best_c" 'BEGIN { exit !(d < b) }'; then
            best_c=$c
        fi
    done
    echo "$best_w $best_c"
}

# paired_times FUNCTION_A FUNCTION_B: runs A and B in turn, $RUNS times each, and prints "WALL_A
# WALL_B RATIO BEST_A BEST_B": the median wall time of each, the median of the pairs' A/B ratios
# and the best wall time of each. For a
# ratio of two ways to run the same work (one core and unpinned): taken pair by pair it holds
# when the machine's speed drifts, and a median is not moved by one lucky run as a best is.
paired_times() {
    local a b i
    local -a wa=() wb=() ratios=()
    for ((i = 0; i < RUNS; i++)); do
        read -r a _ < <( { TIMEFORMAT='%3R'; time "$1"; } 2>&1 >/dev/null )
        read -r b _ < <( { TIMEFORMAT='%3R'; time "$2"; } 2>&1 >/dev/null )
        wa+=("$a") wb+=("$b")
        ratios+=("$(awk -v a="$a" -v b="$b" 'BEGIN { printf "%.4f", (b > 0 ? a / b : 0) }')")
    done
    echo "$(median "${wa[@]}") $(median "${wb[@]}") $(median "${ratios[@]}")" \
        "$(printf '%s\n' "${wa[@]}" | sort -g | head -1)" "$(printf '%s\n' "${wb[@]}" | sort -g | head -1)"
}

median() {  # median NUMBER...: the middle one (the mean of the two middle ones for an even count)
    printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 } END {
        if (NR % 2) print v[(NR + 1) / 2]; else printf "%.6f\n", (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

# peak_rss_kb COMMAND...: the command's peak resident set in KiB (GNU time %M), "" without GNU
# time; its output is discarded.
peak_rss_kb() {
    if [[ -x /usr/bin/time ]] && /usr/bin/time -f %M -o /dev/null true 2>/dev/null; then
        local f
        f=$(mktemp)
        /usr/bin/time -f %M -o "$f" "$@" >/dev/null 2>&1 || true
        tail -1 "$f"
        rm -f "$f"
    fi
}
