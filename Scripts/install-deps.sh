#!/usr/bin/env bash
# Installs the system packages the build and the tests need when they are missing, so that each of
# README.md's set-up commands (Scripts/demo.sh, Scripts/test.sh, which run this first) works alone on
# a fresh Debian or Ubuntu machine that has only the Swift toolchain.
#
# Needed: the libyaml, libcurl, SQLite and libcrypto (OpenSSL) headers, pkg-config (SwiftPM finds the C libraries with it),
# python3 (the gitbay simulator) and tzdata (the time-zone database under /usr/share/zoneinfo, for the
# machine's clock and the zones of rules' schedules). Nothing missing: prints nothing and exits 0. Otherwise runs
# `apt-get update`, then `apt-get install -y` of exactly the missing packages, as root directly, else
# through password-less `sudo -n`. When it cannot (not root and no such sudo, no apt-get, macOS), it
# prints one line naming the command to run and exits 1.
#
# With --tests (Scripts/test.sh) it also ensures what only the tests use, so the demo stays light:
# chromium and a font (the headless browser that screenshots the status page), systemd's tools
# (systemd-analyze checks the shipped unit files), procps (pgrep: the browser's tests look for
# processes a visit left), and the Python package prometheus_client (it parses /metrics). That one
# comes from PyPI through `python3 -m pip` as the current user, after the apt packages (python3-pip
# among them when pip itself is missing), retried with `--user --break-system-packages` when pip
# refuses an externally-managed Python; when python3 still cannot import it, one line says what to
# run and the script exits 1.
#
# Overridable for tests: GITBAY_DEPS_ROOT is put before every header, zone and font path (an empty
# folder is a machine without any -dev package, tzdata or font) and GITBAY_DEPS_OS replaces
# `uname -s`; the commands (apt-get, chromium, systemd-analyze, pgrep, python3 and its pip) are looked
# up on PATH, which a test fills with stand-ins.
set -euo pipefail

sysroot="${GITBAY_DEPS_ROOT:-}"
system="${GITBAY_DEPS_OS:-$(uname -s)}"

tests=false
for argument in "$@"; do
    case "$argument" in
        --tests) tests=true ;;
        *)
            printf 'install-deps: unknown option %s; usage: Scripts/install-deps.sh [--tests]\n' "$argument" >&2
            exit 64
            ;;
    esac
done

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

has_python_module() { has_command python3 && python3 -c "import $1" >/dev/null 2>&1; }

if [ "$system" = Darwin ]; then
    # The SDK has libcurl and SQLite; only libyaml and pkg-config come from Homebrew.
    if ! has_command pkg-config || ! pkg-config --exists yaml-0.1; then
        say "libyaml or pkg-config is missing; run: brew install libyaml pkgconf"
        exit 1
    fi
    if $tests && ! { has_command chromium && has_command systemd-analyze && has_python_module prometheus_client; }; then
        say "the tests need chromium, systemd-analyze and prometheus_client, which this script installs on" \
            "Debian or Ubuntu only (systemd-analyze is Linux's): run the tests on Linux"
        exit 1
    fi
    exit 0
fi

missing=()
has_header yaml.h || missing+=(libyaml-dev)
has_header curl/curl.h || missing+=(libcurl4-openssl-dev)
has_header sqlite3.h || missing+=(libsqlite3-dev)
has_header openssl/hmac.h || missing+=(libssl-dev)
has_command pkg-config || missing+=(pkg-config)
has_command python3 || missing+=(python3)
[ -f "$sysroot/usr/share/zoneinfo/Etc/UTC" ] || missing+=(tzdata)

needs_prometheus_client=false
if $tests; then
    has_command chromium || missing+=(chromium)
    [ -f "$sysroot/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf" ] || missing+=(fonts-dejavu-core)
    has_command systemd-analyze || missing+=(systemd)
    has_command pgrep || missing+=(procps)
    if ! has_python_module prometheus_client; then
        needs_prometheus_client=true
        has_command python3 && python3 -m pip --version >/dev/null 2>&1 || missing+=(python3-pip)
    fi
fi
[ ${#missing[@]} -eq 0 ] && ! $needs_prometheus_client && exit 0

if [ ${#missing[@]} -gt 0 ]; then
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
fi

if $needs_prometheus_client; then
    say "installing prometheus_client with pip"
    install=(python3 -m pip install --quiet prometheus_client)
    if ! output=$("${install[@]}" 2>&1); then
        case "$output" in
            *externally-managed-environment*)
                say "this python3 is externally managed; installing prometheus_client for this user instead"
                install=(python3 -m pip install --quiet --user --break-system-packages prometheus_client)
                output=$("${install[@]}" 2>&1) || true
                ;;
        esac
    fi
    if ! has_python_module prometheus_client; then
        [ -z "$output" ] || printf '%s\n' "$output" >&2
        say "python3 cannot import prometheus_client after pip; run: python3 -m pip install --user prometheus_client" \
            "(with --break-system-packages where pip refuses an externally-managed Python)"
        exit 1
    fi
fi
