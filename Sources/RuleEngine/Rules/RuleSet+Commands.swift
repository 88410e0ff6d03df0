import CommentCommands
import YAML

extension RuleSet {
    /// A rule's `command:` as its file writes it: the rule's name, its `on:` and the command's name,
    /// read from the YAML so a rule with mistakes of its own is still compared with the others.
    struct GivenCommand {
        var rule: String
        var kind: String
        var name: String
        /// Where the command's name starts, at its `/`.
        var location: SourceLocation
    }

    /// The named rules of a composed file whose `command:` parses, in file order.
    static func givenCommands(in root: Node) -> [GivenCommand] {
        guard case .sequence(let rules)? = value(of: "rules", in: root)?.content else { return [] }
        return rules.compactMap { rule in
            guard let name = value(of: "name", in: rule)?.scalar, let kind = value(of: "on", in: rule)?.scalar,
                let node = value(of: "command", in: rule), !node.isNull, let text = node.scalar,
                let pattern = try? CommandPattern(parsing: text)
            else { return nil }
            let slash = text.unicodeScalars.prefix { $0 == " " || $0 == "\t" }.count
            return GivenCommand(
                rule: name, kind: kind, name: pattern.name, location: node.location(ofScalarOffset: slash))
        }
    }

    /// A command name given by two rules of one kind is an error at the second, naming the first.
    ///
    /// A comment belongs to one item of one kind, and every rule of that kind giving the command's
    /// name answers it: two such rules would both act on one `/label bug`, each with its own
    /// `allowed:` and `when:`, so whoever the looser one lets in gets what the stricter one
    /// refuses, and the person sees a 👍 and a refusal for one line. Rules on different kinds
    /// (`/label` on issues and on merge requests) never meet a comment together.
    static func commandsGivenTwice(_ commands: [GivenCommand]) -> [Diagnostic] {
        var first: [String: GivenCommand] = [:]
        var diagnostics: [Diagnostic] = []
        for command in commands {
            let key = "\(command.kind) \(command.name)"
            guard let earlier = first[key] else {
                first[key] = command
                continue
            }
            diagnostics.append(
                .error(
                    "/\(command.name) is already the command of rule '\(earlier.rule)' (\(earlier.location)) for "
                        + "\(command.kind); one comment would be answered by both", at: command.location,
                    notes: [.note("first given here", at: earlier.location)]))
        }
        return diagnostics
    }
}
