import CommentCommands
import Suggestions
import YAML

/// The `do:` list: each action checked against its plugin's parameters, templates against the
/// kind's fields and the rule's command.
extension RuleCompiler {
    mutating func actions(_ node: Node, kind: ItemKind) -> [RuleAction] {
        guard case .sequence(let entries) = node.content, !entries.isEmpty else {
            error("'do' is a list of one or more actions, such as '- close'", at: node.location)
            return []
        }
        return entries.compactMap { action($0, kind: kind) }
    }

    private mutating func action(_ node: Node, kind: ItemKind) -> RuleAction? {
        let nameNode: Node
        let argumentNode: Node?
        switch node.content {
        case .scalar:
            nameNode = node
            argumentNode = nil
        case .mapping(let pairs) where pairs.count == 1:
            nameNode = pairs[0].key
            argumentNode = pairs[0].value
        default:
            error("an action is a name ('- close') or one 'name: value' pair ('- add-label: stale')", at: node.location)
            return nil
        }
        guard let name = nameNode.scalar, !nameNode.isNull else {
            error("an action needs a name", at: nameNode.location)
            return nil
        }
        guard let definition = registry.action(name, for: kind) else {
            let known = registry.actions(for: kind).map(\.name)
            var message = "unknown action '\(name)' for \(kind.rawValue)"
            if let suggestion = Suggestion.closest(to: name, among: known) {
                message += "; did you mean '\(suggestion)'?"
            }
            let owners = registry.kinds.filter { $0 != kind && registry.action(name, for: $0) != nil }
            let elsewhere = owners.isEmpty ? "" : "'\(name)' is an action of \(Self.list(owners)); "
            error(message + " (\(elsewhere)actions: \(known.joined(separator: ", ")))", at: nameNode.location)
            return nil
        }
        guard let argument = argument(argumentNode, for: definition, kind: kind, at: nameNode.location) else {
            return nil
        }
        return RuleAction(name: name, argument: argument, location: nameNode.location)
    }

    private mutating func argument(
        _ node: Node?, for definition: ActionDefinition, kind: ItemKind, at location: SourceLocation
    ) -> RuleAction.Argument? {
        let name = definition.name
        switch definition.argument {
        case .none:
            if let node, !node.isNull {
                error("'\(name)' takes no value; write '- \(name)'", at: node.location)
                return nil
            }
            return RuleAction.Argument.none
        case .labels, .users:
            guard let node, !node.isNull else {
                error(
                    "'\(name)' needs a value, such as '- \(name): \(definition.argument == .labels ? "stale" : "@me")'",
                    at: location)
                return nil
            }
            let values: [Node]
            switch node.content {
            case .scalar: values = [node]
            case .sequence(let items): values = items
            case .mapping:
                error("'\(name)' takes a name or a list of names", at: node.location)
                return nil
            }
            var names: [String] = []
            for value in values {
                guard let text = value.scalar, !value.isNull, !text.isEmpty else {
                    error("expected a name", at: value.location)
                    return nil
                }
                if definition.argument == .labels {
                    guard text.count <= 50 else {
                        error("a label name is at most 50 characters; this one has \(text.count)", at: value.location)
                        return nil
                    }
                    if text == "@me" {
                        error("@me names a user, not a label", at: value.location)
                        return nil
                    }
                }
                if text.hasPrefix("{{"), let parameter = commandArgument(in: text) {
                    // The command's own arguments, checked as this action's names when it is given.
                    let fits = definition.argument == .labels ? parameter.type == .label : parameter.type == .user
                    guard fits else {
                        let type = definition.argument == .labels ? "label" : "user"
                        error(
                            "'\(name)' takes \(type)s, but the command's \(parameter.name) is any "
                                + "\(parameter.type.description); declare it as <\(parameter.name):\(type)>",
                            at: value.location)
                        return nil
                    }
                } else if text.contains("{{") {
                    // A misspelt placeholder is said as in any template; any other is no name.
                    if checkedTemplate(text, node: value, kind: kind) != nil {
                        error(
                            "a name list takes plain names, or one command argument alone such as "
                                + "\"{{ command.labels }}\"", at: value.location)
                    }
                    return nil
                }
                names.append(text)
            }
            guard !names.isEmpty else {
                error("'\(name)' needs at least one name", at: node.location)
                return nil
            }
            return .names(names)
        case .text:
            guard let node, let text = node.scalar, !node.isNull else {
                error(
                    "'\(name)' needs text, such as '- \(name): Closing this as stale.'",
                    at: Self.valueLocation(node, action: location))
                return nil
            }
            return template(text, node: node, kind: kind)
        case .milestone:
            guard let node, !node.isNull, let title = node.scalar, !title.isEmpty else {
                error(
                    "'\(name)' needs a milestone title, or none to clear it",
                    at: Self.valueLocation(node, action: location))
                return nil
            }
            return .milestone(title == "none" ? nil : title)
        case .parameters:
            return parameters(node, for: definition, kind: kind, at: location)
        }
    }

    /// The named values of an action that takes several (`set-status: {context: ..., state: ...}`),
    /// each checked where it is written: a word among its parameter's, or a template gitbay takes.
    private mutating func parameters(
        _ node: Node?, for definition: ActionDefinition, kind: ItemKind, at location: SourceLocation
    ) -> RuleAction.Argument? {
        let name = definition.name
        let names = definition.parameters.map(\.name)
        // Nothing written: fine when every parameter may be left out (`- merge`).
        if node?.isNull ?? true, definition.parameters.allSatisfy({ !$0.required }) { return .parameters([:]) }
        guard let node, !node.isNull, case .mapping(let pairs) = node.content else {
            error(
                "'\(name)' takes \(names.map { "'\($0)'" }.joined(separator: ", ")), one per line under it",
                at: Self.valueLocation(node, action: location))
            return nil
        }
        var values: [String: Template] = [:]
        var valid = true
        for pair in pairs {
            guard let key = pair.key.scalar, let parameter = definition.parameters.first(where: { $0.name == key })
            else {
                var message = "'\(name)' takes no '\(pair.key.scalar ?? "")'"
                if let suggestion = Suggestion.closest(to: pair.key.scalar ?? "", among: names) {
                    message += "; did you mean '\(suggestion)'?"
                }
                error(message + " (it takes \(names.joined(separator: ", ")))", at: pair.key.location)
                valid = false
                continue
            }
            guard let text = pair.value.scalar, !pair.value.isNull, !text.allSatisfy(\.isWhitespace) else {
                error("'\(key)' needs a value", at: Self.valueLocation(pair.value, action: pair.key.location))
                valid = false
                continue
            }
            if let words = parameter.values, let argument = commandArgument(in: text) {
                // A command's argument fits when its choices are among the parameter's words.
                let fits: Bool
                if case .oneOf(let choices) = argument.type {
                    fits = choices.allSatisfy(words.contains)
                } else {
                    fits = false
                }
                guard fits else {
                    error(
                        "'\(key)' takes \(words.joined(separator: "|")), but the command's \(argument.name) is any "
                            + "\(argument.type == .word ? "word" : argument.type.description); declare it as "
                            + "[\(argument.name):\(words.joined(separator: "|"))]", at: pair.value.location)
                    valid = false
                    continue
                }
            } else if let words = parameter.values {
                guard words.contains(text) else {
                    var message = "'\(text)' is not a \(key) '\(name)' takes (\(words.joined(separator: ", ")))"
                    if let suggestion = Suggestion.closest(to: text, among: words) {
                        message += "; did you mean '\(suggestion)'?"
                    }
                    error(message, at: pair.value.location)
                    valid = false
                    continue
                }
            } else if let reason = parameter.refusal(text) {
                error(reason, at: pair.value.location)
                valid = false
                continue
            }
            guard let template = checkedTemplate(text, node: pair.value, kind: kind) else {
                valid = false
                continue
            }
            values[key] = template
        }
        for parameter in definition.parameters
        where parameter.required && pairs.allSatisfy({ $0.key.scalar != parameter.name }) {
            let words = parameter.values.map { " (\($0.joined(separator: ", ")))" } ?? ""
            error("'\(name)' needs '\(parameter.name)'\(words)", at: node.location)
            valid = false
        }
        return valid ? .parameters(values) : nil
    }

    /// The command parameter `text` is made of alone (`{{ command.strategy }}`), when the rule has
    /// a command with that parameter; `nil` for any other text.
    private func commandArgument(in text: String) -> CommandParameter? {
        guard let template = try? Template(parsing: text), template.parts.count == 1,
            case .field(let field, _) = template.parts[0], field.hasPrefix("command.")
        else { return nil }
        return commandInScope?.pattern.parameters.first { "command.\($0.name)" == field }
    }

    /// Where to report a wrong action value: at the value when one was written, else at the action's
    /// name (an empty value sits past the colon, where a caret points at nothing).
    private static func valueLocation(_ node: Node?, action: SourceLocation) -> SourceLocation {
        guard let node, !node.isNull else { return action }
        return node.location
    }

    private mutating func template(_ text: String, node: Node, kind: ItemKind) -> RuleAction.Argument? {
        guard !text.allSatisfy(\.isWhitespace) else {
            error("an empty comment; gitbay refuses blank bodies", at: node.location)
            return nil
        }
        guard text.utf8.count <= Self.maximumCommentBytes - Self.markerAllowance else {
            error(
                "this text is \(text.utf8.count) bytes; gitbay takes at most \(Self.maximumCommentBytes) "
                    + "(and the bot keeps \(Self.markerAllowance) for its marker)", at: node.location)
            return nil
        }
        return checkedTemplate(text, node: node, kind: kind).map { .template($0) }
    }

    /// `text` as a template whose placeholders all name fields of `kind`; `nil` after reporting
    /// each mistake at its place in `node`.
    private mutating func checkedTemplate(_ text: String, node: Node, kind: ItemKind) -> Template? {
        let template: Template
        do {
            template = try Template(parsing: text)
        } catch {
            self.error(error.message, at: node.location(ofScalarOffset: error.span.start))
            return nil
        }
        var named: [String] = []
        for case .field(let field, _) in template.parts { named.append(field) }
        let fields = registry.fieldSpecs(for: kind, naming: named)
        let commandNames = commandInScope?.templateNames ?? []
        var valid = true
        for case .field(let field, let span) in template.parts
        where fields[field] == nil && !commandNames.contains(field) {
            var message = "the template names unknown field '\(field)'"
            if let suggestion = Suggestion.closest(to: field, among: Array(fields.keys) + commandNames) {
                message += "; did you mean '\(suggestion)'?"
            } else if field.hasPrefix("command.") {
                message =
                    commandInScope.map { "the command \($0.pattern.usage) has no parameter '\(field.dropFirst(8))'" }
                    ?? "'\(field)' names a command's argument; the rule has no 'command:'"
            }
            error(message, at: node.location(ofScalarOffset: span.start))
            valid = false
        }
        return valid ? template : nil
    }
}
