import Foundation
import GitbayTestSupport
import RuleEngine
import StateDatabase

/// `gitbay-bench state`: the state database at the size a busy bot reaches, 100,000 journal
/// entries, timing what every run and every `history` does.
///
/// Each figure is the median and 90th percentile of 50 repetitions; the verdict goes by the 90th.
/// A durable commit costs what the disk takes to flush, which on a shared machine varies by an
/// order of magnitude over a day, so the commit row also gives it as a multiple of a 4 KiB write
/// plus `fsync` on the same disk, timed the same way.
enum StateBenchmark {
    static let summary = "100k journal entries in SQLite: open + unfinished, history of an item, durable commit"
    static let repetitions = 50
    /// Seconds for open + ``SQLiteStateStore/unfinishedActions()``.
    static let openTarget = 0.050
    /// Seconds for opening for reading + the history of one item.
    static let historyTarget = 0.020
    /// Seconds for recording an intent and its result, each durably.
    static let commitTarget = 0.005

    static func run(_ arguments: [String]) async throws {
        var count = 100_000
        var words = arguments[...]
        while let word = words.popFirst() {
            switch word {
            case "--entries": count = Int(words.popFirst() ?? "") ?? count
            default:
                print("usage: gitbay-bench state [--entries 100000]")
                return
            }
        }
        BenchRow.report(try await measure(entries: count))
    }

    /// A benchmark's store answered differently from the definition over the same journal.
    struct WrongAnswer: Error, CustomStringConvertible {
        var description: String
    }

    static func measure(entries count: Int) async throws -> [BenchRow] {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("gitbay-bench-state-\(UUID())")
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("state.db").path
        let journal = Self.journal(count: count)
        let items = Array(Set(journal.map(\.item))).sorted()
        let expected = UnfinishedAction.find(in: journal)
        let (_, importSeconds) = try await BenchClock.timeAwaiting {
            try await SQLiteStateStore(path: path, mode: .applying).importJournal(journal, key: "bench")
        }
        let size = "\(count) entries, \(items.count) items, \(expected.count) unfinished"

        let opening = try await timings { _ in
            let (opened, seconds) = try await BenchClock.timeAwaiting {
                () async throws -> (SQLiteStateStore, [UnfinishedAction]) in
                let store = try SQLiteStateStore(path: path, mode: .applying)
                return (store, try await store.unfinishedActions())
            }
            guard opened.1 == expected else { throw WrongAnswer(description: "unfinished actions differ") }
            return seconds
        }

        var random = SeededGenerator(seed: 0x6869_7374)
        var picks: [String] = []
        for _ in 0..<repetitions { picks.append(items.randomElement(using: &random) ?? "") }
        let history = try await timings { index in
            let item = picks[index]
            let (records, seconds) = try await BenchClock.timeAwaiting {
                try await SQLiteStateStore(path: path, mode: .reading).history(HistoryQuery(item: item))
            }
            guard !records.isEmpty else { throw WrongAnswer(description: "no history for \(item)") }
            return seconds
        }

        // `gitbay-bot history --limit 20` with no filter: what a person types first.
        let newest = try await timings { _ in
            let (records, seconds) = try await BenchClock.timeAwaiting {
                try await SQLiteStateStore(path: path, mode: .reading).history(HistoryQuery(limit: 20))
            }
            guard records.count == 20 else {
                throw WrongAnswer(description: "history --limit 20 gave \(records.count)")
            }
            return seconds
        }

        let store = try SQLiteStateStore(path: path, mode: .applying)
        let commit = try await timings { index in
            let item = "bench/commit#\(index + 1)"
            let intent = JournalEntry(
                at: Date(), run: "bench", phase: .intent, rule: "bench", item: item, action: "close",
                argv: ["issue", "close", "bench/commit", "\(index + 1)"])
            var result = intent
            result.phase = .result
            result.outcome = "applied"
            return try await BenchClock.timeAwaiting {
                try await store.record(intent)
                try await store.record(result)
            }.1
        }
        let flush = try await timings { _ in try flushSeconds(in: folder.path) }

        func row(_ measure: String, _ times: Timings, target: Double, note: String = "") -> BenchRow {
            BenchRow(
                name: "state", size: size, measure: "\(measure) (median / p90 of \(repetitions))",
                value: String(format: "%.2f / %.2f ms", times.median * 1000, times.p90 * 1000) + note,
                target: String(format: "p90 < %.0f ms", target * 1000), verdict: times.p90 < target ? "PASS" : "FAIL")
        }
        return [
            BenchRow(
                name: "state", size: size, measure: "import into a new database (once)",
                value: String(format: "%.2f s, %.0f entries/s", importSeconds, Double(count) / importSeconds),
                target: "", verdict: ""),
            row("open for applying + unfinishedActions", opening, target: openTarget),
            row("open for reading + history of one item", history, target: historyTarget),
            BenchRow(
                name: "state", size: size,
                measure: "open for reading + the newest 20 of all (median / p90 of \(repetitions))",
                value: String(format: "%.2f / %.2f ms", newest.median * 1000, newest.p90 * 1000), target: "",
                verdict: ""),
            row(
                "record intent + result, each durable", commit, target: commitTarget,
                note: String(
                    format: " = %.1f× a 4 KiB write + fsync (%.2f / %.2f ms)", commit.median / flush.median,
                    flush.median * 1000, flush.p90 * 1000)),
        ]
    }

    /// The median and 90th percentile of some timings, in seconds.
    struct Timings {
        var median: Double
        var p90: Double
    }

    /// Runs `body` ``repetitions`` times (given the repetition's index), each returning the seconds it measured.
    private static func timings(_ body: (Int) async throws -> Double) async throws -> Timings {
        var times: [Double] = []
        for index in 0..<repetitions { times.append(try await body(index)) }
        let sorted = times.sorted()
        return Timings(median: sorted[sorted.count / 2], p90: sorted[sorted.count * 9 / 10])
    }

    /// Seconds to write 4 KiB to a file in `folder` and flush it to the disk: the floor under any durable commit.
    private static func flushSeconds(in folder: String) throws -> Double {
        let path = folder + "/flush-probe"
        let descriptor = open(path, O_RDWR | O_CREAT, 0o600)
        guard descriptor >= 0 else { throw WrongAnswer(description: "cannot create \(path)") }
        defer { close(descriptor) }
        let page = [UInt8](repeating: 1, count: 4096)
        return BenchClock.time {
            _ = pwrite(descriptor, page, page.count, 0)
            _ = fsync(descriptor)
        }.1
    }

    /// A journal such as runs every ten minutes leave: each run acts on 5 to 40 items, one rule each;
    /// a quarter of the entries have two or three actions (planned first); 1% of writes fail, and
    /// one run in 500 is killed after an intent.
    static func journal(count: Int) -> [JournalEntry] {
        var random = SeededGenerator(seed: 0x7374_6174_6531)
        let reasons = [
            ConditionResult(
                condition: "idle > 60d", field: "idle", observed: "61d 3h", holds: true, location: "rules/stale.yml:6:9"
            ),
            ConditionResult(
                condition: "labels has-none [pinned]", field: "labels", observed: "[bug]", holds: true,
                location: "rules/stale.yml:7:9"),
        ]
        var entries: [JournalEntry] = []
        var run = 0
        while entries.count < count {
            run += 1
            let at = Date(timeIntervalSince1970: 1_780_000_000 + Double(run) * 600)
            for _ in 0..<Int.random(in: 5...40, using: &random) {
                let repository = "org/repo\(Int.random(in: 1...20, using: &random))"
                let number = Int.random(in: 1...500, using: &random)
                let item = "\(repository)#\(number)"
                let rule = "rule-\(Int.random(in: 1...12, using: &random))"
                let all: [(String, [String], String?)] = [
                    ("comment", ["issue", "comment", repository, "\(number)", "--file", "-"], "Closing: idle.\n"),
                    ("add-label", ["issue", "label", repository, "\(number)", "--add", "stale"], nil),
                    ("close", ["issue", "close", repository, "\(number)"], nil),
                ]
                let actions = random.chance(0.25) ? Array(all.suffix(Int.random(in: 2...3, using: &random))) : [all[2]]
                func entry(_ phase: JournalEntry.Phase, _ action: (String, [String], String?)) -> JournalEntry {
                    JournalEntry(
                        at: at, run: "run-\(run)", phase: phase, rule: rule, item: item, action: action.0,
                        argv: action.1, stdin: action.2, argument: ActionArgument.none)
                }
                if actions.count > 1 { entries += actions.map { entry(.planned, $0) } }
                for action in actions {
                    var intent = entry(.intent, action)
                    intent.reasons = reasons
                    entries.append(intent)
                    if random.chance(0.002) { break }
                    var result = entry(.result, action)
                    result.outcome = random.chance(0.01) ? "failed" : "applied"
                    result.detail = result.outcome == "failed" ? "server said: 500 internal error" : nil
                    entries.append(result)
                }
            }
        }
        return Array(entries.prefix(count))
    }
}
