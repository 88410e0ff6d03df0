import CommentCommands
import Suggestions
import YAML

/// Turns decoded rule files into checked ``Rule`` values, collecting every mistake it finds.
///
/// It knows fields and actions only through the ``PluginRegistry``, and reports each error at the
/// line and column of the text it is about, inside a condition string where it can.
struct RuleCompiler {
    /// The most UTF-8 bytes gitbay takes on stdin for a comment (`maxBodyBytes` in `issue.go`).
    static let maximumCommentBytes = 64 << 10
    /// Room kept for the hidden marker the bot appends to every comment.
    static let markerAllowance = 256

    let registry: PluginRegistry
    /// The command of the rule being compiled, whose names its templates may use.
    private(set) var commandInScope: CommandTrigger?
    /// A scope from the command line, which replaces every file's and rule's own.
    let scopeOverride: RuleScope?
    /// The schedule of a rule that writes none (`schedule:` in `gitbay-bot.yml`).
    let defaultSchedule: Schedule?
    /// For a repository's own rules file: its repository, the one scope its rules may have, and
    /// the actions the operator forbids there.
    let confinement: RepositoryConfinement?
    private(set) var diagnostics: [Diagnostic] = []
    /// The errors the confinement made (a rule's scope beyond its repository, a forbidden action),
    /// each refusing only its rule (``refusedRules``); an error at the file's own `scope:` refuses
    /// the whole file, so it is not among them.
    private(set) var refusals: Set<Diagnostic> = []
    /// The rules, by name as written, that a refusal keeps from acting.
    private(set) var refusedRules: Set<String> = []
    /// The rule being compiled, whose refusal a confinement error is.
    private var ruleInScope: String?

    init(
        registry: PluginRegistry, scopeOverride: RuleScope?, defaultSchedule: Schedule? = nil,
        confinement: RepositoryConfinement? = nil
    ) {
        self.registry = registry
        self.scopeOverride = scopeOverride
        self.defaultSchedule = defaultSchedule
        self.confinement = confinement
    }

    /// Checks a file's decoded rules under the file's `scope:`.
    mutating func compile(_ sources: [RuleFileSource.RuleSource], scope: Located<String>?, file: String) -> [Rule] {
        let fileScope = scope.flatMap { self.scope(from: $0) }
        var rules: [Rule] = []
        for rule in sources {
            if let compiled = compile(rule, fileScope: fileScope, fileHasScope: scope != nil, file: file) {
                rules.append(compiled)
            }
        }
        return rules
    }

    mutating func error(_ message: String, at location: SourceLocation, notes: [Diagnostic] = []) {
        diagnostics.append(.error(message, at: location, notes: notes))
    }

    /// An error of the confinement: the rule being compiled's alone when there is one, else an
    /// error like any other.
    private mutating func refuse(_ message: String, at location: SourceLocation) {
        error(message, at: location)
        guard let rule = ruleInScope, let refusal = diagnostics.last else { return }
        refusals.insert(refusal)
        refusedRules.insert(rule)
    }

    private mutating func scope(from text: Located<String>) -> RuleScope? {
        do {
            let written = try RuleScope(parsing: text.value)
            if let confinement, !confinement.admits(written) {
                refuse(confinement.refusal(of: written), at: text.location)
                return nil
            }
            return written
        } catch {
            // An empty value has no character to point at inside it; its start is the place to write one.
            let location = text.value.isEmpty ? text.location : text.location(ofScalarOffset: error.span.start)
            self.error(error.message, at: location)
            return nil
        }
    }

    /// Checks one rule; `fileHasScope` says the file wrote a scope, so a broken one is reported
    /// once, at the scope, rather than again as "no scope" on every rule.
    private mutating func compile(
        _ source: RuleFileSource.RuleSource, fileScope: RuleScope?, fileHasScope: Bool, file: String
    ) -> Rule? {
        let errorsBefore = diagnostics.count
        let name = source.name.value
        ruleInScope = name
        defer { ruleInScope = nil }
        if !Self.isRuleName(name) {
            error(
                "rule name '\(name)' must start with a lowercase letter or digit and use only a-z, 0-9, '.', '_' "
                    + "and '-' (it goes into the marker the bot leaves on items)", at: source.name.location)
        }
        guard let kind = registry.kinds.first(where: { $0.rawValue == source.on.value }) else {
            var message = "unknown item kind '\(source.on.value)'"
            let kinds = registry.kinds.map(\.rawValue)
            if let suggestion = Suggestion.closest(to: source.on.value, among: kinds) {
                message += "; did you mean '\(suggestion)'?"
            }
            error(message + " (kinds: \(kinds.joined(separator: ", ")))", at: source.on.location)
            return nil
        }
        if let limit = source.limit, limit.value < 1 {
            error("limit must be at least 1 (leave it out for no limit of the rule's own)", at: limit.location)
        }
        let ruleScope = source.scope.flatMap { scope(from: $0) }
        // A repository's own rule acts on its repository, whatever --scope says: a written scope
        // that reaches further is an error at its place (``scope(from:)``).
        let effectiveScope =
            if let confinement { confinement.scope } else { scopeOverride ?? ruleScope ?? fileScope }
        if effectiveScope == nil, source.scope == nil, !fileHasScope {
            error(
                "rule '\(name)' has no scope: add 'scope: owner:NAME' to the file or the rule, or pass --scope",
                at: source.name.location)
        }
        var schedule = defaultSchedule
        switch source.schedule?.schedule() {
        case .success(let own): schedule = own
        case .failure(let error): diagnostics += error.diagnostics
        case nil: break
        }
        let condition = source.when.map { tree($0, kind: kind) } ?? .all([])
        let command = trigger(source, kind: kind)
        commandInScope = command
        defer { commandInScope = nil }
        let actions = self.actions(source.do, kind: kind)
        for action in actions where confinement?.forbiddenActions.contains(action.name) == true {
            refuse(RepositoryConfinement.forbidding(action.name), at: action.location)
        }
        guard diagnostics.count == errorsBefore, let condition, let effectiveScope else { return nil }
        warnOfMissingCompanions(actions, kind: kind)
        diagnostics += source.schedule?.warnings ?? []
        return Rule(
            name: name, description: source.description, kind: kind, limit: source.limit?.value,
            scope: effectiveScope, condition: condition, actions: actions, location: source.name.location,
            schedule: schedule, command: command)
    }

    // MARK: Commands

    /// The rule's `command:` and `allowed:`, each mistake reported at its place; `nil` without a
    /// command (an `allowed:` alone is a mistake) or after a mistake.
    private mutating func trigger(_ source: RuleFileSource.RuleSource, kind: ItemKind) -> CommandTrigger? {
        guard let text = source.command else {
            if let allowed = source.allowed {
                error("'allowed' says who may give a command; add 'command:' or drop it", at: allowed.location)
            }
            return nil
        }
        guard registry.commented(kind) != nil else {
            let commented = registry.kinds.filter { registry.commented($0) != nil }
            error(
                "a command is given in a comment, which \(kind.rawValue) have not; 'command:' is for "
                    + Self.list(commented), at: text.location)
            return nil
        }
        let pattern: CommandPattern
        do {
            pattern = try CommandPattern(parsing: text.value)
        } catch {
            let scalars = String(text.value.prefix(error.offset)).unicodeScalars.count
            self.error(error.message, at: text.location(ofScalarOffset: scalars))
            return nil
        }
        if pattern.parameters.contains(where: { $0.name == CommandPattern.authorName }) {
            error(
                "a parameter may not be named 'author': {{ command.author }} is who gave the command", at: text.location
            )
            return nil
        }
        guard let allowed = permissions(source.allowed) else { return nil }
        return CommandTrigger(pattern: pattern, allowed: allowed)
    }

    /// `allowed:`: `author`, `writers` or account names (`@alice` or `alice`), one or a list;
    /// `[writers]` when left out, so that nobody without write access can make the bot write.
    private mutating func permissions(_ node: Node?) -> [CommandPermission]? {
        guard let node, !node.isNull else { return [.writers] }
        let values: [Node]
        switch node.content {
        case .scalar: values = [node]
        case .sequence(let items) where !items.isEmpty: values = items
        default:
            error("'allowed' is author, writers or account names, one or a list", at: node.location)
            return nil
        }
        var permissions: [CommandPermission] = []
        for value in values {
            guard let word = value.scalar, !value.isNull else {
                error("expected author, writers or an account name", at: value.location)
                return nil
            }
            guard let permission = CommandPermission(word: word), permission != .account("me") else {
                var message = "'\(word)' is not author, writers or an account name"
                if let suggestion = Suggestion.closest(to: word, among: CommandPermission.words) {
                    message += "; did you mean '\(suggestion)'?"
                }
                error(message, at: value.location)
                return nil
            }
            // `authors` or `writer` is far likelier a slip than an account of that name.
            if case .account = permission, !word.hasPrefix("@"),
                let suggestion = Suggestion.closest(to: word, among: CommandPermission.words)
            {
                error(
                    "'\(word)' reads as an account name; did you mean '\(suggestion)'? (write '@\(word)' for the account)",
                    at: value.location)
                return nil
            }
            permissions.append(permission)
        }
        return permissions
    }

    /// Warns of an action whose plugin says it relies on another action the rule does not take;
    /// a rule with a command needs none, since each command is answered once.
    private mutating func warnOfMissingCompanions(_ actions: [RuleAction], kind: ItemKind) {
        guard commandInScope == nil else { return }
        let names = Set(actions.map(\.name))
        for action in actions {
            guard let companion = registry.action(action.name, for: kind)?.companion,
                !names.contains(companion.action)
            else { continue }
            diagnostics.append(
                .warning("'\(action.name)' without '\(companion.action)': \(companion.without)", at: action.location))
        }
    }

    private static func isRuleName(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first, Self.nameStart(first) else { return false }
        return name.unicodeScalars.allSatisfy { Self.nameStart($0) || "._-".unicodeScalars.contains($0) }
            && name.unicodeScalars.count <= 64
    }

    private static func nameStart(_ scalar: Unicode.Scalar) -> Bool {
        ("a"..."z").contains(scalar) || ("0"..."9").contains(scalar)
    }

    /// Item kinds for a message: `builds`, or `issues and builds`.
    static func list(_ kinds: [ItemKind]) -> String {
        let names = kinds.map(\.rawValue)
        guard names.count > 1 else { return names.joined() }
        return names.dropLast().joined(separator: ", ") + " and " + names[names.count - 1]
    }

    // MARK: Conditions

    private mutating func tree(_ node: Node, kind: ItemKind) -> ConditionTree? {
        switch node.content {
        case .scalar(let text, _):
            guard !node.isNull else {
                error("empty condition", at: node.location)
                return nil
            }
            return test(text, node: node, kind: kind)
        case .sequence(let items):
            let trees = items.map { tree($0, kind: kind) }
            return trees.contains { $0 == nil } ? nil : .all(trees.compactMap { $0 })
        case .mapping(let pairs):
            guard pairs.count == 1, let key = pairs[0].key.scalar else {
                error(
                    "a condition block has exactly one key: all:, any: or not:", at: node.location)
                return nil
            }
            let value = pairs[0].value
            // The block's name first: `- {state = open}` is a mapping whose key is the condition, and
            // its empty value must not be reported as an empty condition.
            guard ["all", "any", "not"].contains(key) else {
                var message = "unknown condition block '\(key)'"
                if let suggestion = Suggestion.closest(to: key, among: ["all", "any", "not"]) {
                    message += "; did you mean '\(suggestion)'?"
                }
                message += " (blocks: all, any, not)"
                if value.isNull {
                    message += "; a condition is plain text: drop the braces or the colon, or quote it"
                }
                error(message, at: pairs[0].key.location)
                return nil
            }
            if case .sequence(let parts) = value.content, parts.isEmpty {
                // Empty, `all` holds for every item and `any` (or `not`) for none: surely not meant.
                error(
                    "'\(key):' needs at least one condition; empty, it would \(key == "all" ? "always" : "never") hold",
                    at: pairs[0].key.location)
                return nil
            }
            guard let inner = tree(value, kind: kind) else { return nil }
            switch key {
            case "any":
                if case .all(let trees) = inner, case .sequence = value.content { return .any(trees) }
                return .any([inner])
            case "not":
                return .not(inner)
            default:
                return inner
            }
        }
    }

    private mutating func test(_ text: String, node: Node, kind: ItemKind) -> ConditionTree? {
        do {
            let expression = try ConditionExpression.parse(text)
            let checked = try CheckedCondition.check(
                expression, fields: registry.fieldSpecs(for: kind, naming: [expression.field]))
            return .test(checked, node.location)
        } catch {
            var message = error.message
            if message.hasPrefix("unknown field"), registry.fieldSpecs(for: kind).isEmpty == false {
                let field = (try? ConditionExpression.parse(text))?.field ?? ""
                let owners = registry.kinds.filter { $0 != kind && registry.fieldSpecs(for: $0)[field] != nil }
                let elsewhere = owners.isEmpty ? "" : "'\(field)' is a field of \(Self.list(owners)); "
                message += " (\(elsewhere)\(kind.rawValue) fields are listed in docs/fields.md)"
            }
            self.error(message, at: node.location(ofScalarOffset: error.span.start))
            return nil
        }
    }
}
