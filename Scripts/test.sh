#!/usr/bin/env bash
# The project's one test command (README.md names it; .ci/run runs it): format lint, the
# simulator's own tests, then the Swift build with warnings as errors and every Swift test.
set -euo pipefail
cd "$(dirname "$0")/.."

echo "== swift format lint"
lint_paths=(Package.swift Sources Tests)
[ -n "$(find Plugins -name '*.swift' -print -quit 2>/dev/null)" ] && lint_paths+=(Plugins)
[ -d Benchmarks ] && lint_paths+=(Benchmarks)
swift format lint --strict --recursive "${lint_paths[@]}"

if compgen -G "Tests/Simulator/test_*.py" >/dev/null; then
    echo "== simulator tests"
    python3 -m unittest discover -s Tests/Simulator -p 'test_*.py'
fi

echo "== swift test"
swift build --build-tests -Xswiftc -warnings-as-errors
swift test --skip-build --parallel
