#!/usr/bin/env bash
# Installs the system packages the build and the tests need when they are missing, so that each of
# README.md's set-up commands (Scripts/demo.sh, Scripts/test.sh, which run this first) works alone on
# a fresh Debian or Ubuntu machine that has only the Swift toolchain.
#
# Needed: the libyaml, libcurl and SQLite headers, pkg-config (SwiftPM finds the C libraries with it),
# python3 (the gitbay simulator) and tzdata (the time-zone database under /usr/share/zoneinfo, for the
# machine's clock and the zones of rules' schedules). Nothing missing: prints nothing and exits 0. Otherwise runs
# `apt-get update`, then `apt-get install -y` of exactly the missing packages, as root directly, else
# through password-less `sudo -n`. When it cannot (not root and no such sudo, no apt-get, macOS), it
# prints one line naming the command to run and exits 1.
#
# Overridable for tests: GITBAY_DEPS_ROOT is put before every header and zone path (an empty folder is
# a machine without any -dev package or tzdata) and GITBAY_DEPS_OS replaces `uname -s`.
set -euo pipefail

sysroot="${GITBAY_DEPS_ROOT:-}"
system="${GITBAY_DEPS_OS:-$(uname -s)}"

say() { printf 'install-deps: %s\n' "$*" >&2; }

# Whether header $1 is in /usr/include or in one of its multiarch folders (x86_64-linux-gnu...).
has_header() {
    local path
    for path in "$sysroot/usr/include/$1" "$sysroot"/usr/include/*/"$1"; do
        [ -f "$path" ] && return 0
    done
    return 1
}

has_command() { command -v "$1" >/dev/null 2>&1; }

if [ "$system" = Darwin ]; then
    # The SDK has libcurl and SQLite; only libyaml and pkg-config come from Homebrew.
    if ! has_command pkg-config || ! pkg-config --exists yaml-0.1; then
        say "libyaml or pkg-config is missing; run: brew install libyaml pkgconf"
        exit 1
    fi
    exit 0
fi

missing=()
has_header yaml.h || missing+=(libyaml-dev)
has_header curl/curl.h || missing+=(libcurl4-openssl-dev)
has_header sqlite3.h || missing+=(libsqlite3-dev)
has_command pkg-config || missing+=(pkg-config)
has_command python3 || missing+=(python3)
[ -f "$sysroot/usr/share/zoneinfo/Etc/UTC" ] || missing+=(tzdata)
[ ${#missing[@]} -eq 0 ] && exit 0

if ! has_command apt-get; then
    say "missing ${missing[*]}, and there is no apt-get here: install them with the system's package manager"
    exit 1
fi
if [ "$(id -u)" = 0 ]; then
    as_root=(env)
elif has_command sudo && sudo -n true 2>/dev/null; then
    as_root=(sudo -n env)
else
    say "missing ${missing[*]}; this user is not root and cannot sudo without a password;" \
        "run: sudo apt-get update && sudo apt-get install -y ${missing[*]}"
    exit 1
fi

# Runs apt-get with arguments $@ as root, or says what to run instead and stops.
apt_get() {
    "${as_root[@]}" DEBIAN_FRONTEND=noninteractive apt-get "$@" >&2 || {
        local code=$?
        say "apt-get $1 failed (exit $code); run: sudo apt-get update && sudo apt-get install -y ${missing[*]}"
        exit 1
    }
}

say "installing ${missing[*]}"
apt_get update
apt_get install -y "${missing[@]}"
