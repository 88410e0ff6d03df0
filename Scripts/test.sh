#!/usr/bin/env bash
# The project's one test command (README.md names it; .ci/run runs it): installs the system
# packages that are missing (Scripts/install-deps.sh), then format lint, the Python tests (the
# simulator's and the set-up scripts'), the Swift build with warnings as errors and every Swift test.
set -euo pipefail
cd "$(dirname "$0")/.."

Scripts/install-deps.sh

echo "== swift format lint"
lint_paths=(Package.swift Sources Tests)
[ -n "$(find Plugins -name '*.swift' -print -quit 2>/dev/null)" ] && lint_paths+=(Plugins)
[ -d Benchmarks ] && lint_paths+=(Benchmarks)
swift format lint --strict --recursive "${lint_paths[@]}"

for folder in Tests/Simulator Tests/Scripts; do
    if compgen -G "$folder/test_*.py" >/dev/null; then
        echo "== python tests: $folder"
        python3 -m unittest discover -s "$folder" -p 'test_*.py'
    fi
done

echo "== swift test"
swift build --build-tests -Xswiftc -warnings-as-errors
swift test --skip-build --parallel
