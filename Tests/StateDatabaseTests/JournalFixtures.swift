import Foundation
import GitbayTestSupport
import RuleEngine

/// A path for a new database, in a folder of its own that does not exist yet.
func scratchDatabase() -> String {
    Scratch.url("state-\(UUID().uuidString)/state.db").path
}

/// The argv each action of the random journals sends.
let actionArgv: [String: [String]] = [
    "comment": ["issue", "comment", "krz/app", "34", "--file", "-"],
    "close": ["issue", "close", "krz/app", "34"],
    "add-label": ["issue", "label", "krz/app", "34", "--add", "stale"],
]

/// A journal entry at `seconds` after a fixed time, for `action`'s argv.
func entry(
    _ run: String, _ phase: JournalEntry.Phase, _ action: String, outcome: String? = nil,
    rule: String = "close-stale", item: String = "krz/app#34", at seconds: Double
) -> JournalEntry {
    JournalEntry(
        at: Date(timeIntervalSince1970: 1_790_000_000 + seconds), run: run, phase: phase, rule: rule, item: item,
        action: action, argv: actionArgv[action] ?? [action], outcome: outcome, argument: ActionArgument.none)
}

/// Random journals over a few runs, rules, items and actions: every phase and outcome in any
/// order, so what is unfinished depends on how groups of runs overlap.
struct RandomJournals {
    var random: SeededGenerator

    /// One journal of up to 14 entries about `items`, timed from `start` on, one second apart.
    mutating func next(items: [String], start: Double) -> [JournalEntry] {
        (0..<Int.random(in: 0...14, using: &random)).map { index in
            let phase = [JournalEntry.Phase.planned, .intent, .result].randomElement(using: &random) ?? .intent
            return entry(
                "r\(Int.random(in: 1...3, using: &random))", phase,
                ["comment", "close", "add-label"].randomElement(using: &random) ?? "close",
                outcome: phase == .result ? ["applied", "failed", "already-done"].randomElement(using: &random) : nil,
                rule: ["close-stale", "mark-stale"].randomElement(using: &random) ?? "close-stale",
                item: items.randomElement(using: &random) ?? "krz/app#34", at: start + Double(index))
        }
    }
}
