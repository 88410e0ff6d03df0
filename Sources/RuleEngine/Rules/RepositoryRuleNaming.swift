import GitbayKit
import YAML

/// The names a repository's own rules go by once loaded: `owner/name:rule`.
///
/// A rule's name keys everything the bot keeps of it: the hidden marker in its comments, the
/// journal, `history`, its `limit:` and the plan's entries. A repository's `stale` and the
/// operator's `stale` acting on the same issues must never share a marker, or one rule's notice
/// would stand for the other's and `comment_age.stale` would count from either. The operator's
/// names take neither `/` nor `:` (``RuleCompiler``), so a qualified name meets none of theirs,
/// and a rule a repository takes from a base (`extends:`) is that repository's, named after it:
/// the same base rule in two repositories keeps two sets of markers, each on its own items.
///
/// The one place that qualifies: the rule's name, and every field that names a rule of the file
/// (`comment_age.stale` in a condition or a template, which the file writes unqualified, and
/// which a saved plan carries as text for `apply` to check again).
public enum RepositoryRuleNaming {
    /// The name `rule` of `repository`'s own rules goes by: `krz/app:stale`.
    public static func name(_ rule: String, in repository: RepositoryPath) -> String {
        "\(repository):\(rule)"
    }

    /// `rule` as its repository's: its name qualified, and each field naming a rule too.
    static func qualify(_ rule: Rule, in repository: RepositoryPath, registry: PluginRegistry) -> Rule {
        var rule = rule
        let kind = rule.kind
        func qualified(_ field: String) -> String {
            guard let (family, parameter) = registry.family(naming: field, for: kind), family.namesRule else {
                return field
            }
            return "\(family.prefix).\(name(parameter, in: repository))"
        }
        rule.name = name(rule.name, in: repository)
        rule.origin = repository
        rule.condition = rule.condition.renamingFields(qualified, registry: registry, kind: kind)
        rule.actions = rule.actions.map { action in
            var action = action
            action.argument = action.argument.renamingFields(qualified)
            return action
        }
        return rule
    }
}

extension RepositoryRuleNaming {
    /// `rules` less those `refused` names and every rule that counts from a refused rule's
    /// notices (`comment_age.X` in a condition or a template), with an error at each of those: a
    /// follow-up whose notice rule waits would act on items never told.
    static func withoutRefused(
        _ rules: [Rule], refused: Set<String>, registry: PluginRegistry
    ) -> (kept: [Rule], waiting: [Diagnostic]) {
        var refused = refused
        var waiting: [Diagnostic] = []
        var changed = true
        while changed {
            changed = false
            for rule in rules where !refused.contains(rule.name) {
                guard let source = namedRules(of: rule, registry: registry).first(where: refused.contains) else {
                    continue
                }
                refused.insert(rule.name)
                changed = true
                waiting.append(
                    .error(
                        "rule '\(unqualified(rule.name))' counts from the notices of '\(unqualified(source))', which "
                            + "is refused; it waits with it", at: rule.location))
            }
        }
        return (rules.filter { !refused.contains($0.name) }, waiting)
    }

    /// The rules `rule` names through a field family (`comment_age.krz/app:stale`), by name.
    static func namedRules(of rule: Rule, registry: PluginRegistry) -> [String] {
        var named: [String] = []
        func note(_ field: String) -> String {
            if let (family, parameter) = registry.family(naming: field, for: rule.kind), family.namesRule {
                named.append(parameter)
            }
            return field
        }
        _ = rule.condition.renamingFields(note, registry: registry, kind: rule.kind)
        for action in rule.actions { _ = action.argument.renamingFields(note) }
        return named
    }

    /// A repository rule's name as its file writes it: `stale` of `krz/app:stale`.
    static func unqualified(_ name: String) -> String {
        name.split(separator: ":", maxSplits: 1).last.map(String.init) ?? name
    }
}

extension ConditionTree {
    /// The tree with each condition's field renamed by `rename`, the condition's text with it, so
    /// that a plan's precondition (which is the text) names the same field.
    func renamingFields(
        _ rename: (String) -> String, registry: PluginRegistry, kind: ItemKind
    ) -> ConditionTree {
        switch self {
        case .all(let trees): return .all(trees.map { $0.renamingFields(rename, registry: registry, kind: kind) })
        case .any(let trees): return .any(trees.map { $0.renamingFields(rename, registry: registry, kind: kind) })
        case .not(let tree): return .not(tree.renamingFields(rename, registry: registry, kind: kind))
        case .test(let condition, let location):
            let field = rename(condition.field.name)
            guard field != condition.field.name else { return self }
            var scalars = Array(condition.expression.text.unicodeScalars)
            let span = condition.expression.fieldSpan
            scalars.replaceSubrange(span.start..<span.start + span.length, with: field.unicodeScalars)
            var text = String.UnicodeScalarView()
            text.append(contentsOf: scalars)
            // The checked condition with a longer field name of the same family checks the same
            // way: the family's type is the field's, whatever the name after the dot.
            guard let expression = try? ConditionExpression.parse(String(text)),
                let renamed = try? CheckedCondition.check(
                    expression, fields: registry.fieldSpecs(for: kind, naming: [expression.field]))
            else { return self }
            return .test(renamed, location)
        }
    }
}

extension RuleAction.Argument {
    /// The argument with each placeholder's field renamed by `rename`.
    func renamingFields(_ rename: (String) -> String) -> RuleAction.Argument {
        switch self {
        case .template(let template): return .template(template.renamingFields(rename))
        case .parameters(let values): return .parameters(values.mapValues { $0.renamingFields(rename) })
        case .none, .names, .milestone: return self
        }
    }
}

extension Template {
    /// The template with each placeholder's field renamed by `rename`, where it stands unchanged.
    func renamingFields(_ rename: (String) -> String) -> Template {
        Template(
            parts: parts.map { part in
                guard case .field(let name, let span) = part else { return part }
                return .field(rename(name), span)
            })
    }
}
