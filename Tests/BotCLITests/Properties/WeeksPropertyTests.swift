import Foundation
import GitbayKit
import GitbayTestSupport
import Testing

/// Four weeks of scheduled runs with people and a `bots:` account acting (issue 41).
///
/// The bot runs every 6 to 12 hours of its clock over ``WeeksForge``; between runs people and
/// ci-bot act. About a third of the runs are a `plan -o` and an `apply` with people acting in
/// between, mostly on the items the plan names, as someone reading a reviewed plan would. After
/// every run the simulator's journal, read by ``WeeksLedger``, must show two things:
/// - no notice posted twice in one episode: between two marked comments of one rule on one item
///   the bot sent, a person (not the bot, not ci-bot) acted on it: a comment, a label, a close or
///   a reopen (the feed names the person; docs/rules.md, "a person who acted since");
/// - no write to a value the last read did not see: every `status set` names the head of an open
///   merge request when it was sent, no write names an item closed or merged before it, and no
///   label is added that is there or removed that is not.
///
/// `apply` takes no `--now`: it judges times on the real clock, weeks after the forge's. That only
/// makes its re-check drop more (an `unmark-stale` whose `quiet < 60d` no longer holds); it never
/// sends what the plan did not plan.
///
/// Each seed is a different forge (its ages) and a different four weeks; a failure names the seed
/// and tells the runs and the people's steps on the items at fault. Seeds 1 to 6 catch each of
/// these breaks: `markerStands` counting ci-bot as a person (1, 2, 4, 5, 6), `apply` sending a
/// status its fresh read would not build (`Applier.moved` skipped: all six), and `apply` not
/// re-checking the conditions (1, 3, 5).
@Suite(.serialized) struct WeeksPropertyTests {
    @Test(arguments: TestDepth.seeds(quick: [1], deep: Array(1...6)) as [UInt64])
    func overWeeksNoNoticeIsPostedTwiceAndNoWriteMissesTheLastRead(seed: UInt64) async throws {
        var random = SeededGenerator(seed: seed)
        let start = try WeeksForge.state(using: &random)
        let ledger = WeeksLedger(me: WeeksForge.me, automation: [WeeksForge.me, WeeksForge.ciBot], start: start)
        let options =
            ["--clock", "frozen", "--api-rate", "1000000", "--write-rate", "1000000"]
            + WeeksForge.tokens.sorted { $0.key < $1.key }.flatMap { ["--user-token", "\($0)=\($1)"] }
        try await SimulatorProcess.run(state: start.json, options: options) { simulator in
            var weeks = try Weeks(simulator: simulator, random: random, ledger: ledger)
            var verdict = WeeksLedger.Verdict()
            while weeks.now < WeeksForge.start + 28 * WeeksForge.day && verdict.violations.isEmpty {
                try await weeks.tick()
                verdict = weeks.ledger.verdict(try simulator.journalEntries())
                #expect(
                    verdict.violations.isEmpty,
                    "seed \(seed), run \(weeks.runs): \(verdict.violations.joined(separator: "\n"))\n\(weeks.story(verdict))"
                )
            }
            // The weeks did something: notices and statuses went out, and some of what a plan
            // planned was refused on apply's fresh read, a head moved among them.
            if verdict.violations.isEmpty {
                #expect(
                    verdict.notices > 5 && verdict.statuses > 5 && weeks.moved > 0,
                    "seed \(seed): \(verdict), \(weeks.moved) moved")
            }
        }
    }
}

/// Four weeks of one seed: the clock, the people, the bot's runs, and what happened, to tell.
private struct Weeks {
    var random: SeededGenerator
    var ledger: WeeksLedger
    var now = WeeksForge.start
    var runs = 0
    /// Statuses `apply` did not send because the merge request's head moved since the plan.
    var moved = 0
    var log: [String] = []
    var nextHead = 1000
    let state = BotState()
    let simulator: SimulatorProcess
    let rules: String
    let configuration: String

    init(simulator: SimulatorProcess, random: SeededGenerator, ledger: WeeksLedger) throws {
        self.simulator = simulator
        self.random = random
        self.ledger = ledger
        (rules, configuration) = try WeeksForge.rules()
    }

    var stamp: String { GitbayTimestamp.format(now, precision: .milliseconds) }

    /// The steps and outcomes on the items the violations name, each under its run's headline.
    func story(_ verdict: WeeksLedger.Verdict) -> String {
        let items = Set(
            verdict.violations.flatMap { $0.split(separator: " ") }.filter { $0.contains("#") || $0.contains("!") }
                .map { $0.trimmingCharacters(in: .punctuationCharacters.subtracting(["#", "!"])) })
        var told: [String] = []
        var headline: String?
        for line in log {
            if line.hasPrefix("run ") {
                headline = line
            } else if items.contains(where: { line.contains($0) }) {
                if let shown = headline { told.append(shown) }
                headline = nil
                told.append(line)
            }
        }
        return told.suffix(120).joined(separator: "\n")
    }

    mutating func advance(_ seconds: Int) async throws {
        try await simulator.control("{\"advance_seconds\": \(seconds)}")
        now += TimeInterval(seconds)
    }

    /// Six to twelve hours of people acting, then a run: `run`, or `plan -o`, people, `apply`.
    mutating func tick() async throws {
        var left = Int.random(in: 6 * 3600...12 * 3600, using: &random)
        var forge = try await repositories()
        for _ in 0..<Int.random(in: 0...4, using: &random) {
            let step = Int.random(in: 60...(left / 2), using: &random)
            try await advance(step)
            left -= step
            try await act(on: forge)
        }
        try await advance(left)
        runs += 1
        let shared = ["--config", configuration, "--state-dir", state.folder]
        guard random.chance(0.35) else {
            let run = await bot(["run", rules, "--now", stamp] + shared)
            #expect(run.code == 0, "run \(runs): \(run.output)\(run.error)")
            tell("run \(runs) at \(stamp): exit \(run.code)", run.output)
            return
        }
        let plan = Scratch.url("weeks-plan-\(UUID().uuidString).json").path
        let made = await bot(["plan", rules, "-o", plan, "--now", stamp] + shared)
        #expect(made.code == 0, "run \(runs): \(made.output)\(made.error)")
        tell("run \(runs) at \(stamp): plan, then people act", made.output)
        forge = try await repositories()
        let planned = try Self.planned(plan)
        for _ in 0..<Int.random(in: 1...2, using: &random) {
            try await advance(Int.random(in: 60...900, using: &random))
            try await act(on: forge, planned: planned)
        }
        let applied = await bot(["apply", plan] + shared)
        #expect(applied.code == 0, "run \(runs): \(applied.output)\(applied.error)")
        moved += applied.output.components(separatedBy: "the item moved since the plan").count - 1
        tell("run \(runs) at \(stamp): apply: exit \(applied.code)", applied.output)
    }

    /// Logs `headline` and the outcomes a run printed, which name their items.
    mutating func tell(_ headline: String, _ output: String) {
        log.append(headline)
        log += output.split(separator: "\n").filter { $0.hasPrefix("applied: ") || $0.hasPrefix("skipped: ") }
            .map { "  \($0)" }
    }

    /// The bot's command line against the simulator, paced far above what it serves: pacing is
    /// RateLimitTests' business, and would be most of the weeks' time here.
    func bot(_ arguments: [String]) async -> (code: Int32, output: String, error: String) {
        await runBot(
            arguments + ["--url", simulator.baseURL.absoluteString, "--rate-limit", "1000000"],
            environment: ["GITBAY_TOKEN": simulator.token])
    }

    /// The repositories as the simulator holds them now, for the people's next steps to choose
    /// from: read once for the steps in a row, which may then find an item changed, as people do.
    func repositories() async throws -> [[String: Any]] {
        try await simulator.forge()["repos"] as? [[String: Any]] ?? []
    }

    /// The items a saved plan has pending actions on, as `(repository, number, merge request?)`.
    static func planned(_ file: String) throws -> [(String, Int, Bool)] {
        let plan = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: file)))
        let entries = (plan as? [String: Any])?["entries"] as? [[String: Any]] ?? []
        return entries.compactMap { entry in
            let actions = entry["actions"] as? [[String: Any]] ?? []
            guard actions.contains(where: { $0["status"] as? String == "pending" }),
                let item = entry["item"] as? [String: Any], let repository = item["repository"] as? String,
                let number = item["number"] as? Int
            else { return nil }
            return (repository, number, item["kind"] as? String == "merge_requests")
        }
    }

    /// One step by a person or by ci-bot; between a plan and its apply, mostly on an item the plan
    /// acts on, as a person reading the plan would: a push to a merge request whose status it
    /// sets, a close or a word on an issue it is about to notify.
    mutating func act(on forge: [[String: Any]], planned: [(String, Int, Bool)] = []) async throws {
        if let (repository, number, isMergeRequest) = planned.randomElement(using: &random), random.chance(0.7) {
            let roll = Int.random(in: 0..<4, using: &random)
            switch (isMergeRequest, roll) {
            case (true, 0):
                try await write(WeeksForge.ciBot, ["mr", "comment", repository, "\(number)", "--message", "CI: green"])
            case (true, _): try await push(to: number, of: repository)
            case (false, 0): try await write("alice", ["issue", "close", repository, "\(number)"])
            case (false, 1):
                try await write("gina", ["issue", "comment", repository, "\(number)", "--message", "Here."])
            case (false, 2):
                try await write(
                    WeeksForge.ciBot, ["issue", "comment", repository, "\(number)", "--message", "CI: green"])
            default: try await write("bob", ["issue", "label", repository, "\(number)", "--remove", "needs-info"])
            }
            return
        }
        let repository = WeeksForge.repositories.randomElement(using: &random) ?? ""
        let held = forge.first { $0["path"] as? String == repository } ?? [:]
        func numbers(_ key: String, _ keep: ([String: Any]) -> Bool) -> [Int] {
            (held[key] as? [[String: Any]] ?? []).filter(keep).compactMap { $0["number"] as? Int }
        }
        let openIssues = numbers("issues") { $0["state"] as? String == "open" }
        let closedIssues = numbers("issues") { $0["state"] as? String == "closed" }
        let openMergeRequests = numbers("merge_requests") { $0["state"] as? String == "open" }
        let drafts = numbers("merge_requests") { $0["state"] as? String == "open" && $0["draft"] as? Bool == true }
        let maintainer = WeeksForge.maintainers.randomElement(using: &random) ?? "alice"
        switch Int.random(in: 0..<100, using: &random) {
        case 0..<25:
            let onIssue = random.chance(0.6)
            guard let number = (onIssue ? openIssues : openMergeRequests).randomElement(using: &random) else { return }
            try await write(
                WeeksForge.ciBot,
                [onIssue ? "issue" : "mr", "comment", repository, "\(number)", "--message", "CI: green"])
        case 25..<40:
            guard let number = openIssues.randomElement(using: &random) else { return }
            let author = random.chance(0.5) ? "gina" : maintainer
            try await write(
                author, ["issue", "comment", repository, "\(number)", "--message", "A word from \(author)."])
        case 40..<58:
            let targets = drafts.isEmpty || random.chance(0.3) ? openMergeRequests : drafts
            guard let number = targets.randomElement(using: &random) else { return }
            try await push(to: number, of: repository)
        case 58..<68:
            guard let number = openIssues.randomElement(using: &random) else { return }
            let change =
                [["--add", "needs-info"], ["--remove", "needs-info"], ["--remove", "stale"], ["--add", "bug"]]
                .randomElement(using: &random) ?? []
            try await write(maintainer, ["issue", "label", repository, "\(number)"] + change)
        case 68..<76:
            guard let number = openMergeRequests.randomElement(using: &random) else { return }
            let author = random.chance(0.5) ? "hal" : maintainer
            try await write(author, ["mr", "comment", repository, "\(number)", "--message", "Review from \(author)."])
        case 76..<82:
            guard let number = [8, 9].randomElement(using: &random), openMergeRequests.contains(number) else { return }
            try await write(maintainer, ["mr", drafts.contains(number) ? "ready" : "draft", repository, "\(number)"])
        case 82..<86:
            guard let number = openMergeRequests.filter({ !drafts.contains($0) }).randomElement(using: &random)
            else { return }
            try await write(maintainer, ["mr", "merge", repository, "\(number)"])
        case 86..<93:
            guard let number = openIssues.randomElement(using: &random) else { return }
            try await write(maintainer, ["issue", "close", repository, "\(number)"])
        default:
            guard let number = closedIssues.randomElement(using: &random) else { return }
            try await write(maintainer, ["issue", "reopen", repository, "\(number)"])
        }
    }

    /// hal force-pushes a new head to merge request `number`'s branch, which the ledger learns
    /// with the journal's place: the simulator journals no push.
    mutating func push(to number: Int, of repository: String) async throws {
        let head = WeeksForge.head(nextHead)
        nextHead += 1
        let after = try simulator.journalEntries().last?["seq"] as? Int ?? 0
        try await simulator.push(head, to: "feat-\(number)", of: repository, by: "hal", forced: true)
        ledger.pushes.append(.init(afterSequence: after, item: "\(repository)!\(number)", head: head))
        log.append("hal at \(stamp): push \(repository)!\(number) \(head.suffix(4))")
    }

    /// `argv` sent as `user`; a refusal (a merge gate, a label not there) is one of the week's
    /// events like any other, and the journal keeps it unapplied.
    mutating func write(_ user: String, _ argv: [String]) async throws {
        let status = try await simulator.write(argv, token: WeeksForge.tokens[user])
        let item = WeeksLedger.item(of: argv) ?? argv.joined(separator: " ")
        log.append("\(user) at \(stamp): \(argv[1]) \(item) \(argv.dropFirst(4).joined(separator: " ")) → \(status)")
    }
}
