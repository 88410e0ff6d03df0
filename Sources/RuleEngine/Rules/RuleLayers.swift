import Suggestions
import YAML

/// The files of a repository's own rules in the order they build on each other: the bases its
/// `extends:` reaches, the outermost first, then the repository's own file.
///
/// A later file replaces a rule of an earlier one by giving a rule its name, and switches one off
/// by naming it in `disable:`; names repeat only within one file as an error. The one place that
/// decides which rule of which file is left, so the names, the commands and the rules agree.
struct RuleLayers {
    /// Each file's rule names as written, by the file's place in the order.
    var names: [Int: [Located<String>]] = [:]
    /// Each file's `disable:` entries.
    var disabled: [Int: [Located<String>]] = [:]

    /// Whether a rule named `name` of file `file` is replaced or switched off by a later file.
    func isDropped(_ name: String, of file: Int) -> Bool {
        names.contains { later, written in later > file && written.contains { $0.value == name } }
            || disabled.contains { later, entries in later > file && entries.contains { $0.value == name } }
    }

    /// A name given twice in one file is an error there; across files the later one replaces.
    func duplicateNames() -> [Diagnostic] {
        names.keys.sorted().flatMap { RuleSet.duplicateNames(names[$0] ?? []) }
    }

    /// Each `disable:` entry naming no rule of the files before its own, with the closest name: a
    /// slip there would leave the rule it meant acting.
    func unknownDisabled() -> [Diagnostic] {
        disabled.keys.sorted().flatMap { file in
            let earlier = Set(names.filter { $0.key < file }.flatMap { $0.value.map(\.value) })
            return (disabled[file] ?? []).filter { !earlier.contains($0.value) }.map { entry -> Diagnostic in
                guard !names.filter({ $0.key < file }).isEmpty else {
                    return .error(
                        "disable: switches off rules of the files this one extends, and it extends none "
                            + "(add 'extends: owner/name:path', or drop '\(entry.value)')", at: entry.location)
                }
                let hint = Suggestion.closest(to: entry.value, among: earlier).map { "; did you mean '\($0)'?" } ?? ""
                return .error(
                    "disable: no rule '\(entry.value)' in the files this one extends\(hint)", at: entry.location)
            }
        }
    }

    /// `extends:` and `disable:` in a file that is no repository's own: the operator's files are
    /// all read, in the order given, so there is nothing to build on.
    static func unavailable(in source: RuleFileSource) -> [Diagnostic] {
        let keys: [(String, SourceLocation)] =
            [source.extends.map { ("extends", $0.location) }, source.disable?.first.map { ("disable", $0.location) }]
            .compactMap(\.self)
        return keys.map { key, location -> Diagnostic in
            .error(
                "'\(key)' is for a repository's own rules file (.gitbay/bot.yml, gitbay-bot check --repository); "
                    + "the operator's rule files are all read, in the order given", at: location)
        }
    }
}
