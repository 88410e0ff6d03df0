#!/usr/bin/env bash
# The project's one test command (README.md names it; .ci/run runs it): installs the system
# packages that are missing (Scripts/install-deps.sh), then format lint, the Python tests (the
# simulator's and the set-up scripts', beside the Swift build with warnings as errors) and every
# Swift test.
#
# --deep tries every seed of the property tests (GITBAY_DEEP_TESTS=1), as CI does (.ci/run);
# by default a quick set of them (Tests/GitbayTestSupport/TestDepth.swift).
set -euo pipefail
cd "$(dirname "$0")/.."

case "${1:-}" in
    "") ;;
    --deep) export GITBAY_DEEP_TESTS=1 ;;
    *) echo "usage: Scripts/test.sh [--deep]" >&2; exit 64 ;;
esac

Scripts/install-deps.sh --tests

echo "== swift format lint"
lint_paths=(Package.swift Sources Tests)
[ -n "$(find Plugins -name '*.swift' -print -quit 2>/dev/null)" ] && lint_paths+=(Plugins)
[ -d Benchmarks ] && lint_paths+=(Benchmarks)
swift format lint --strict --recursive "${lint_paths[@]}"

# The Python tests (the simulator's and the set-up scripts') run while Swift builds: they need
# none of it, and most of their time is simulators starting and stopping, not the build's CPU.
# Each module is a process of its own; their output is shown once they are all done.
# Only bash's own words here: the set-up scripts' tests run this on a PATH of stand-ins.
python_log="${TMPDIR:-/tmp}/gitbay-bot-python-tests.$$"
python_pids=()
for module in Tests/Simulator/test_*.py Tests/Scripts/test_*.py; do
    [ -e "$module" ] || continue
    python3 -m unittest discover -s "${module%/*}" -p "${module##*/}" >"$python_log.${module##*/}" 2>&1 &
    python_pids+=($!)
done
stop_python() {
    for pid in "${python_pids[@]}"; do kill "$pid" 2>/dev/null || true; done
    rm -f "$python_log".* 2>/dev/null || true
}
trap stop_python EXIT

echo "== swift build (the python tests run meanwhile)"
swift build --build-tests -Xswiftc -warnings-as-errors

python_failed=0
for pid in "${python_pids[@]}"; do wait "$pid" || python_failed=1; done
for log in "$python_log".*; do
    [ -e "$log" ] || continue
    echo "== python tests: ${log#"$python_log".}"
    printf '%s\n' "$(<"$log")"
done
python_pids=()
[ "$python_failed" -eq 0 ] || { echo "== python tests failed" >&2; exit 1; }

echo "== swift test"

# A test run that outlasts GITBAY_TEST_LIMIT seconds (default 600, ten times a normal run on a
# 2-core machine) is a hang: the threads of the test processes that `swift test` started (its own
# children, found through /proc, never by name) are printed, they are killed, and the run fails.
# It is never run again: a hang is a bug to find.
children_of() {
    local parent=$1 stat
    for stat in /proc/[0-9]*/stat; do
        { read -r -a fields < "$stat"; } 2>/dev/null || continue
        # The second field, the command name in parentheses, has no spaces for these processes.
        if [ "${fields[3]:-}" = "$parent" ]; then echo "${fields[0]}"; fi
    done
}

swift test --skip-build --parallel &
runner=$!
waited=0
while kill -0 "$runner" 2>/dev/null; do
    if [ "$waited" -ge "${GITBAY_TEST_LIMIT:-600}" ]; then
        echo "== swift test has run ${waited} s: it hangs. The test processes' threads:" >&2
        for pid in $(children_of "$runner"); do
            echo "== process $pid: $(tr '\0' ' ' < "/proc/$pid/cmdline" 2>/dev/null)" >&2
            if command -v gdb >/dev/null; then
                timeout 120 gdb -p "$pid" -batch -ex 'thread apply all bt 30' 2>/dev/null | grep -v '^During symbol' >&2 || true
            else
                for task in /proc/"$pid"/task/*; do
                    echo "thread $(cat "$task/comm" 2>/dev/null) waits in $(cat "$task/wchan" 2>/dev/null)" >&2
                done
            fi
            kill -9 "$pid" 2>/dev/null || true
        done
        kill -9 "$runner" 2>/dev/null || true
        wait "$runner" 2>/dev/null || true
        exit 124
    fi
    sleep 1 || true
    waited=$((waited + 1))
done
wait "$runner"
