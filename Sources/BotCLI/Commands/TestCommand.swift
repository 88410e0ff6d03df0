import ArgumentParsing
import Foundation
import RuleEngine

/// `gitbay-bot test [PATH]`: rule tests, so users pin what their rules do on a known forge the way
/// the bot's own suite pins the shipped rules.
struct TestCommand: BotCommand {
    static let spec = CommandSpec(
        name: "test",
        abstract: "Run rule tests: expected plans on forge files.",
        discussion: """
            Each test file (*.yml or *.yaml; docs/commands/test.md) names a forge-state file, the rule \
            files or folders, and the plan entries expected: rule, item and pending actions. A test \
            passes when the plan's pending entries are exactly those, in any order; otherwise it prints \
            what is missing, unexpected or different. PATH is a folder of tests or one test file \
            (default: tests/ if it exists, else rule-tests/). Exits 0 when every test passes, 1 when \
            any fails, 78 when a test file or its rules are invalid. Reads no server.
            """,
        positionals: [path]
    )

    static let path = PositionalSpec("path", help: "A folder of test files, or one test file.", optional: true)

    let console: any Console
    let registry: PluginRegistry
    /// The folder or file given, if any.
    let path: String?

    init(_ invocation: Invocation, context: CommandContext) {
        console = context.console
        registry = context.registry
        path = invocation.positional(Self.path.name)
    }

    func run() throws(CommandFailure) -> BotExitCode {
        let tests = try testFiles()
        let runner = RuleTestRunner(registry: registry)
        var passed = 0
        var failed = 0
        var invalid = 0
        for test in tests {
            switch runner.run(path: test.path) {
            case .passed:
                passed += 1
                console.write("ok   \(test.name)\n", to: .output)
            case .failed(let difference):
                failed += 1
                console.write("FAIL \(test.name)\n", to: .output)
                console.write(difference.lines.map { "  \($0)\n" }.joined(), to: .output)
            case .invalid(let diagnostics):
                invalid += 1
                console.write("ERR  \(test.name)\n", to: .output)
                console.write(diagnostics.map { $0 + "\n" }.joined(), to: .error)
            }
        }
        var summary = "\(tests.count) test\(tests.count == 1 ? "" : "s"): \(passed) passed, \(failed) failed"
        if invalid > 0 { summary += ", \(invalid) invalid" }
        console.write(summary + "\n", to: .output)
        return invalid > 0 ? .invalidRules : failed > 0 ? .failure : .ok
    }

    /// The test files, named for display relative to the folder they were found in.
    private func testFiles() throws(CommandFailure) -> [(path: String, name: String)] {
        let manager = FileManager.default
        let path =
            self.path ?? (manager.fileExists(atPath: "tests") ? "tests" : "rule-tests")
        var isDirectory: ObjCBool = false
        guard manager.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw CommandFailure("no tests at \(path); pass a folder of test files or one test file", code: .usage)
        }
        guard isDirectory.boolValue else { return [(path, path)] }
        let names: [String]
        do {
            names = try manager.contentsOfDirectory(atPath: path)
                .filter { ($0.hasSuffix(".yml") || $0.hasSuffix(".yaml")) && !$0.hasPrefix(".") }.sorted()
        } catch {
            throw CommandFailure("cannot list \(path): \(error.localizedDescription)", code: .usage)
        }
        guard !names.isEmpty else {
            throw CommandFailure("no test files (*.yml, *.yaml) in \(path)", code: .usage)
        }
        return names.map { ((path as NSString).appendingPathComponent($0), $0) }
    }
}
