#!/usr/bin/env bash
# Times `gitbay-bench evaluate` of two builds on the same rules, alternating A and B runs, and
# prints each one's median wall and CPU time, its best, the ratio B / A of the medians and the
# median of each run's B / A (docs/performance.md, "Evaluation speed back where it was").
#
#   Scripts/bench-compare.sh [--runs K] [--items N] [--rules DIR] [--jobs J] A B
#
# A and B are revisions, each built in a detached worktree of its own under $BENCH_COMPARE_DIR
# (default ${TMPDIR:-/tmp}/gitbay-bench-compare, kept for the next comparison), or folders of
# checkouts already there (`.` is this one), built where they are (release, `-j J`, default 1).
# Both use the rule files of DIR, by default A's `rules/`: a build whose evaluate takes `--rules`
# is given the folder, and an older one reads its checkout's `rules/` (ShippedRules finds it by
# its source path), so the rules are copied there, which is done only in the worktrees this
# script made. Each run (K, default 5) is the N-item (default 100000) best of the benchmark's own
# runs; the machine is shared and noisy, so the runs alternate and the medians are compared, and
# the two plans must have the same number of entries.
set -euo pipefail

runs=5
items=100000
rules=""
jobs=1
while [ $# -gt 0 ]; do
    case "$1" in
    --runs) runs="$2"; shift 2 ;;
    --items) items="$2"; shift 2 ;;
    --rules) rules="$2"; shift 2 ;;
    --jobs) jobs="$2"; shift 2 ;;
    -h | --help) sed -n '2,17p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    -*) echo "bench-compare: unknown option $1" >&2; exit 64 ;;
    *) break ;;
    esac
done
if [ $# -ne 2 ]; then
    echo "usage: Scripts/bench-compare.sh [--runs K] [--items N] [--rules DIR] [--jobs J] A B" >&2
    exit 64
fi
repository="$(cd "$(dirname "$0")/.." && pwd)"
work="${BENCH_COMPARE_DIR:-${TMPDIR:-/tmp}/gitbay-bench-compare}"
mkdir -p "$work"

# The checkout of $1 (a folder, or a revision checked out in a worktree of its own) on stdout.
checkout() {
    if [ -d "$1" ]; then
        (cd "$1" && pwd)
        return
    fi
    local commit
    commit="$(git -C "$repository" rev-parse --verify "$1^{commit}")"
    local tree="$work/${commit:0:12}"
    if [ ! -d "$tree" ]; then
        git -C "$repository" worktree add --detach "$tree" "$commit" >&2
        touch "$tree/.bench-compare"
    fi
    echo "$tree"
}

# Gives the build in $1 the rules, setting the array named $2 to the arguments its evaluate needs.
use_rules() {
    local -n arguments="$2"
    arguments=()
    local usage
    usage="$("$1/.build/release/gitbay-bench" evaluate --help)"
    if [[ "$usage" == *--rules* ]]; then
        arguments=(--rules "$rules")
    elif [ "$(cd "$1/rules" && pwd)" = "$rules" ]; then
        return
    elif [ -e "$1/.bench-compare" ]; then
        rm -f "$1"/rules/*.yml
        cp "$rules"/*.yml "$1/rules/"
    else
        echo "bench-compare: $1 takes no evaluate --rules and is no worktree of this script's" >&2
        exit 1
    fi
}

a="$(checkout "$1")"
b="$(checkout "$2")"
if [ -z "$rules" ]; then
    if [ -d "$1" ]; then
        rules="$a/rules"
    else
        rules="$work/rules-$(git -C "$repository" rev-parse --short=12 "$1^{commit}")"
        rm -rf "$rules"
        mkdir -p "$rules"
        git -C "$repository" archive "$1" rules | tar -x -C "$rules" --strip-components=1
    fi
fi
rules="$(cd "$rules" && pwd)"

for tree in "$a" "$b"; do
    echo "== building $tree" >&2
    (cd "$tree" && swift build -c release --product gitbay-bench -j "$jobs" >&2)
done
a_arguments=()
b_arguments=()
use_rules "$a" a_arguments
use_rules "$b" b_arguments

# One run of the build in $1 with the arguments after it: "wall CPU entries" (seconds) on stdout.
measure() {
    local tree="$1"
    shift
    local value
    value="$(GITBAY_BENCH_ROWS=1 "$tree/.build/release/gitbay-bench" evaluate --items "$items" "$@" |
        awk -F '\t' '$1 == "ROW" && $2 == "evaluate" && !found { print $5; found = 1 }')"
    local cpu="${value#*(CPU }"
    echo "${value%% s *} ${cpu%% s*} $(printf '%s' "$value" | grep -o '[0-9]* entries' | cut -d' ' -f1)"
}

best() {
    sort -g | head -1
}

median() {
    sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

a_walls=()
a_cpus=()
b_walls=()
b_cpus=()
for run in $(seq 1 "$runs"); do
    read -r a_wall a_cpu a_entries < <(measure "$a" ${a_arguments[@]+"${a_arguments[@]}"})
    read -r b_wall b_cpu b_entries < <(measure "$b" ${b_arguments[@]+"${b_arguments[@]}"})
    if [ -z "$a_entries" ] || [ "$a_entries" != "$b_entries" ]; then
        echo "bench-compare: the plans differ, ${a_entries:-no} entries against ${b_entries:-no}" >&2
        exit 1
    fi
    echo "run $run: A $a_wall s (CPU $a_cpu s), B $b_wall s (CPU $b_cpu s), $a_entries entries"
    a_walls+=("$a_wall")
    a_cpus+=("$a_cpu")
    b_walls+=("$b_wall")
    b_cpus+=("$b_cpu")
done
a_wall="$(printf '%s\n' "${a_walls[@]}" | median)"
a_cpu="$(printf '%s\n' "${a_cpus[@]}" | median)"
b_wall="$(printf '%s\n' "${b_walls[@]}" | median)"
b_cpu="$(printf '%s\n' "${b_cpus[@]}" | median)"
echo "rules: $rules; $items items, $runs alternated runs"
echo "A $1 ($a): median $a_wall s (CPU $a_cpu s), best $(printf '%s\n' "${a_walls[@]}" | best) s"
echo "B $2 ($b): median $b_wall s (CPU $b_cpu s), best $(printf '%s\n' "${b_walls[@]}" | best) s"
# The median of each run's B / A too: it follows load that drifts over the runs less than the
# ratio of the medians does.
paired="$(for run in "${!a_walls[@]}"; do
    awk -v a="${a_walls[$run]}" -v b="${b_walls[$run]}" 'BEGIN { print b / a }'
done | median)"
awk -v a="$a_wall" -v b="$b_wall" -v ac="$a_cpu" -v bc="$b_cpu" -v p="$paired" \
    'BEGIN { printf "B / A: %.3f (CPU %.3f); median of the runs\047 B / A: %.3f\n", b / a, bc / ac, p }'
