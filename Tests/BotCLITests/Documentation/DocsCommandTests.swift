import Foundation
import GitbayTestSupport
import Testing

private let root = SimulatorProcess.repositoryRoot
private let demo = root.appendingPathComponent("examples/demo-forge.json")
private let now = "2026-11-29T12:00:00.000Z"

/// The documentation pages whose fenced code blocks are searched for commands.
private let pages: [String] = {
    let folders = ["docs", "docs/commands"]
    let found = folders.flatMap { folder in
        ((try? FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent(folder).path)) ?? [])
            .filter { $0.hasSuffix(".md") }.map { "\(folder)/\($0)" }
    }
    return ["README.md"] + found.sorted()
}()

/// The command lines the docs show that are not run, each with why: a new one fails the test until it is
/// either runnable or listed here.
private let skipped: [String: String] = [
    "gitbay-bot plan of snapshot:examples/demo-forge.json as triage-bot, evaluated at 2026-11-29T12:00:00.000Z":
        "the first line of plan's text output, not a command",
    "gitbay-bot snapshot --scope <query> [--all-states] -o <file>":
        "synopsis: <query>, <file> and the [ ] are placeholders",
    "gitbay-bot test [<path>]": "synopsis: <path> and the [ ] are placeholders",
    "gitbay-bot watch rules/ --listen 127.0.0.1:9464 --webhook-secret-file /etc/gitbay-bot/webhook-secret":
        "watch runs until it is stopped; WebhookJourneyTests runs it so against the simulator",
]

/// Why a documented line is not run, or nil when the test runs it.
///
/// `gitbay-bench` lines are skipped by program: the benchmark target runs them itself, for minutes.
private func skipReason(_ command: DocumentedCommand) -> String? {
    skipped[command.text] ?? (command.command.hasPrefix("gitbay-bench") ? "a benchmark, run by gitbay-bench" : nil)
}

/// The values the shell variables of the docs stand for: items that exist in the demo forge.
private let variables = ["GITBAY_REPO": "krz/gitbay", "PLAN_MR": "krz/gitbay!51"]

/// The subcommands that read the forge, so take `--url`, `--config` and a token.
private let forgeCommands: Set = ["run", "plan", "apply", "explain", "snapshot"]

/// The options whose value is a file the command writes, redirected into the temporary folder.
private let outputOptions: Set = ["-o", "--output", "--report", "--token-file"]

private func text(_ path: String) throws -> String {
    try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
}

private func documentedCommands() throws -> [DocumentedCommand] {
    try pages.flatMap { DocumentedCommand.extract(page: $0, markdown: try text($0)) }
}

/// A command's words as the shell reads them: quotes removed, `~` and the docs' variables expanded.
private func words(_ command: String, home: URL) async throws -> [String] {
    let shell = try ChildProcess(
        "/bin/sh", ["-c", #"eval "set -- $1"; printf '%s\n' "$@""#, "sh", command],
        environment: variables.merging(["HOME": home.path, "PATH": "/usr/bin:/bin"]) { variable, _ in variable },
        directory: home.path)
    return try await shell.wait(timeout: .seconds(30)).outputText.split(separator: "\n").map(String.init)
}

/// The arguments a test runs for a documented command: outputs go to `folder`, the repository's files are
/// found from any working directory, and a forge command reaches `server` with the test's configuration.
private func arguments(_ documented: [String], folder: URL, server: URL) -> [String] {
    var result: [String] = []
    for (index, word) in documented.enumerated() {
        let option = index > 0 ? documented[index - 1] : ""
        let inRepository = root.appendingPathComponent(word)
        if outputOptions.contains(option) {
            result.append(folder.appendingPathComponent(URL(fileURLWithPath: word).lastPathComponent).path)
        } else if !word.hasPrefix("-"), !word.hasPrefix("/"), FileManager.default.fileExists(atPath: inRepository.path)
        {
            result.append(inRepository.path)
        } else if option == "--snapshot"
            || FileManager.default.fileExists(atPath: folder.appendingPathComponent(word).path)
        {
            // A file an earlier command of the page wrote (`-o plan.json`, then `apply plan.json`).
            result.append(folder.appendingPathComponent(word).path)
        } else {
            result.append(word)
        }
    }
    guard let subcommand = result.first, forgeCommands.contains(subcommand) else { return result }
    result += ["--config", folder.appendingPathComponent("gitbay-bot.yml").path, "--url", server.absoluteString]
    if ["run", "plan", "explain"].contains(subcommand), !result.contains("--snapshot"), !result.contains("--now") {
        result += ["--now", now]
    }
    return result
}

/// A temporary folder holding the configuration the recipes expect in the working directory and a token file.
private func workspace(token: String) throws -> URL {
    let folder = Scratch.url("docs-commands-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let configuration = """
        rules:
          - \(root.appendingPathComponent("rules").path)
        state_dir: \(folder.appendingPathComponent("state").path)

        """
    try configuration.write(to: folder.appendingPathComponent("gitbay-bot.yml"), atomically: true, encoding: .utf8)
    let tokenFile = folder.appendingPathComponent(".gitbay-token")
    try token.write(to: tokenFile, atomically: true, encoding: .utf8)
    try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: tokenFile.path)
    return folder
}

@Suite(.serialized) struct DocsCommandTests {
    @Test func theExtractionFindsEveryShapeOfCommandTheDocsUse() {
        let markdown = """
            ```sh
            $ swift run gitbay-bot run --snapshot examples/demo-forge.json
            GITBAY_TOKEN=gb_... gitbay-bot snapshot --scope owner:krz -o forge.json
            sudo systemctl enable --now gitbay-bot.timer
            ```
            ```
            */30 * * * * cd /srv/gitbay-bot && /usr/local/bin/gitbay-bot run --report r.md >>/var/log/b.log 2>&1
            swift run -c release gitbay-bench
            ```
            gitbay-bot plan outside a block
            """
        let found = DocumentedCommand.extract(page: "p.md", markdown: markdown)
        #expect(
            found.map(\.command) == [
                "gitbay-bot run --snapshot examples/demo-forge.json",
                "gitbay-bot snapshot --scope owner:krz -o forge.json", "gitbay-bot run --report r.md",
                "gitbay-bench",
            ])
        #expect(found.map(\.line) == [2, 3, 7, 8])
        #expect(found.map(\.environment) == [[], ["GITBAY_TOKEN"], [], []])
        #expect(found.map { skipReason($0) != nil } == [false, false, false, true])
    }

    @Test func everySkippedLineIsStillInTheDocs() throws {
        let texts = Set(try documentedCommands().map(\.text))
        for line in skipped.keys {
            #expect(texts.contains(line), "skipped but no longer documented: \(line)")
        }
    }

    @Test(arguments: pages) func everyCommandOfThePageRunsAsDocumented(page: String) async throws {
        let commands = DocumentedCommand.extract(page: page, markdown: try text(page)).filter {
            skipReason($0) == nil
        }
        guard !commands.isEmpty else { return }
        try await SimulatorProcess.run(stateFile: demo, options: ["--clock", "frozen"]) { simulator in
            let folder = try workspace(token: simulator.token)
            defer { try? FileManager.default.removeItem(at: folder) }
            for command in commands {
                let place = "\(page):\(command.line): \(command.text)"
                let run = arguments(
                    Array(try await words(command.command, home: folder).dropFirst()), folder: folder,
                    server: simulator.baseURL)
                var environment: [String: String] = [:]
                for name in command.environment {
                    #expect(name == "GITBAY_TOKEN", "no value for \(name) in \(place)")
                    environment[name] = simulator.token
                }
                if !run.contains("--token-file") { environment["GITBAY_TOKEN"] = simulator.token }
                let result = await runBot(run, environment: environment)
                #expect(result.code != 64, "not parsed: \(place)\n\(run)\n\(result.error)")
                #expect(result.code == 0, "exit \(result.code): \(place)\n\(run)\n\(result.error)")
                for (index, option) in run.enumerated().dropLast() where outputOptions.contains(option) {
                    #expect(FileManager.default.fileExists(atPath: run[index + 1]), "no \(option) file: \(place)")
                }
            }
        }
    }
}
