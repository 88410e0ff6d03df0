import Foundation

/// The simulator's journal of writes, read in order beside the pushes the test made, judged by
/// the two promises of issue 41: no notice twice in one episode, and no write to a value the
/// last read did not see.
///
/// Pushes go through the simulator's control API, which journals nothing, so the test records
/// each with the journal's last sequence number when it happened: a write journaled after it saw
/// the new head.
struct WeeksLedger {
    /// One push to a merge request's branch: the new head of `item` (`krz/app!8`) from the write
    /// after `afterSequence` on.
    struct Push {
        var afterSequence: Int
        var item: String
        var head: String
    }

    /// What a reading of the whole journal found.
    struct Verdict {
        var violations: [String] = []
        /// The bot's writes judged, its statuses and its notices among them.
        var writes = 0
        var statuses = 0
        var notices = 0
    }

    let me: String
    /// Accounts whose words are nobody's: the bot's and the `bots:` ones.
    let automation: Set<String>
    /// The forge before the first run: heads, labels and the notices already posted.
    let start: WeeksForge.Start
    var pushes: [Push] = []

    /// Reads `entries` (the journal, in any order) from the start.
    func verdict(_ entries: [[String: Any]]) -> Verdict {
        var verdict = Verdict()
        var heads = start.heads
        var labels = start.labels
        var closed: [String: Int] = [:]
        // Per item and rule, the sequence number of the newest notice and whether a person
        // acted on the item since: a comment, a label, a close or a reopen, which the feed names
        // them doing (Conversation.personActed), each begins a new episode.
        var episodes: [String: [String: (sequence: Int, answered: Bool)]] = [:]
        for (item, rule) in start.notices { episodes[item, default: [:]][rule] = (0, false) }
        var pending = pushes[...]
        for entry in entries.sorted(by: { ($0["seq"] as? Int ?? 0) < ($1["seq"] as? Int ?? 0) }) {
            let sequence = entry["seq"] as? Int ?? 0
            while let push = pending.first, push.afterSequence < sequence {
                heads[push.item] = push.head
                pending = pending.dropFirst()
            }
            let argv = entry["argv"] as? [String] ?? []
            let user = entry["user"] as? String ?? ""
            let applied = entry["applied"] as? Bool == true
            let shown = "#\(sequence) `\(argv.joined(separator: " ").prefix(120))`"
            let item = Self.item(of: argv)
            if user == me {
                verdict.writes += 1
                if argv.starts(with: ["status", "set"]), argv.count > 3 {
                    verdict.statuses += 1
                    let open = heads.filter { $0.value == argv[3] && $0.key.hasPrefix(argv[2] + "!") }
                        .filter { closed[$0.key] == nil }
                    if open.isEmpty {
                        let was =
                            start.heads.first { $0.value == argv[3] }?.key ?? pushes.first { $0.head == argv[3] }?.item
                            ?? "no merge request"
                        let now = heads.filter { $0.key.hasPrefix(argv[2] + "!") }.sorted { $0.key < $1.key }
                            .map { "\($0.key) at \($0.value.suffix(4))\(closed[$0.key] == nil ? "" : " (closed)")" }
                        verdict.violations.append(
                            "\(shown): the head of no open merge request (a head of \(was) once); heads then: "
                                + now.joined(separator: ", "))
                    }
                }
                if let item, let at = closed[item] {
                    verdict.violations.append("\(shown): \(item) was closed or merged by #\(at)")
                }
                if let item, argv[1] == "label" {
                    let (added, removed) = Self.labels(in: argv)
                    let have = labels[item, default: []]
                    let wrong = added.intersection(have).map { "+\($0)" } + removed.subtracting(have).map { "-\($0)" }
                    if !wrong.isEmpty {
                        verdict.violations.append(
                            "\(shown): \(wrong.sorted().joined(separator: " ")) on \(item), which has \(have.sorted())")
                    }
                }
                if let item, argv[1] == "comment", let rule = Self.rule(in: entry) {
                    verdict.notices += 1
                    if let last = episodes[item]?[rule], !last.answered {
                        verdict.violations.append(
                            "\(shown): a second \(rule) notice on \(item), no person acting on it since "
                                + (last.sequence == 0 ? "the one on the forge at the start" : "#\(last.sequence)"))
                    }
                    episodes[item, default: [:]][rule] = (sequence, false)
                }
            } else if applied, let item, !automation.contains(user) {
                for rule in episodes[item, default: [:]].keys { episodes[item]?[rule]?.answered = true }
            }
            guard applied, let item else { continue }
            if argv[1] == "label" {
                let (added, removed) = Self.labels(in: argv)
                labels[item] = labels[item, default: []].union(added).subtracting(removed)
            }
            switch (argv[1], argv.contains("--when-ready")) {
            case ("close", _), ("merge", false): closed[item] = sequence
            case ("reopen", _): closed[item] = nil
            default: break
            }
        }
        return verdict
    }

    /// `krz/app#3` or `krz/app!8`: the issue or merge request an `issue`/`mr` command names.
    static func item(of argv: [String]) -> String? {
        guard argv.count > 3, ["issue", "mr"].contains(argv[0]), Int(argv[3]) != nil else { return nil }
        return argv[2] + (argv[0] == "issue" ? "#" : "!") + argv[3]
    }

    /// The labels an `issue label` command adds and removes.
    static func labels(in argv: [String]) -> (added: Set<String>, removed: Set<String>) {
        var added = Set<String>()
        var removed = Set<String>()
        for (flag, value) in zip(argv, argv.dropFirst()) {
            if flag == "--add" { added.insert(value) }
            if flag == "--remove" { removed.insert(value) }
        }
        return (added, removed)
    }

    /// The rule a comment's hidden marker names, from its standard input or its `--message`.
    static func rule(in entry: [String: Any]) -> String? {
        let argv = entry["argv"] as? [String] ?? []
        let message = argv.firstIndex(of: "--message").flatMap { argv.indices.contains($0 + 1) ? argv[$0 + 1] : nil }
        let body = (entry["stdin"] as? String) ?? message ?? ""
        guard let start = body.range(of: "<!-- gitbay-bot:rule=") else { return nil }
        return body[start.upperBound...].split(separator: " ").first.map(String.init)
    }
}
