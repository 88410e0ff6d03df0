#!/usr/bin/env bash
# README.md's first set-up command: installs the system packages the build needs when they are
# missing (Scripts/install-deps.sh), then builds the bot and runs it on the bundled demo forge,
# offline. Further arguments go to `gitbay-bot run` (`Scripts/demo.sh --format json`).
set -euo pipefail
cd "$(dirname "$0")/.."

Scripts/install-deps.sh
exec swift run gitbay-bot run --snapshot examples/demo-forge.json "$@"
