"""Tests of the set-up scripts (Scripts/install-deps.sh, demo.sh, test.sh) on a simulated fresh machine.

The machine is simulated, not changed: headers are looked up under GITBAY_DEPS_ROOT (an empty
folder is a machine without any -dev package), and PATH holds only stand-ins for `apt-get`, `sudo`,
`id`, `swift`, `pkg-config` and `python3` that append their argv to a log, plus the few real tools
the scripts use. Each test then reads what the scripts asked the package manager to do.
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
    "tzdata": "usr/share/zoneinfo/Etc/UTC",
}
ALL_PACKAGES = ["libyaml-dev", "libcurl4-openssl-dev", "libsqlite3-dev", "pkg-config", "python3", "tzdata"]
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
    "apt-get": 'exit "${STUB_APT_EXIT:-0}"',
}


class Machine:
    """A temporary fresh machine: a header root, a PATH of stand-ins and a log of their calls."""

    def __init__(self, present=(), root=False, sudo=True, sudo_password=False, apt=True, system="Linux"):
        self.tmp = tempfile.TemporaryDirectory()
        self.sysroot = os.path.join(self.tmp.name, "sysroot")
        self.bin = os.path.join(self.tmp.name, "bin")
        self.log = os.path.join(self.tmp.name, "calls.log")
        os.makedirs(self.sysroot)
        os.makedirs(self.bin)
        for package, header in HEADERS.items():
            if package in present:
                path = os.path.join(self.sysroot, header)
                os.makedirs(os.path.dirname(path), exist_ok=True)
                open(path, "w").close()
        stubs = ["id", "swift"] + (["sudo"] if sudo else []) + (["apt-get"] if apt else [])
        stubs += [tool for tool in ("pkg-config", "python3") if tool in present]
        for name in stubs:
            self.stub(name, BODIES.get(name, ""))
        for tool in ("bash", "env", "dirname", "find"):
            os.symlink(shutil.which(tool), os.path.join(self.bin, tool))
        self.environment = {
            "PATH": self.bin, "STUB_LOG": self.log, "STUB_UID": "0" if root else "1000",
            "STUB_SUDO_PASSWORD": "1" if sudo_password else "", "GITBAY_DEPS_ROOT": self.sysroot,
            "GITBAY_DEPS_OS": system,
            # Scratch files of the scripts stay in the machine's folder, which goes with it.
            "TMPDIR": self.tmp.name,
        }

    def stub(self, name, body):
        path = os.path.join(self.bin, name)
        with open(path, "w") as f:
            f.write(STUB % {"name": name, "body": body})
        os.chmod(path, 0o755)

    def run(self, script, *arguments):
        """Runs a script of Scripts/ with bash; returns the finished process."""
        return subprocess.run(["/bin/bash", os.path.join(ROOT, "Scripts", script), *arguments],
                              env=self.environment, capture_output=True, text=True, cwd=self.tmp.name)

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
        machine = self.machine(present=("libyaml-dev", "pkg-config", "tzdata"), root=True)
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
        machine = self.machine(present=("libyaml-dev", "libsqlite3-dev", "pkg-config", "python3", "tzdata"))
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
                machine = self.machine(present=("libyaml-dev", "pkg-config", "python3", "tzdata"), **options)
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
        machine = self.machine(present=("libyaml-dev", "libcurl4-openssl-dev", "pkg-config", "python3", "tzdata"),
                               root=True)
        machine.environment["STUB_APT_EXIT"] = "100"
        result = machine.run("install-deps.sh")
        self.assertEqual(result.returncode, 1)
        self.assertEqual(machine.calls("apt-get"), ["apt-get update"])
        self.assertIn("apt-get update failed (exit 100)", result.stderr.splitlines()[-1])

    def test_without_apt_get_it_names_the_packages(self):
        machine = self.machine(present=("libyaml-dev", "libcurl4-openssl-dev", "libsqlite3-dev", "tzdata"), root=True,
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

    def test_macos_is_only_advised_to_use_homebrew(self):
        machine = self.machine(root=True, system="Darwin")
        result = machine.run("install-deps.sh")
        self.assertEqual(result.returncode, 1)
        self.assertEqual(machine.calls(), [])
        self.assertIn("brew install libyaml pkgconf", result.stderr)


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
            "apt-get install -y libyaml-dev libcurl4-openssl-dev libsqlite3-dev",
            "swift run gitbay-bot run --snapshot examples/demo-forge.json --format json",
        ])

    def test_the_test_command_installs_before_anything_else(self):
        machine = self.machine()
        result = machine.run("test.sh")
        self.assertEqual(result.returncode, 0, result.stderr)
        calls = machine.calls("apt-get", "swift", "python3")
        self.assertEqual(calls[:2], ["apt-get update", "apt-get install -y libyaml-dev libcurl4-openssl-dev libsqlite3-dev"])
        self.assertTrue(calls[2].startswith("swift format lint"), calls)
        # The Python tests run beside the Swift build, a process per module.
        self.assertIn("python3 -m unittest discover -s Tests/Scripts -p test_install_deps.py", calls)
        self.assertIn("python3 -m unittest discover -s Tests/Simulator -p test_gitbay_sim.py", calls)
        self.assertEqual(machine.calls("swift")[-2:], ["swift build --build-tests -Xswiftc -warnings-as-errors",
                                                      "swift test --skip-build --parallel"])

    def test_a_failed_install_stops_the_demo_before_the_build(self):
        machine = self.machine()
        machine.environment["STUB_APT_EXIT"] = "100"
        result = machine.run("demo.sh")
        self.assertEqual(result.returncode, 1)
        self.assertEqual(machine.calls("swift"), [])


if __name__ == "__main__":
    unittest.main()
