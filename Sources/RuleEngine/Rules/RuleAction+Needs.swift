extension RuleAction {
    /// What must be read before the action can be planned for an item of `kind`: what its
    /// plugin's definition needs, and what every field its templates print needs.
    ///
    /// The fields a template prints count because a condition can be decided without them (a
    /// range of `quiet` from the listing row, ``FieldBounds``): a comment saying "quiet for
    /// {{ quiet }}" must still wait for the value, never print an empty one.
    ///
    /// With `command`, the action answers a rule's command, and what the plugin judges a command
    /// by counts too (``ActionDefinition/commandNeeds``).
    public func needs(for kind: ItemKind, registry: PluginRegistry, command: Bool = false) -> Set<ReadNeed> {
        let definition = registry.action(name, for: kind)
        var needs = definition?.needs ?? []
        if command { needs.formUnion(definition?.commandNeeds ?? []) }
        for template in templates {
            for field in template.fieldNames { needs.formUnion(registry.field(field, for: kind)?.needs ?? []) }
        }
        return needs
    }

    /// The templates of the argument: one, several by parameter, or none.
    private var templates: [Template] {
        switch argument {
        case .template(let template): return [template]
        case .parameters(let templates): return Array(templates.values)
        default: return []
        }
    }
}

extension Rule {
    /// What must be read before any of the rule's actions can be planned
    /// (``RuleAction/needs(for:registry:)``).
    public func actionNeeds(registry: PluginRegistry) -> Set<ReadNeed> {
        actions.reduce(into: Set<ReadNeed>()) {
            $0.formUnion($1.needs(for: kind, registry: registry, command: command != nil))
        }
    }
}
