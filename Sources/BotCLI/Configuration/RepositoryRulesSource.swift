import RuleEngine
import Suggestions
import YAML

/// `repository_rules:` in `gitbay-bot.yml`: what the operator lets each repository's own rules
/// file (`.gitbay/bot.yml`) do.
///
/// The bot writes with the operator's token, so the operator decides which actions such files may
/// never use; the file's rules act on their repository only (``RuleEngine/RepositoryConfinement``).
/// `gitbay-bot check --repository` checks a file under these; `run` and `plan` read the files
/// unless `read: false`.
struct RepositoryRulesSource: Decodable, Sendable {
    /// Listed so the "did you mean" of an unknown key knows every real key.
    enum CodingKeys: String, CodingKey, CaseIterable {
        case read
        case preview
        case forbid
        case maxActions = "max_actions"
        case limit
    }

    /// Whether runs read the repositories' files; `true` when not written.
    var read: Located<Bool>?
    /// Whether runs preview a merge request's change to a rules file on it; `true` when not written.
    var preview: Located<Bool>?
    /// The actions repository rules may not use, each where it is written.
    var forbid: [Located<String>]?
    /// The most commands one repository's own rules send in a run; a fifth of `max_actions` when
    /// not written.
    var maxActions: Located<Int>?
    /// The highest `limit:` a repository's rule may have, and the one a rule without one gets.
    var limit: Located<Int>?
    /// The values of the wrong type, each at its place.
    var decodingProblems: [Diagnostic] = []

    /// Reads each key on its own, gathering the wrong ones.
    init(from decoder: any Decoder) throws {
        let keys = try decoder.container(keyedBy: CodingKeys.self)
        read = try keys.decodeIfPresent(forKey: .read, gathering: &decodingProblems)
        preview = try keys.decodeIfPresent(forKey: .preview, gathering: &decodingProblems)
        forbid = try keys.decodeIfPresent(forKey: .forbid, gathering: &decodingProblems)
        maxActions = try keys.decodeIfPresent(forKey: .maxActions, gathering: &decodingProblems)
        limit = try keys.decodeIfPresent(forKey: .limit, gathering: &decodingProblems)
    }

    /// Each `forbid:` entry that names no action of any kind: a slip there would leave the action
    /// it meant allowed, so it is an error, with the closest action's name.
    ///
    /// A share below 1 or a limit below 1 is an error too: neither can mean "none", which
    /// `forbid:` and `read: false` say.
    func problems(knownActions: Set<String>) -> [Diagnostic] {
        var problems: [Diagnostic] = (forbid ?? []).filter { !knownActions.contains($0.value) }.map { entry in
            let hint = Suggestion.closest(to: entry.value, among: knownActions).map { "; did you mean '\($0)'?" } ?? ""
            return .error(
                "repository_rules.forbid lists actions, and no action is called '\(entry.value)'\(hint)",
                at: entry.location)
        }
        for (key, value) in [("max_actions", maxActions), ("limit", limit)] {
            guard let value, value.value < 1 else { continue }
            problems.append(
                .error(
                    "repository_rules.\(key) is at least 1, not \(value.value) (to keep repositories' rules from "
                        + "acting, write read: false)", at: value.location))
        }
        return problems
    }

    /// The share of a run's commands each repository's own rules get: `max_actions:`, else a
    /// fifth of the run's cap (10 of the default 50), at least 1; none when the run has no cap.
    func share(runCap: Int) -> Int? {
        maxActions?.value ?? Self.defaultShare(runCap: runCap)
    }

    /// A fifth of `runCap`, at least 1; none for a run without a cap (`max_actions: 0`).
    static func defaultShare(runCap: Int) -> Int? {
        runCap > 0 ? max(1, runCap / 5) : nil
    }
}
