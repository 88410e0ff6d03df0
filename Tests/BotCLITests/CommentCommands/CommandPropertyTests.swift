import Foundation
import GitbayKit
import GitbayTestSupport
import Testing

private let root = SimulatorProcess.repositoryRoot
private let commands = root.appendingPathComponent("examples/commands").path
private let start = "2026-12-02T12:00:00.000Z"

/// People with tokens of their own: alice may write, bob (who opened everything) and dave may read.
private let tokens = [
    "alice": "gb_" + String(repeating: "a", count: 64), "bob": "gb_" + String(repeating: "b", count: 64),
    "dave": "gb_" + String(repeating: "d", count: 64),
]

/// Two issues and two merge requests by bob, whose one check is pending on a repository that
/// requires green checks, so a `/merge` waits in the bot's queue until a build passes.
private let forge = """
    {"format": "gitbay-forge-state/1", "now": "\(start)", "me": "triage-bot",
     "users": ["triage-bot", "alice", "bob", "dave"],
     "repos": [{"path": "krz/app", "default_branch": "main",
       "branches": {"main": "\(sha("1"))", "f3": "\(sha("3"))", "f4": "\(sha("4"))"},
       "access": ["triage-bot", {"user": "alice", "role": "write"}, {"user": "bob", "role": "read"},
                  {"user": "dave", "role": "read"}],
       "settings": {"require_checks": true}, "ci_jobs": ["test"],
       "labels": [{"name": "bug"}, {"name": "ui"}, {"name": "hold"}],
       "issues": [\(issue(1)), \(issue(2))],
       "merge_requests": [\(mergeRequest(3)), \(mergeRequest(4))],
       "builds": [\(build(1, of: 3)), \(build(2, of: 4))]}]}
    """

private func issue(_ number: Int) -> String {
    """
    {"number": \(number), "title": "Issue \(number)", "state": "open", "author": "bob",
     "created_at": "2026-11-30T09:00:00.000Z", "updated_at": "2026-11-30T09:00:00.000Z"}
    """
}

private func mergeRequest(_ number: Int) -> String {
    """
    {"number": \(number), "title": "Change \(number)", "state": "open", "draft": false, "author": "bob",
     "source": "f\(number)", "target_ref": "main", "head_sha": "\(sha(Character("\(number)")))",
     "checks": [{"context": "ci/test", "state": "pending", "updated_at": "2026-11-30T09:00:00.000Z"}],
     "created_at": "2026-11-30T09:00:00.000Z", "updated_at": "2026-11-30T09:00:00.000Z"}
    """
}

private func build(_ number: Int, of mergeRequest: Int) -> String {
    """
    {"number": \(number), "job": "test", "status": "pending", "sha": "\(sha(Character("\(mergeRequest)")))",
     "ref": "f\(mergeRequest)", "created_at": "2026-11-30T09:00:00Z"}
    """
}

/// Random comments (several commands, copies, slips, people who may not give them) and random
/// forge events (pushes by the author, who may not write; passing builds; server errors, lost
/// answers and a token refused halfway through a run) between runs of the shipped command
/// rules. Once the faults stop and the runs settle:
/// - every command is answered at most once by its rule (one reply carrying its marker);
/// - a comment carrying the bot's 👍 has every command done (its effect is on the forge) or
///   answered by a reply;
/// - nothing is left to do: a plan of the same rules sends nothing;
/// - a merged merge request was merged at a head a writer gave `/merge` on.
@Suite(.serialized) struct CommandPropertyTests {
    @Test(arguments: TestDepth.seeds(quick: [2, 3, 11, 17], deep: Array(1...20)) as [UInt64])
    func everyCommandIsAnsweredOnceAndNoMergeTakesAnUnseenHead(seed: UInt64) async throws {
        var scenario = Scenario(seed: seed)
        // The rate limits are gitbay's own business here (RateLimitTests); a run waiting out a
        // budget would only make the case slow.
        let options =
            ["--clock", "frozen", "--api-rate", "1000000", "--write-rate", "1000000"]
            + tokens.sorted { $0.key < $1.key }.flatMap { ["--user-token", "\($0)=\($1)"] }
        try await SimulatorProcess.run(state: forge, options: options) { simulator in
            let state = BotState()
            for _ in 0..<24 {
                try await scenario.step(simulator, state: state)
            }
            try await simulator.control("{\"faults\": []}")
            for _ in 0..<3 {
                try await scenario.advance(simulator)
                _ = await scenario.run(simulator, state: state)
            }
            let log = scenario.log.joined(separator: "\n")
            let plan = await runBot(
                against: simulator, ["plan", commands, "--format", "json", "--state-dir", state.folder],
                now: scenario.stamp)
            #expect(
                !plan.output.contains("\"status\" : \"pending\""), "seed \(seed): left to do\n\(plan.output)\n\(log)")
            try await Invariants(simulator: simulator, merges: scenario.merges).check(seed: seed, log: log)
        }
    }
}

/// What a case does, step by step, and what it must remember to judge the end.
private struct Scenario {
    var random: SeededGenerator
    var now: Date
    var log: [String] = []
    /// Each writer's `/merge`: the merge request and its head when the comment was written.
    var merges: [(number: Int, head: String)] = []
    var heads = [3: sha("3"), 4: sha("4")]
    var pendingBuilds = [1, 2]
    var nextBuild = 3
    var nextHead = 5

    init(seed: UInt64) {
        random = SeededGenerator(seed: seed)
        now = GitbayTimestamp.parse(start) ?? Date()
    }

    var stamp: String { GitbayTimestamp.format(now, precision: .milliseconds) }

    /// Thirty seconds on, for the simulator and the bot alike: nothing in a case shares a second.
    mutating func advance(_ simulator: SimulatorProcess) async throws {
        try await simulator.control("{\"advance_seconds\": 30}")
        now += 30
    }

    func run(_ simulator: SimulatorProcess, state: BotState) async -> Int32 {
        await runBot(against: simulator, ["run", commands, "--state-dir", state.folder], now: stamp).code
    }

    mutating func step(_ simulator: SimulatorProcess, state: BotState) async throws {
        try await advance(simulator)
        let roll = Int.random(in: 0..<100, using: &random)
        switch roll {
        case 0..<45: try await comment(simulator)
        case 45..<60:
            let number = [3, 4].randomElement(using: &random) ?? 3
            let head = String(format: "%040x", 0xabc000 + nextHead)
            nextHead += 1
            _ = try await simulator.pushNewHead(head, toMergeRequest: number, of: "krz/app", by: "bob")
            heads[number] = head
            pendingBuilds.append(nextBuild)
            nextBuild += 1
            log.append("push \(head.suffix(4)) to !\(number)")
        case 60..<80 where !pendingBuilds.isEmpty:
            // The newest build mostly: the one a merge request's head waits for.
            let index = Bool.random(using: &random) ? pendingBuilds.count - 1 : 0
            let build = pendingBuilds.remove(at: index)
            try await simulator.control(
                "{\"finish_build\": {\"repo\": \"krz/app\", \"number\": \(build), \"status\": \"success\"}}")
            log.append("build \(build) passes")
        case 80..<90:
            let fault =
                [
                    "500,command=issue label,times=2", "reset-after,command=mr react,times=1",
                    "reset-after,command=issue label,times=1", "401,after=4,times=1", "500,command=mr merge,times=1",
                ].randomElement(using: &random) ?? ""
            try await simulator.control("{\"faults\": [\"\(fault)\"]}")
            log.append("fault \(fault)")
        default:
            try await simulator.control("{\"faults\": []}")
            log.append("no faults")
        }
        if Bool.random(using: &random) {
            log.append("run: exit \(await run(simulator, state: state))")
        }
    }

    /// A comment of one to three lines by alice, bob or dave on one of the four items.
    mutating func comment(_ simulator: SimulatorProcess) async throws {
        let number = Int.random(in: 1...4, using: &random)
        let pool =
            number <= 2
            ? ["/label bug", "/label ui", "/lable bug", "/assign me", "Thanks!"]
            : ["/merge", "/merge", "/merge squash", "/hold", "/label bug", "/mrege", "LGTM"]
        let lines = (0..<Int.random(in: 1...3, using: &random)).compactMap { _ in pool.randomElement(using: &random) }
        let author = ["alice", "alice", "bob", "dave"].randomElement(using: &random) ?? "alice"
        let body = lines.joined(separator: "\n")
        let family = number <= 2 ? "issue" : "mr"
        let status = try await simulator.write(
            [family, "comment", "krz/app", String(number), "--message", body], token: tokens[author])
        #expect(status == 200)
        if author == "alice", number > 2, lines.contains(where: { $0.hasPrefix("/merge") }), let head = heads[number] {
            merges.append((number, head))
        }
        log.append("\(author) on \(number): \(body.replacingOccurrences(of: "\n", with: " | "))")
    }
}

/// The forge at the end of a case, judged.
private struct Invariants {
    let simulator: SimulatorProcess
    let merges: [(number: Int, head: String)]

    func check(seed: UInt64, log: String) async throws {
        let repository = try #require((try await simulator.forge()["repos"] as? [[String: Any]])?.first)
        let items =
            (repository["issues"] as? [[String: Any]] ?? []).map { (false, $0) }
            + (repository["merge_requests"] as? [[String: Any]] ?? []).map { (true, $0) }
        for (isMergeRequest, item) in items {
            let number = item["number"] as? Int ?? 0
            let comments = item["comments"] as? [[String: Any]] ?? []
            let mine = comments.filter { $0["author"] as? String == "triage-bot" }.compactMap { $0["body"] as? String }
            for comment in comments where comment["author"] as? String != "triage-bot" {
                guard let id = comment["id"] as? Int, let body = comment["body"] as? String else { continue }
                let answers = mine.filter { $0.contains(" command=\(id) -->") }
                let markers = answers.flatMap {
                    $0.components(separatedBy: "\n").filter { $0.contains(" command=\(id) -->") }
                }
                #expect(Set(markers).count == markers.count, "seed \(seed): answered twice: \(answers)\n\(log)")
                let reactions = comment["reactions"] as? [[String: Any]] ?? []
                let acknowledged = reactions.contains {
                    $0["reaction"] as? String == "+1" && ($0["users"] as? [String] ?? []).contains("triage-bot")
                }
                guard acknowledged else { continue }
                let lines = body.components(separatedBy: "\n")
                // A slip beside the command it misspells is left alone (docs/rules.md).
                for line in lines where line.hasPrefix("/") && !isSlipBesideItsCommand(line, in: lines) {
                    let done = isDone(
                        line, on: item, isMergeRequest: isMergeRequest, giver: comment["author"] as? String)
                    #expect(
                        done || !answers.isEmpty,
                        "seed \(seed): 👍 on \(number)'s comment \(id) over `\(line)`, neither done nor answered\n\(log)"
                    )
                }
            }
            if isMergeRequest, item["state"] as? String == "merged" {
                let head = item["head_sha"] as? String ?? ""
                #expect(
                    merges.contains { $0.number == number && $0.head == head },
                    "seed \(seed): !\(number) merged at \(head.prefix(6)), a head no /merge was given on\n\(log)")
            }
        }
    }

    /// Whether `line` misspells a command that another line of the comment gives.
    private func isSlipBesideItsCommand(_ line: String, in lines: [String]) -> Bool {
        let meant = ["/lable": "/label", "/mrege": "/merge"]
        guard let name = line.split(separator: " ").first, let command = meant[String(name)] else { return false }
        return lines.contains { $0.split(separator: " ").first.map(String.init) == command }
    }

    /// Whether the forge shows the effect of `line`.
    private func isDone(_ line: String, on item: [String: Any], isMergeRequest: Bool, giver: String?) -> Bool {
        let labels = item["labels"] as? [String] ?? []
        switch line {
        case "/label bug": return labels.contains("bug")
        case "/label ui": return labels.contains("ui")
        case "/hold": return labels.contains("hold")
        case "/assign me": return (item["assignees"] as? [String] ?? []).contains(giver ?? "")
        case "/merge", "/merge squash": return item["state"] as? String == "merged"
        default: return false
        }
    }
}
