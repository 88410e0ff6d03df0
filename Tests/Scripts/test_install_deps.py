"""Tests of the set-up scripts (Scripts/install-deps.sh, demo.sh, test.sh) on a simulated fresh machine.

The machine is simulated, not changed: headers, zones and fonts are looked up under GITBAY_DEPS_ROOT
(an empty folder is a machine without any -dev package), and PATH holds only stand-ins for `apt-get`,
`sudo`, `id`, `swift`, `pkg-config`, `python3`, `chromium`, `systemd-analyze` and `pgrep` that append their argv
to a log, plus the few real tools the scripts use. The stand-in `apt-get install` puts the stand-ins
of the packages it installs on PATH, and the stand-in python3 imports a module (pip,
prometheus_client) when the machine has it, so what the scripts do after installing runs as it
would. Each test then reads what the scripts asked the package manager and pip to do.
"""

import os
import shutil
import subprocess
import tempfile
import unittest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
HEADERS = {
    "libyaml-dev": "usr/include/yaml.h",
    "libcurl4-openssl-dev": "usr/include/x86_64-linux-gnu/curl/curl.h",
    "libsqlite3-dev": "usr/include/sqlite3.h",
    "libssl-dev": "usr/include/openssl/hmac.h",
    "tzdata": "usr/share/zoneinfo/Etc/UTC",
    "fonts-dejavu-core": "usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
}
# The command each package puts on PATH.
COMMANDS = {"pkg-config": "pkg-config", "python3": "python3", "chromium": "chromium", "systemd": "systemd-analyze",
            "procps": "pgrep"}
ALL_PACKAGES = ["libyaml-dev", "libcurl4-openssl-dev", "libsqlite3-dev", "libssl-dev", "pkg-config", "python3", "tzdata"]
# What only `install-deps.sh --tests` adds, in its order; python3-pip and prometheus_client (from
# PyPI) are present unless a test leaves them out.
TEST_PACKAGES = ["chromium", "fonts-dejavu-core", "systemd", "procps"]
EVERYTHING = ALL_PACKAGES + TEST_PACKAGES + ["python3-pip", "prometheus_client"]
# A stand-in: logs its name and arguments, in one write so that stand-ins running at once (the
# Python tests beside the build) never mix their lines, then does what the test set for it.
STUB = """#!/bin/sh
line='%(name)s'
for word in "$@"; do line="$line $word"; done
printf '%%s\\n' "$line" >>"$STUB_LOG"
%(body)s
"""
BODIES = {
    "id": 'echo "$STUB_UID"',
    # Refuses like sudo without a cached password when STUB_SUDO_PASSWORD is set; otherwise runs the
    # command after `-n`, as password-less sudo does.
    "sudo": '[ -z "$STUB_SUDO_PASSWORD" ] || { echo "sudo: a password is required" >&2; exit 1; }\n'
            '[ "$1" = -n ] && shift\n"$@"',
    # Installs like apt-get: marks each package as present and puts its command's stand-in on PATH.
    "apt-get": '[ "${STUB_APT_EXIT:-0}" = 0 ] || exit "$STUB_APT_EXIT"\n'
               '[ "$1" = install ] || exit 0\n'
               'shift\n'
               'for package; do\n'
               '    case "$package" in -*) continue ;; esac\n'
               '    : >"$STUB_HAVE/$package"\n'
               '    [ -d "$STUB_REPOSITORY/$package" ] && /bin/cp "$STUB_REPOSITORY/$package"/* "$STUB_BIN/"\n'
               'done\n'
               'exit 0',
    # Imports a module the machine has (the file $STUB_HAVE/<module>); pip installs prometheus_client,
    # or refuses as Debian's pip does an externally-managed Python when STUB_PIP_MANAGED is set and
    # --break-system-packages is not given, or fails with STUB_PIP_EXIT.
    "python3": 'case "$*" in\n'
               '"-c import "*)\n'
               '    module="${2#import }"\n'
               '    [ -e "$STUB_HAVE/$module" ] || { echo "ModuleNotFoundError: $module" >&2; exit 1; } ;;\n'
               '"-m pip "*)\n'
               '    [ -e "$STUB_HAVE/python3-pip" ] || { echo "No module named pip" >&2; exit 1; }\n'
               '    [ "$3" != --version ] || exit 0\n'
               '    [ "${STUB_PIP_EXIT:-0}" = 0 ] || { echo "ERROR: no network" >&2; exit "$STUB_PIP_EXIT"; }\n'
               '    case "$*" in *--break-system-packages*) ;; *)\n'
               '        [ -z "$STUB_PIP_MANAGED" ] || { echo "error: externally-managed-environment" >&2; exit 1; }\n'
               '    esac\n'
               '    : >"$STUB_HAVE/prometheus_client" ;;\n'
               'esac',
}


class Machine:
    """A temporary fresh machine: a header root, a PATH of stand-ins and a log of their calls."""

    def __init__(self, present=(), root=False, sudo=True, sudo_password=False, apt=True, system="Linux"):
        self.tmp = tempfile.TemporaryDirectory()
        self.sysroot = os.path.join(self.tmp.name, "sysroot")
        self.bin = os.path.join(self.tmp.name, "bin")
        self.log = os.path.join(self.tmp.name, "calls.log")
        # What apt-get can install: a folder per package holding its command's stand-in.
        self.repository = os.path.join(self.tmp.name, "repository")
        # A file per package or Python module the machine has, for the stand-ins to look at.
        self.have = os.path.join(self.tmp.name, "have")
        for folder in (self.sysroot, self.bin, self.repository, self.have):
            os.makedirs(folder)
        for package, header in HEADERS.items():
            if package in present:
                path = os.path.join(self.sysroot, header)
                os.makedirs(os.path.dirname(path), exist_ok=True)
                open(path, "w").close()
        for package in present:
            open(os.path.join(self.have, package), "w").close()
        for package, command in COMMANDS.items():
            os.makedirs(os.path.join(self.repository, package))
            self.stub(command, BODIES.get(command, ""), os.path.join(self.repository, package))
            if package in present:
                self.stub(command, BODIES.get(command, ""))
        stubs = ["id", "swift"] + (["sudo"] if sudo else []) + (["apt-get"] if apt else [])
        for name in stubs:
            self.stub(name, BODIES.get(name, ""))
        for tool in ("bash", "env", "dirname", "find"):
            os.symlink(shutil.which(tool), os.path.join(self.bin, tool))
        self.environment = {
            "PATH": self.bin, "STUB_LOG": self.log, "STUB_UID": "0" if root else "1000",
            "STUB_SUDO_PASSWORD": "1" if sudo_password else "", "GITBAY_DEPS_ROOT": self.sysroot,
            "GITBAY_DEPS_OS": system, "STUB_BIN": self.bin, "STUB_REPOSITORY": self.repository,
            "STUB_HAVE": self.have,
            # Scratch files of the scripts stay in the machine's folder, which goes with it.
            "TMPDIR": self.tmp.name,
        }

    def stub(self, name, body, folder=None):
        path = os.path.join(folder or self.bin, name)
        with open(path, "w") as f:
            f.write(STUB % {"name": name, "body": body})
        os.chmod(path, 0o755)

    def run(self, script, *arguments):
        """Runs a script of Scripts/ with bash; returns the finished process."""
        return subprocess.run(["/bin/bash", os.path.join(ROOT, "Scripts", script), *arguments],
                              env=self.environment, capture_output=True, text=True, cwd=self.tmp.name)

    def has(self, name):
        """Whether the machine has the package or Python module `name` now."""
        return os.path.exists(os.path.join(self.have, name))

    def calls(self, *names):
        """The logged calls, as lines, of the named stand-ins (all but `id` when none are named)."""
        if not os.path.exists(self.log):
            return []
        with open(self.log) as f:
            lines = f.read().splitlines()
        return [line for line in lines if line.split(" ")[0] in (names or ("apt-get", "sudo", "swift"))]

    def close(self):
        self.tmp.cleanup()


class InstallDepsTests(unittest.TestCase):
    def machine(self, **options):
        machine = Machine(**options)
        self.addCleanup(machine.close)
        return machine

    def test_root_updates_then_installs_exactly_what_is_missing(self):
        machine = self.machine(present=("libyaml-dev", "libssl-dev", "pkg-config", "tzdata"), root=True)
        result = machine.run("install-deps.sh")
        self.assertEqual(result.returncode, 0, result.stderr)
        self.assertEqual(machine.calls(), [
            "apt-get update",
            "apt-get install -y libcurl4-openssl-dev libsqlite3-dev python3",
        ])
        self.assertEqual(result.stdout, "")

    def test_a_fresh_machine_gets_every_package(self):
        machine = self.machine(root=True)
        self.assertEqual(machine.run("install-deps.sh").returncode, 0)
        self.assertEqual(machine.calls("apt-get"), ["apt-get update", "apt-get install -y " + " ".join(ALL_PACKAGES)])

    def test_not_root_goes_through_password_less_sudo(self):
        machine = self.machine(present=("libyaml-dev", "libssl-dev", "libsqlite3-dev", "pkg-config", "python3", "tzdata"))
        result = machine.run("install-deps.sh")
        self.assertEqual(result.returncode, 0, result.stderr)
        self.assertEqual(machine.calls(), [
            "sudo -n true",
            "sudo -n env DEBIAN_FRONTEND=noninteractive apt-get update",
            "apt-get update",
            "sudo -n env DEBIAN_FRONTEND=noninteractive apt-get install -y libcurl4-openssl-dev",
            "apt-get install -y libcurl4-openssl-dev",
        ])

    def test_not_root_without_sudo_names_the_command_and_installs_nothing(self):
        for options in ({"sudo": False}, {"sudo_password": True}):
            with self.subTest(**options):
                machine = self.machine(present=("libyaml-dev", "libssl-dev", "pkg-config", "python3", "tzdata"), **options)
                result = machine.run("install-deps.sh")
                self.assertEqual(result.returncode, 1)
                self.assertEqual(machine.calls("apt-get"), [])
                lines = result.stderr.splitlines()
                self.assertEqual(len(lines), 1, result.stderr)
                self.assertIn("missing libcurl4-openssl-dev libsqlite3-dev", lines[0])
                self.assertTrue(lines[0].endswith(
                    "run: sudo apt-get update && sudo apt-get install -y libcurl4-openssl-dev libsqlite3-dev"),
                    lines[0])

    def test_nothing_missing_never_calls_the_package_manager(self):
        machine = self.machine(present=ALL_PACKAGES, root=True)
        result = machine.run("install-deps.sh")
        self.assertEqual((result.returncode, result.stdout, result.stderr), (0, "", ""))
        self.assertEqual(machine.calls("apt-get", "sudo", "id"), [])

    def test_a_failing_apt_get_is_reported(self):
        machine = self.machine(present=("libyaml-dev", "libssl-dev", "libcurl4-openssl-dev", "pkg-config", "python3", "tzdata"),
                               root=True)
        machine.environment["STUB_APT_EXIT"] = "100"
        result = machine.run("install-deps.sh")
        self.assertEqual(result.returncode, 1)
        self.assertEqual(machine.calls("apt-get"), ["apt-get update"])
        self.assertIn("apt-get update failed (exit 100)", result.stderr.splitlines()[-1])

    def test_without_apt_get_it_names_the_packages(self):
        machine = self.machine(present=("libyaml-dev", "libssl-dev", "libcurl4-openssl-dev", "libsqlite3-dev", "tzdata"), root=True,
                               apt=False)
        result = machine.run("install-deps.sh")
        self.assertEqual(result.returncode, 1)
        self.assertEqual(result.stderr.splitlines(), [
            "install-deps: missing pkg-config python3, and there is no apt-get here: install them with the system's "
            "package manager"])

    def test_a_machine_without_the_time_zone_database_gets_tzdata(self):
        machine = self.machine(present=[package for package in ALL_PACKAGES if package != "tzdata"], root=True)
        result = machine.run("install-deps.sh")
        self.assertEqual(result.returncode, 0, result.stderr)
        self.assertEqual(machine.calls("apt-get"), ["apt-get update", "apt-get install -y tzdata"])

    def test_a_missing_tzdata_without_sudo_names_the_command(self):
        machine = self.machine(present=[package for package in ALL_PACKAGES if package != "tzdata"], sudo=False)
        result = machine.run("install-deps.sh")
        self.assertEqual(result.returncode, 1)
        self.assertEqual(machine.calls("apt-get"), [])
        self.assertTrue(result.stderr.strip().endswith("run: sudo apt-get update && sudo apt-get install -y tzdata"),
                        result.stderr)

    def test_the_default_leaves_the_test_only_packages_alone(self):
        machine = self.machine(present=ALL_PACKAGES, root=True)
        result = machine.run("install-deps.sh")
        self.assertEqual((result.returncode, result.stdout, result.stderr), (0, "", ""))
        self.assertEqual(machine.calls("apt-get", "sudo", "python3"), [])

    def test_an_unknown_option_is_refused(self):
        machine = self.machine(present=ALL_PACKAGES, root=True)
        result = machine.run("install-deps.sh", "--test")
        self.assertEqual(result.returncode, 64)
        self.assertIn("unknown option --test", result.stderr)
        self.assertEqual(machine.calls("apt-get"), [])

    def test_macos_is_only_advised_to_use_homebrew(self):
        machine = self.machine(root=True, system="Darwin")
        result = machine.run("install-deps.sh")
        self.assertEqual(result.returncode, 1)
        self.assertEqual(machine.calls(), [])
        self.assertIn("brew install libyaml pkgconf", result.stderr)


class InstallTestDepsTests(unittest.TestCase):
    """`install-deps.sh --tests`: what only the tests use (chromium, systemd's tools, pgrep, prometheus_client)."""

    def machine(self, absent=(), **options):
        machine = Machine(present=[name for name in EVERYTHING if name not in absent], root=True, **options)
        self.addCleanup(machine.close)
        return machine

    def test_a_missing_chromium_is_in_the_one_apt_get_install(self):
        machine = self.machine(absent=("chromium",))
        result = machine.run("install-deps.sh", "--tests")
        self.assertEqual(result.returncode, 0, result.stderr)
        self.assertEqual(machine.calls("apt-get"), ["apt-get update", "apt-get install -y chromium"])
        self.assertEqual(result.stderr, "install-deps: installing chromium\n")

    def test_everything_present_is_silent(self):
        machine = self.machine()
        result = machine.run("install-deps.sh", "--tests")
        self.assertEqual((result.returncode, result.stdout, result.stderr), (0, "", ""))
        self.assertEqual(machine.calls("apt-get", "sudo", "id"), [])
        # Python is only asked whether it has prometheus_client.
        self.assertEqual(machine.calls("python3"), ["python3 -c import prometheus_client"])

    def test_a_missing_prometheus_client_is_installed_with_pip(self):
        machine = self.machine(absent=("prometheus_client",))
        result = machine.run("install-deps.sh", "--tests")
        self.assertEqual(result.returncode, 0, result.stderr)
        self.assertEqual(machine.calls("apt-get"), [])
        self.assertIn("python3 -m pip install --quiet prometheus_client", machine.calls("python3"))
        self.assertTrue(machine.has("prometheus_client"))
        self.assertEqual(result.stderr, "install-deps: installing prometheus_client with pip\n")

    def test_an_externally_managed_python_gets_it_for_the_user(self):
        machine = self.machine(absent=("prometheus_client",))
        machine.environment["STUB_PIP_MANAGED"] = "1"
        result = machine.run("install-deps.sh", "--tests")
        self.assertEqual(result.returncode, 0, result.stderr)
        pip = [call for call in machine.calls("python3") if call.startswith("python3 -m pip install")]
        self.assertEqual(pip, [
            "python3 -m pip install --quiet prometheus_client",
            "python3 -m pip install --quiet --user --break-system-packages prometheus_client",
        ])
        self.assertTrue(machine.has("prometheus_client"))

    def test_a_failing_pip_says_what_to_run(self):
        machine = self.machine(absent=("prometheus_client",))
        machine.environment["STUB_PIP_EXIT"] = "2"
        result = machine.run("install-deps.sh", "--tests")
        self.assertEqual(result.returncode, 1)
        lines = result.stderr.splitlines()
        self.assertIn("ERROR: no network", lines)
        self.assertTrue(lines[-1].startswith("install-deps: python3 cannot import prometheus_client after pip; "
                                             "run: python3 -m pip install --user prometheus_client"), lines[-1])

    def test_without_pip_python3_pip_comes_from_apt_first(self):
        machine = self.machine(absent=("python3-pip", "prometheus_client", "systemd"))
        result = machine.run("install-deps.sh", "--tests")
        self.assertEqual(result.returncode, 0, result.stderr)
        self.assertEqual(machine.calls("apt-get"), ["apt-get update", "apt-get install -y systemd python3-pip"])
        self.assertEqual(machine.calls("apt-get", "python3")[-2:], [
            "python3 -m pip install --quiet prometheus_client", "python3 -c import prometheus_client"])
        self.assertTrue(machine.has("prometheus_client"))

    def test_a_fresh_machine_gets_every_package_then_prometheus_client(self):
        machine = Machine(root=True)
        self.addCleanup(machine.close)
        result = machine.run("install-deps.sh", "--tests")
        self.assertEqual(result.returncode, 0, result.stderr)
        self.assertEqual(machine.calls("apt-get"), [
            "apt-get update", "apt-get install -y " + " ".join(ALL_PACKAGES + TEST_PACKAGES + ["python3-pip"])])
        # The python3 that apt-get just installed runs pip.
        self.assertIn("python3 -m pip install --quiet prometheus_client", machine.calls("python3"))
        self.assertTrue(machine.has("prometheus_client"))

    def test_not_root_without_sudo_names_chromium_in_the_command(self):
        machine = Machine(present=[name for name in EVERYTHING if name != "chromium"], sudo=False)
        self.addCleanup(machine.close)
        result = machine.run("install-deps.sh", "--tests")
        self.assertEqual(result.returncode, 1)
        self.assertEqual(machine.calls("apt-get"), [])
        self.assertTrue(result.stderr.strip().endswith("run: sudo apt-get update && sudo apt-get install -y chromium"),
                        result.stderr)

    def test_macos_says_the_tests_need_linux(self):
        machine = Machine(present=("pkg-config",), root=True, system="Darwin")
        self.addCleanup(machine.close)
        result = machine.run("install-deps.sh", "--tests")
        self.assertEqual(result.returncode, 1)
        self.assertEqual(machine.calls("apt-get", "python3"), [])
        self.assertIn("run the tests on Linux", result.stderr)


class SetUpCommandTests(unittest.TestCase):
    """README.md's two set-up commands each install what is missing before they build."""

    def machine(self):
        machine = Machine(present=("pkg-config", "python3", "tzdata"), root=True)
        self.addCleanup(machine.close)
        return machine

    def test_the_demo_installs_then_runs_the_bot_on_the_demo_forge(self):
        machine = self.machine()
        result = machine.run("demo.sh", "--format", "json")
        self.assertEqual(result.returncode, 0, result.stderr)
        self.assertEqual(machine.calls(), [
            "apt-get update",
            "apt-get install -y libyaml-dev libcurl4-openssl-dev libsqlite3-dev libssl-dev",
            "swift run gitbay-bot run --snapshot examples/demo-forge.json --format json",
        ])

    def test_the_test_command_installs_before_anything_else(self):
        machine = self.machine()
        result = machine.run("test.sh")
        self.assertEqual(result.returncode, 0, result.stderr)
        calls = machine.calls("apt-get", "swift", "python3")
        # The test-only packages too, then prometheus_client through pip, before anything else.
        self.assertEqual(calls[:6], [
            "python3 -c import prometheus_client",
            "python3 -m pip --version",
            "apt-get update",
            "apt-get install -y libyaml-dev libcurl4-openssl-dev libsqlite3-dev libssl-dev chromium fonts-dejavu-core systemd "
            "procps python3-pip",
            "python3 -m pip install --quiet prometheus_client",
            "python3 -c import prometheus_client",
        ])
        self.assertTrue(calls[6].startswith("swift format lint"), calls)
        # The Python tests run beside the Swift build, a process per module.
        self.assertIn("python3 -m unittest discover -s Tests/Scripts -p test_install_deps.py", calls)
        self.assertIn("python3 -m unittest discover -s Tests/Simulator -p test_gitbay_sim.py", calls)
        self.assertEqual(machine.calls("swift")[-2:], ["swift build --build-tests -Xswiftc -warnings-as-errors",
                                                      "swift test --skip-build --parallel"])

    def test_deep_tries_every_seed_and_another_word_is_a_usage_error(self):
        machine = self.machine()
        # The swift stand-in says whether the tests it runs would try every seed.
        machine.stub("swift", 'echo "deep=${GITBAY_DEEP_TESTS:-}" >>"$STUB_LOG"')
        self.assertEqual(machine.run("test.sh", "--deep").returncode, 0)
        with open(machine.log) as f:
            self.assertIn("deep=1", f.read().splitlines())
        wrong = self.machine()
        result = wrong.run("test.sh", "--seeds")
        self.assertEqual(result.returncode, 64)
        self.assertIn("usage: Scripts/test.sh [--deep]", result.stderr)
        self.assertEqual(wrong.calls("apt-get", "swift", "python3"), [])

    def test_a_failed_install_stops_the_demo_before_the_build(self):
        machine = self.machine()
        machine.environment["STUB_APT_EXIT"] = "100"
        result = machine.run("demo.sh")
        self.assertEqual(result.returncode, 1)
        self.assertEqual(machine.calls("swift"), [])


if __name__ == "__main__":
    unittest.main()
