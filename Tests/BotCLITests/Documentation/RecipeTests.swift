import BuiltinPlugins
import Foundation
import GitbayTestSupport
import Testing
import YAML

@testable import BotCLI

private let examples = SimulatorProcess.repositoryRoot.appendingPathComponent("examples")

private func text(_ path: String) throws -> String {
    try String(contentsOf: examples.appendingPathComponent(path), encoding: .utf8)
}

/// The recipes of docs/recipes.md: each example file is checked the way its tool would read it.
@Suite struct RecipeTests {
    @Test func theCrontabLineHasFiveTimeFieldsAndRunsTheBot() throws {
        let lines = try text("cron/gitbay-bot.crontab").split(separator: "\n").filter {
            !$0.hasPrefix("#") && !$0.allSatisfy(\.isWhitespace)
        }
        #expect(lines.count == 1)
        let fields = try #require(lines.first).split(separator: " ", maxSplits: 5, omittingEmptySubsequences: true)
        #expect(fields.count == 6)
        let ranges = [0...59, 0...23, 1...31, 1...12, 0...7]
        for (field, range) in zip(fields.prefix(5), ranges) {
            for part in field.split(separator: ",") {
                let base = part.split(separator: "/").first.map(String.init) ?? ""
                let step = part.split(separator: "/").dropFirst().first
                #expect(step.map { Int($0) != nil } ?? true, "\(field)")
                if base == "*" { continue }
                let bounds = base.split(separator: "-").compactMap { Int($0) }
                #expect(!bounds.isEmpty && bounds.allSatisfy(range.contains), "\(field)")
            }
        }
        #expect(fields[5].contains("gitbay-bot run"))
    }

    /// The organisation recipe: the base and a repository's file extending it check clean under
    /// the operator's configuration, as the repository's CI would check them.
    @Test func theOrganisationsBaseAndARepositorysFileCheckClean() async throws {
        let folder = examples.appendingPathComponent("organisation")
        let configuration = folder.appendingPathComponent("gitbay-bot.yml").path
        let repository = await runBot([
            "check", "--repository", "krz/app", "--base", "krz/.gitbay=\(folder.path)", "--config", configuration,
            folder.appendingPathComponent("repository.yml").path,
        ])
        #expect(repository.code == 0, "\(repository.error)")
        #expect(repository.output == "1 file, 2 rules: no problems found\n")
        let base = await runBot([
            "check", "--repository", "krz/.gitbay", "--config", configuration,
            folder.appendingPathComponent("base.yml").path,
        ])
        #expect(base.code == 0, "\(base.error)")
        // The operator keeps `close`: a repository's rule using it is refused.
        let closing = Scratch.url("organisation-close-\(UUID().uuidString).yml")
        try "rules:\n  - name: shut\n    on: issues\n    do: [close]\n".write(
            to: closing, atomically: true, encoding: .utf8)
        let refused = await runBot(["check", "--repository", "krz/app", "--config", configuration, closing.path])
        #expect(refused.code == 78)
        #expect(refused.error.contains("the operator forbids 'close' in repository rules"), "\(refused.error)")
    }

    @Test func theSystemdUnitsVerify() async throws {
        let service = try text("systemd/gitbay-bot.service")
        let timer = try text("systemd/gitbay-bot.timer")
        let watch = try text("systemd/gitbay-bot-watch.service")
        #expect(service.contains("Type=oneshot"))
        #expect(service.contains("ExecStart=/usr/local/bin/gitbay-bot run"))
        #expect(timer.contains("OnCalendar="))
        #expect(watch.contains("Type=notify") && watch.contains("Restart=on-failure"))
        #expect(watch.contains("WatchdogSec=") && watch.contains("NotifyAccess=main"))
        #expect(watch.contains("--listen 127.0.0.1:"))
        #expect(watch.contains("ExecStart=/usr/local/bin/gitbay-bot watch"))
        #expect(watch.contains("ExecReload=/bin/kill -HUP $MAINPID"))
        // Scripts/install-deps.sh --tests installs systemd's tools where they are missing.
        let analyze = "/usr/bin/systemd-analyze"
        try #require(
            FileManager.default.isExecutableFile(atPath: analyze),
            "systemd-analyze is not installed: run Scripts/install-deps.sh --tests")
        let folder = Scratch.url("units-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        // The binary's install path differs per machine; verify everything else about the units.
        try service.replacingOccurrences(of: "/usr/local/bin/gitbay-bot", with: "/bin/true")
            .write(to: folder.appendingPathComponent("gitbay-bot.service"), atomically: true, encoding: .utf8)
        try timer.write(to: folder.appendingPathComponent("gitbay-bot.timer"), atomically: true, encoding: .utf8)
        try watch.replacingOccurrences(of: "/usr/local/bin/gitbay-bot", with: "/bin/true")
            .write(to: folder.appendingPathComponent("gitbay-bot-watch.service"), atomically: true, encoding: .utf8)
        let verify = try ChildProcess(
            analyze,
            [
                "verify", folder.appendingPathComponent("gitbay-bot.service").path,
                folder.appendingPathComponent("gitbay-bot.timer").path,
                folder.appendingPathComponent("gitbay-bot-watch.service").path,
            ], environment: ProcessInfo.processInfo.environment, output: .discard)
        let ended = try await verify.wait(timeout: .seconds(60))
        #expect(ended.status == 0, "\(ended.errorText)")
    }

    /// Every exit code README documents, checked against what each shipped unit does with it:
    /// the timer's runs count as successes only what the next run finishes (incomplete,
    /// rate-limited, stopped by systemd), the watcher only its stop, so that a mistyped URL (69),
    /// a refused token (1) or a broken state database (74) fails the unit and alerts someone.
    @Test func eachDocumentedExitCodeIsAFailureOfTheUnitsUnlessTheNextRunFinishesIt() throws {
        let documented = try documentedExitCodes()
        #expect(Set(documented) == Set(BotExitCode.allCases.map(\.rawValue)), "README's table and BotExitCode differ")
        let units: [(file: String, successes: Set<Int32>)] = [
            ("systemd/gitbay-bot.service", [0, 3, 75, 143]), ("systemd/gitbay-bot-watch.service", [0, 143]),
        ]
        for unit in units {
            let successes = try successExitStatus(text(unit.file)).union([0])
            for code in documented {
                #expect(
                    successes.contains(code) == unit.successes.contains(code),
                    "\(unit.file) treats exit \(code) as a \(successes.contains(code) ? "success" : "failure")")
            }
        }
    }

    @Test func theCIFileSchedulesARunWithAReportAndPreviewsPlans() throws {
        let jobs = try YAMLDecoder().decode(CIFile.self, from: Array(try text("gitbay-ci/ci.yml").utf8), file: "ci.yml")
            .jobs
        let scheduled = try #require(jobs["triage"])
        let schedule = try #require(scheduled.schedule)
        #expect(schedule.split(separator: " ").count == 5)
        #expect(scheduled.steps.contains { $0.hasPrefix("gitbay-bot run") && $0.contains("--report") })
        let preview = try #require(jobs["rules-preview"])
        #expect(preview.schedule == nil)
        #expect(preview.steps.contains { $0.hasPrefix("gitbay-bot check") })
        #expect(preview.steps.contains { $0.hasPrefix("gitbay-bot plan --format markdown") })
    }

    @Test func theExampleConfigurationIsValid() throws {
        let configuration = try ConfigurationLoader.decode(
            Array(try text("gitbay-bot.yml").utf8), file: "gitbay-bot.yml", registry: BuiltinPlugins.registry)
        #expect(configuration.url?.value == "https://gitbay.example")
        #expect(configuration.tripwire?.share?.value == 0.25)
    }
}

/// The codes of README's exit-code table, in its order ("129, 130, 143" is three).
private func documentedExitCodes() throws -> [Int32] {
    let readme = try String(
        contentsOf: SimulatorProcess.repositoryRoot.appendingPathComponent("README.md"), encoding: .utf8)
    let section = try #require(readme.components(separatedBy: "## Exit codes\n").dropFirst().first)
    let rows = section.split(separator: "\n").prefix { $0.hasPrefix("|") }.dropFirst(2)
    return try rows.flatMap { row in
        let cell = try #require(row.split(separator: "|").first).trimmingCharacters(in: .whitespaces)
        return try cell.split(separator: ",").map { try #require(Int32($0.trimmingCharacters(in: .whitespaces))) }
    }
}

/// The exit codes a unit's `SuccessExitStatus=` lines name.
private func successExitStatus(_ unit: String) -> Set<Int32> {
    let prefix = "SuccessExitStatus="
    return Set(
        unit.split(separator: "\n").filter { $0.hasPrefix(prefix) }.flatMap {
            $0.dropFirst(prefix.count).split(separator: " ").compactMap { Int32($0) }
        })
}

/// A gitbay `.gitbay/ci.yml`, as far as the recipes use it.
private struct CIFile: Decodable {
    /// One job: its cron (scheduled jobs only), its path filter and its shell steps.
    struct Job: Decodable {
        var schedule: String?
        var paths: [String]?
        var steps: [String]
    }

    var jobs: [String: Job]
}
