import ArgumentParsing
import BotCLI
import Foundation
import GitbayClient
import GitbayKit
import GitbayTestSupport
import Synchronization

/// `gitbay-bench reaction`: how long `gitbay-bot watch` takes to answer a person, at gitbay's pace.
///
/// The real command runs in this process (the shipped rules over `repo:*`, applying, with its state
/// database and its default interval, full-pass period and pacing) against the simulator at time
/// scale 1 with gitbay's limits (120 requests a minute per account, a tenth of them writes) and the
/// soak's faults a little more often (about 11% of requests), while ``ForgeActivity`` tries one
/// thing a second as another account. Person actions come from the simulator's journal (their
/// writes, with the simulator's time) and, for pushes, which the journal does not see, from this
/// process's clock set to the simulator's. Each write of the bot is paired with the newest earlier
/// person action on the same item of a kind that makes the rule behind that write act: a comment or
/// a `stale` label for `unmark-stale`'s label removal; a removed `stale`, `pinned` or `security`
/// label or a reopening for `mark-stale` and `close-stale`; a draft of the merge request or a merge
/// in its repository for `ready-when-stack-lands`; and for `cancel-superseded`, the push that made
/// the first newer build of the cancelled build's branch. The latency is the time from that action
/// to the bot's write; writes with no such action in the run (the first pass's backlog) are not
/// counted. Pairing with the newest cause gives the shorter figure when several people acted before
/// the bot answered; the earliest cause since the bot's last write to the item gives the longer
/// one, and both are reported; `--show-pairs` prints each pair on stderr. With `--webhooks` a hook
/// on every repository posts each event to the watcher (`--listen`, `--webhook-secret-file`), as
/// gitbay does on its 2 s tick. Counts and times are from one run.
enum ReactionBenchmark {
    static let summary =
        "watch at gitbay's real pace with faults and a person acting: event-to-reaction latency"

    static func run(_ arguments: [String]) async throws {
        var seconds = 120.0
        var drain = 60.0
        var repos = 3
        var showPairs = false
        var webhooks = false
        var words = arguments[...]
        while let word = words.popFirst() {
            switch word {
            case "--seconds": seconds = Double(words.popFirst() ?? "") ?? seconds
            case "--drain": drain = Double(words.popFirst() ?? "") ?? drain
            case "--repos": repos = Int(words.popFirst() ?? "") ?? repos
            case "--show-pairs": showPairs = true
            case "--webhooks": webhooks = true
            default:
                print(
                    "usage: gitbay-bench reaction [--seconds 120] [--drain 60] [--repos 3] [--show-pairs] [--webhooks]")
                return
            }
        }
        BenchRow.report(
            try await measure(seconds: seconds, drain: drain, repos: repos, showPairs: showPairs, webhooks: webhooks))
    }

    /// The watcher's pass lines (`--format json`), kept.
    private final class Passes: Console {
        let lines = Mutex("")
        func write(_ text: String, to stream: StandardStream) {
            if stream == .output { lines.withLock { $0 += text } }
        }
        func isTerminal(_ stream: StandardStream) -> Bool { false }

        /// Each pass line's object.
        var objects: [[String: Any]] {
            lines.withLock { $0 }.split(separator: "\n").compactMap {
                try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
            }
        }
    }

    /// One write of a person or of the bot, at the simulator's time.
    struct Write {
        var at: Date
        var argv: [String]

        /// `owner/name#12` for an issue, `owner/name!3` for a merge request, `owner/name/builds/7`.
        var item: String? {
            guard argv.count >= 4 else { return nil }
            switch argv[0] {
            case "issue": return "\(argv[2])#\(argv[3])"
            case "mr": return "\(argv[2])!\(argv[3])"
            case "build": return "\(argv[2])/builds/\(argv[3])"
            default: return nil
            }
        }
        var repository: String { argv.count > 2 ? argv[2] : "" }
    }

    /// A push by the person, at the simulator's time.
    struct Push {
        var at: Date
        var repository: String
    }

    private static func measure(
        seconds: Double, drain: Double, repos: Int, showPairs: Bool, webhooks: Bool
    ) async throws -> [BenchRow] {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("gitbay-bench-reaction-\(UUID()).json")
        let state = FileManager.default.temporaryDirectory.appendingPathComponent("gitbay-bench-reaction-\(UUID())")
        defer {
            try? FileManager.default.removeItem(at: file)
            try? FileManager.default.removeItem(at: state)
        }
        try await ForgeGenerator.write(to: file, repos: repos, issues: 40, mergeRequests: 12, builds: 16, seed: 9)
        let options =
            ["--clock", "running", "--time-scale", "1", "--api-rate", "120", "--write-rate", "12"]
            + ForgeActivity.simulatorOptions + (webhooks ? ["--webhook-allow-local"] : [])
        var activity = try ForgeActivity(stateFile: file, seed: 9)
        return try await SimulatorProcess.run(stateFile: file, options: options) { simulator in
            try await simulator.control(
                "{\"faults\": [\"503,rate=0.04\", \"429,rate=0.03,retry_after=1\", \"reset,rate=0.03\", "
                    + "\"reset-after,rate=0.04,method=POST\"]}")
            let offset = try await clockOffset(simulator)
            let passes = Passes()
            let control = CommandControl()
            let arguments =
                [
                    "watch", ShippedRules.folder.path, "--scope", "repo:*", "--format", "json", "--state-dir",
                    state.path, "--url", simulator.baseURL.absoluteString,
                ] + (webhooks ? try await BenchHooks.hookEveryRepository(simulator, state: state) : [])
            let watcher = Task {
                await BotCLI.run(
                    arguments, environment: ["GITBAY_TOKEN": simulator.token, "HOME": state.path], console: passes,
                    control: control)
            }
            var pushes: [Push] = []
            var tries = 0
            let start = ContinuousClock.now
            while ContinuousClock.now < start + .seconds(seconds) {
                let tick = ContinuousClock.now
                let at = Date().addingTimeInterval(offset)
                let changed = try await activity.act(1, on: simulator)
                tries += 1
                pushes += changed.filter { $0.hasSuffix("/builds") }.map {
                    Push(at: at, repository: String($0.dropLast("/builds".count)))
                }
                try await Task.sleep(until: tick + .seconds(1))
            }
            // People stop; the bot goes on for a while to answer what is still queued.
            try await Task.sleep(for: .seconds(drain))
            // As systemd would stop it: the entry point records SIGTERM and cancels the command.
            control.recordStop(by: SIGTERM)
            watcher.cancel()
            let code = await watcher.value
            let forge = try await simulator.forge()
            let stats = try await simulator.stats()
            let me = forge["me"] as? String ?? ""
            var person: [Write] = []
            var bot: [Write] = []
            for entry in try simulator.journalEntries() where entry["applied"] as? Bool == true {
                guard let at = (entry["at"] as? String).flatMap(date) else { continue }
                let write = Write(at: at, argv: entry["argv"] as? [String] ?? [])
                switch entry["user"] as? String {
                case ForgeActivity.person: person.append(write)
                case me: bot.append(write)
                default: break
                }
            }
            let builds = buildsByRepository(forge)
            let newest = pairs(bot: bot, person: person, pushes: pushes, builds: builds, earliest: false)
            let earliest = pairs(bot: bot, person: person, pushes: pushes, builds: builds, earliest: true)
            if showPairs {
                for pair in newest {
                    FileHandle.standardError.write(
                        Data((String(format: "%6.1f s  ", pair.seconds) + "\(pair.write)  ←  \(pair.cause)\n").utf8))
                }
            }
            let lines = passes.objects
            let kinds = ["full", "events", "idle"].map { kind in
                let times = lines.filter { $0["pass"] as? String == kind }.compactMap {
                    ($0["seconds"] as? NSNumber)?.doubleValue
                }
                return "\(times.count) \(kind) (longest \(Int(times.max() ?? 0)) s)"
            }
            let requests = (stats["requests"] as? NSNumber)?.intValue ?? 0
            let faults = ((stats["faults"] as? [String: Any]) ?? [:]).values.compactMap { ($0 as? NSNumber)?.intValue }
                .reduce(0, +)
            let size =
                (webhooks ? "webhooks, " : "")
                + "\(repos) repos, \(Int(seconds)) s + \(Int(drain)) s, \(tries) tries (\(person.count) writes "
                + "and \(pushes.count) pushes landed), \(faults) of \(requests) requests faulted, exit \(code)"
            return [
                row(size, "event → bot's write, newest cause", newest.map(\.seconds), of: bot.count),
                row(
                    size, "event → bot's write, earliest cause since its last write", earliest.map(\.seconds),
                    of: bot.count),
                BenchRow(
                    name: "reaction", size: size, measure: "passes by kind, with the longest of each",
                    value: "\(lines.count): \(kinds.joined(separator: ", "))",
                    target: "(reported)", verdict: "—"),
            ]
        }
    }

    /// The row of one set of latencies: count, median, 90th percentile and worst.
    private static func row(_ size: String, _ measure: String, _ values: [Double], of writes: Int) -> BenchRow {
        let sorted = values.sorted()
        func rank(_ share: Double) -> Double {
            sorted.isEmpty ? 0 : sorted[max(0, Int((share * Double(sorted.count)).rounded(.up)) - 1)]
        }
        return BenchRow(
            name: "reaction", size: size, measure: measure + ": count (of the bot's writes), median, p90, worst",
            value: String(
                format: "%d (of %d), %.0f s, %.0f s, %.0f s", sorted.count, writes, rank(0.5), rank(0.9),
                sorted.last ?? 0),
            target: "(reported)", verdict: "—")
    }

    /// The simulator's clock minus this process's, from the `now` of a forge dump taken between two
    /// readings of this process's clock.
    private static func clockOffset(_ simulator: SimulatorProcess) async throws -> TimeInterval {
        let before = Date()
        let forge = try await simulator.forge()
        let after = Date()
        guard let now = (forge["now"] as? String).flatMap(date) else {
            throw StateBenchmark.WrongAnswer(description: "the simulator's dump has no now")
        }
        return now.timeIntervalSince(before) - after.timeIntervalSince(before) / 2
    }

    /// A timestamp of the simulator's, with or without milliseconds.
    private static func date(_ text: String) -> Date? {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        if let date = formatter.date(from: text) { return date }
        formatter.formatOptions = [.withInternetDateTime]
        return formatter.date(from: text)
    }

    /// A build as the forge holds it at the end.
    struct Build {
        var ref: String
        var sha: String
        var created: Date
    }

    /// Each repository's builds at the end, by number.
    private static func buildsByRepository(_ forge: [String: Any]) -> [String: [Int: Build]] {
        var result: [String: [Int: Build]] = [:]
        for repository in forge["repos"] as? [[String: Any]] ?? [] {
            let path = repository["path"] as? String ?? ""
            for build in repository["builds"] as? [[String: Any]] ?? [] {
                guard let number = build["number"] as? Int, let ref = build["ref"] as? String,
                    let sha = build["sha"] as? String, let created = (build["created_at"] as? String).flatMap(date)
                else { continue }
                result[path, default: [:]][number] = Build(ref: ref, sha: sha, created: created)
            }
        }
        return result
    }

    /// Whether the person's write `cause` makes a rule write `effect` (both on the same repository).
    static func causes(_ cause: Write, _ effect: Write) -> Bool {
        let said = cause.argv
        let done = effect.argv
        guard said.count >= 4, done.count >= 4 else { return false }
        switch (done[0], said[0]) {
        case ("issue", "issue"):
            guard cause.item == effect.item else { return false }
            if done[1] == "label" && done.suffix(2) == ["--remove", "stale"] {
                return said[1] == "comment" || (said[1] == "label" && said.suffix(2) == ["--add", "stale"])
            }
            let unguarded = ["stale", "pinned", "security"].contains { said.suffix(2) == ["--remove", $0] }
            return said[1] == "reopen" || (said[1] == "label" && unguarded)
        case ("mr", "mr"):
            return said[1] == "merge" || (said[1] == "draft" && cause.item == effect.item)
        default:
            return false
        }
    }

    /// One bot write answering a person: how long after, and both sides, for `--show-pairs`.
    struct Pair {
        var seconds: Double
        var cause: String
        var write: String
    }

    /// Each bot write that follows a person action which makes it, paired with the newest such
    /// action before it, or with `earliest`, the earliest since the bot's last write to the item.
    private static func pairs(
        bot: [Write], person: [Write], pushes: [Push], builds: [String: [Int: Build]], earliest: Bool
    ) -> [Pair] {
        var pairs: [Pair] = []
        var last: [String: Date] = [:]
        for write in bot {
            guard let item = write.item else { continue }
            let since = earliest ? last[item] ?? .distantPast : .distantPast
            last[item] = write.at
            var cause: (at: Date, text: String)?
            if write.argv[0] == "build", let number = Int(write.argv[3]),
                let repository = builds[write.repository], let cancelled = repository[number]
            {
                // The push that made the first newer build of the same branch, of another commit.
                let newer = repository.filter {
                    $0.key > number && $0.value.ref == cancelled.ref && $0.value.sha != cancelled.sha
                }
                if let made = newer.min(by: { $0.key < $1.key })?.value.created {
                    cause = pushes.filter {
                        $0.repository == write.repository && $0.at < made.addingTimeInterval(1)
                            && $0.at > made.addingTimeInterval(-1)
                    }.map { (at: $0.at, text: "push to \(cancelled.ref) of \($0.repository)") }.min { $0.at < $1.at }
                }
            } else {
                let candidates = person.filter {
                    $0.at <= write.at && $0.at > since && $0.repository == write.repository && causes($0, write)
                }.map { (at: $0.at, text: $0.argv.joined(separator: " ")) }
                cause = earliest ? candidates.min { $0.at < $1.at } : candidates.max { $0.at < $1.at }
            }
            if let cause, cause.at <= write.at {
                pairs.append(
                    Pair(
                        seconds: write.at.timeIntervalSince(cause.at), cause: cause.text,
                        write: write.argv.joined(separator: " ")))
            }
        }
        return pairs
    }
}
