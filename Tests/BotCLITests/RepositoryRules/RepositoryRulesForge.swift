import Foundation
import GitbayTestSupport

/// krz/app's own rules file on its default branch: `stale`.
let appRules = """
    rules:
      - name: stale
        on: issues
        when: [state = open, quiet > 30d]
        do: [{add-label: stale}]

    """

/// krz/app carries its own rules file (`app`'s text), krz/lib carries `lib`'s text (none by default).
///
/// Each has one open issue nobody touched for 60 days, and alice may write to both. With `merging`, krz/app has an open merge
/// request from `rules`, opened at `opened` (six hours before the forge's now by default), whose
/// head changes its file to that text.
func repositoryRulesForge(
    app: String = appRules, lib: String? = nil, merging: String? = nil, opened: String = "2026-11-29T06:00:00Z"
) -> String {
    func commit(_ digit: Character, file: String?, parent: Character? = nil) -> String {
        let files = file.map { "{\".gitbay/bot.yml\": \(jsonString($0))}" } ?? "{}"
        let parents = parent.map { "\"parents\": [\"\(sha($0))\"], " } ?? ""
        return "\"\(sha(digit))\": {\(parents)\"files\": \(files)}"
    }
    func repository(_ name: String, file: String?) -> String {
        var branches = "\"main\": \"\(sha("1"))\""
        var commits = commit("1", file: file)
        var requests = ""
        if name == "app", let merging {
            branches += ", \"rules\": \"\(sha("2"))\""
            commits += ", " + commit("2", file: merging, parent: "1")
            requests = """
                "merge_requests": [{"number": 1, "title": "rules", "state": "open", "author": "alice",
                  "source": "rules", "target_ref": "main", "head_sha": "\(sha("2"))",
                  "revisions": [{"sha": "\(sha("2"))", "base_sha": "\(sha("1"))", "created_at": "\(opened)"}],
                  "created_at": "\(opened)"}],
                """
        }
        return """
            {"path": "krz/\(name)", "default_branch": "main", "access": ["triage-bot", "alice"],
             "branches": {\(branches)}, \(requests)
             "commits": {\(commits)},
             "issues": [{"number": 1, "title": "old bug", "state": "open", "author": "alice",
                         "created_at": "2026-09-01T00:00:00Z", "updated_at": "2026-09-30T00:00:00Z"}]}
            """
    }
    return """
        {"format": "gitbay-forge-state/1", "now": "2026-11-29T12:00:00.000Z", "me": "triage-bot",
         "users": ["triage-bot", "alice"],
         "repos": [\(repository("app", file: app)), \(repository("lib", file: lib))]}
        """
}

/// The operator's rule on every repository of krz.
let operatorRules = """
    scope: owner:krz
    rules:
      - name: old
        on: issues
        when: [state = open, quiet > 30d]
        do: [{add-label: old}]

    """

/// `text` as a JSON string: its quotes, backslashes and newlines escaped.
func jsonString(_ text: String) -> String {
    var quoted = "\""
    for scalar in text.unicodeScalars {
        switch scalar {
        case "\"": quoted += "\\\""
        case "\\": quoted += "\\\\"
        case "\n": quoted += "\\n"
        default: quoted.unicodeScalars.append(scalar)
        }
    }
    return quoted + "\""
}

/// Runs `body` with the bot against ``repositoryRulesForge(lib:merging:)`` on a frozen clock, the
/// operator's rules in a folder of their own and one state directory for all its runs.
func withRepositoryRulesForge(
    app: String = appRules, lib: String? = nil, merging: String? = nil, opened: String = "2026-11-29T06:00:00Z",
    _ body: (
        _ bot: ([String]) async -> (code: Int32, output: String, error: String), _ simulator: SimulatorProcess
    ) async throws -> Void
) async throws {
    let folder = Scratch.url("repository-rules-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    try operatorRules.write(to: folder.appendingPathComponent("rules.yml"), atomically: true, encoding: .utf8)
    let state = BotState()
    try await SimulatorProcess.run(
        state: repositoryRulesForge(app: app, lib: lib, merging: merging, opened: opened),
        options: ["--clock", "frozen", "--api-rate", "6000", "--write-rate", "6000"]
    ) { simulator in
        try await body(
            { arguments in
                await runBot(
                    against: simulator,
                    arguments + [folder.appendingPathComponent("rules.yml").path, "--state-dir", state.folder])
            }, simulator)
    }
}
