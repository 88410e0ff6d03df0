import Foundation
import GitbayKit
import RuleEngine

/// `history` for people: one block per action, its command and the conditions that chose it.
enum HistoryRenderer {
    static func text(_ entries: [HistoryEntry]) -> String {
        guard !entries.isEmpty else { return "no actions on record\n" }
        var text = ""
        for entry in entries {
            let run = String(entry.run.prefix(8)).lowercased() + (entry.command.map { ", \($0)" } ?? "")
            text += "\(GitbayTimestamp.format(entry.at, precision: .seconds))  \(entry.outcome.rawValue)  "
            text += "\(entry.item)  \(entry.rule): \(entry.action)  (run \(run))\n"
            text += "    \(ShellQuote.line(entry.argv))\n"
            if let detail = entry.detail {
                text += "    \(entry.outcome == .failed ? "error" : "note"): \(detail)\n"
            }
            if !entry.reasons.isEmpty {
                let reasons = entry.reasons.map(\.reasonDescription).joined(separator: ", ")
                text += "    because \(reasons)\n"
            }
        }
        return text
    }
}
