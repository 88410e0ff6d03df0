/// Every field and action the installed plugins offer, looked up by item kind and name.
public struct PluginRegistry: Sendable {
    private var fieldsByKind: [ItemKind: [String: FieldDefinition]] = [:]
    private var familiesByKind: [ItemKind: [String: FieldFamily]] = [:]
    private var actionsByKind: [ItemKind: [String: ActionDefinition]] = [:]
    private var definitionsByKind: [ItemKind: any ItemKindDefinition] = [:]
    /// The optional concerns, found once when the kinds are registered.
    private var cachesByKind: [ItemKind: any CachedDetails] = [:]
    private var watchingByKind: [ItemKind: any WatchedKind] = [:]
    private var commentedByKind: [ItemKind: any CommentedKind] = [:]
    private var stateFileListsByKind: [ItemKind: any StateFileList] = [:]
    private var stateFileDerivationsByKind: [ItemKind: any StateFileDerivation] = [:]
    /// The kinds plugins declare, in the order the plugins were given: the order reads are made in.
    public private(set) var kinds: [ItemKind] = []
    /// Names offered twice for one kind ("issues: field 'labels' from A and B"); the first wins.
    public private(set) var conflicts: [String] = []
    public let pluginNames: [String]
    /// Every plugin's ``QuietChangeProbe``s, in the order the plugins were given.
    public let probes: [any QuietChangeProbe]
    /// Every need a field or action may declare, in the order the reference lists them: the
    /// item's reads, the repository facts the plugins declare (by ``ReadNeedDefinition/rank``),
    /// then ``ReadNeed/freshDetail``, which says how the detail was read rather than adding a read.
    public let needs: [ReadNeed]
    /// The repository facts the plugins declare, in the order of ``needs``.
    public let needDefinitions: [ReadNeedDefinition]
    /// Each need's bit in a ``ReadNeed/Mask``: the item's needs first, then the plugins' in the
    /// order they are given, so that past the mask's width the last declared go without.
    public let bits: ReadNeed.Bits
    /// The declared needs an item's kind reads beyond its detail (``ReadNeedDefinition/perItem``).
    public let beyondDetail: Set<ReadNeed>

    public init(plugins: [any BotPlugin]) {
        pluginNames = plugins.map(\.name)
        probes = plugins.flatMap(\.probes)
        var owners: [String: String] = [:]
        var declared: [ReadNeedDefinition] = []
        for need in ReadNeed.item {
            owners["read need '\(need.name)'"] = "the engine"
        }
        for plugin in plugins {
            for definition in plugin.needs {
                if Self.claim("read need '\(definition.need.name)'", by: plugin, &owners, &conflicts) {
                    declared.append(definition)
                }
            }
        }
        // A stable sort: plugins in the order given on a tie.
        needDefinitions = declared.enumerated().sorted { ($0.element.rank, $0.offset) < ($1.element.rank, $1.offset) }
            .map(\.element)
        needs = ReadNeed.item.filter { $0 != .freshDetail } + needDefinitions.map(\.need) + [.freshDetail]
        bits = ReadNeed.Bits(ReadNeed.item + declared.map(\.need))
        beyondDetail = Set(declared.filter(\.perItem).map(\.need))
        for need in needs where !bits.covers(need) {
            conflicts.append(
                "read need '\(need.name)' has no bit: ReadNeed.Mask holds \(ReadNeed.Mask.RawValue.bitWidth)")
        }
        for plugin in plugins {
            for definition in plugin.kinds {
                if Self.claim("\(definition.kind.rawValue): kind", by: plugin, &owners, &conflicts) {
                    definitionsByKind[definition.kind] = definition
                    cachesByKind[definition.kind] = definition as? any CachedDetails
                    watchingByKind[definition.kind] = definition as? any WatchedKind
                    commentedByKind[definition.kind] = definition as? any CommentedKind
                    stateFileListsByKind[definition.kind] = definition as? any StateFileList
                    stateFileDerivationsByKind[definition.kind] = definition as? any StateFileDerivation
                    kinds.append(definition.kind)
                }
            }
        }
        // Any plugin may add fields and actions to a kind another one declares.
        for plugin in plugins {
            for kind in kinds {
                for field in plugin.fields(for: kind) {
                    let key = "\(kind.rawValue): field '\(field.name)'"
                    if Self.claim(key, by: plugin, &owners, &conflicts) {
                        fieldsByKind[kind, default: [:]][field.name] = field
                    }
                    conflicts += undeclared(field.needs, by: key)
                }
                for family in plugin.families(for: kind) {
                    let key = "\(kind.rawValue): field '\(family.prefix).*'"
                    if Self.claim(key, by: plugin, &owners, &conflicts) {
                        familiesByKind[kind, default: [:]][family.prefix] = family
                    }
                    conflicts += undeclared(family.needs, by: key)
                }
                for action in plugin.actions(for: kind) {
                    let key = "\(kind.rawValue): action '\(action.name)'"
                    if Self.claim(key, by: plugin, &owners, &conflicts) {
                        actionsByKind[kind, default: [:]][action.name] = action
                    }
                    conflicts += undeclared(action.needs, by: key)
                }
            }
        }
    }

    /// Gives `key` to `plugin` unless another has it, which is a conflict; whether `plugin` has it.
    private static func claim(
        _ key: String, by plugin: any BotPlugin, _ owners: inout [String: String], _ conflicts: inout [String]
    ) -> Bool {
        if let owner = owners[key] {
            conflicts.append("\(key) from \(owner) and \(plugin.name)")
            return false
        }
        owners[key] = plugin.name
        return true
    }

    /// Where `needs` name one no plugin declares ("builds: field 'superseded' needs 'refs', which no
    /// plugin declares"): nothing would ever read it, so the field would never be known.
    private func undeclared(_ needs: Set<ReadNeed>, by key: String) -> [String] {
        needs.filter { !self.needs.contains($0) }.map(\.name).sorted().map {
            "\(key) needs '\($0)', which no plugin declares"
        }
    }

    /// How `kind`'s items carry comments; `nil` for a kind without (no command can be given there).
    public func commented(_ kind: ItemKind) -> (any CommentedKind)? {
        commentedByKind[kind]
    }

    /// `needs` as bits, for a condition or a context to test.
    public func mask(_ needs: Set<ReadNeed>) -> ReadNeed.Mask {
        bits.mask(needs)
    }

    /// What the plugin that declares `need` says of it; `nil` for the engine's own needs and for
    /// a need nobody declares.
    public func definition(of need: ReadNeed) -> ReadNeedDefinition? {
        needDefinitions.first { $0.need == need }
    }

    /// The singular noun of `kind` for messages; the `on:` name when no plugin declares it.
    public func noun(of kind: ItemKind) -> String {
        naming(of: kind)?.noun ?? kind.rawValue
    }

    /// The items of `kind` in a repository, oldest first: the order rules see them in.
    public func items(of kind: ItemKind, in repository: RepositoryState) -> [Item] {
        let items = repository.items(of: kind)
        // Listings come newest first and forge-state files oldest first: sort only when needed.
        // Items of a kind without numbers (milestones) all read 0 and go by their key.
        if items.indices.dropFirst().allSatisfy({ items[$0 - 1].number < items[$0].number }) { return items }
        if items.indices.dropFirst().allSatisfy({ items[$0 - 1].number > items[$0].number }) {
            return items.reversed()
        }
        return items.sorted { ($0.number, $0.key) < ($1.number, $1.key) }
    }

    /// `some` in the order of ``kinds``, any kind no plugin reads last.
    public func kinds(ordering some: [ItemKind]) -> [ItemKind] {
        kinds.filter(some.contains) + some.filter { !kinds.contains($0) }.sorted { $0.rawValue < $1.rawValue }
    }

    /// How `kind`'s items are named and referred to; `nil` for a kind no plugin declares.
    public func naming(of kind: ItemKind) -> (any ItemKindNaming)? {
        definitionsByKind[kind]
    }

    /// How `kind`'s items are read; `nil` for a kind no plugin declares.
    public func reading(of kind: ItemKind) -> (any ItemKindReading)? {
        definitionsByKind[kind]
    }

    /// How the read cache keeps `kind`'s details; `nil` when it keeps none.
    public func cachedDetails(of kind: ItemKind) -> (any CachedDetails)? {
        cachesByKind[kind]
    }

    /// Which of `kind`'s items a feed event touches; `nil` when its plugin does not judge events.
    public func watching(of kind: ItemKind) -> (any WatchedKind)? {
        watchingByKind[kind]
    }

    /// `kind`'s own list in a forge-state file; `nil` when the file keeps none.
    public func stateFileList(of kind: ItemKind) -> (any StateFileList)? {
        stateFileListsByKind[kind]
    }

    /// What `kind` derives across a repository of a forge-state file; `nil` when nothing.
    public func stateFileDerivation(of kind: ItemKind) -> (any StateFileDerivation)? {
        stateFileDerivationsByKind[kind]
    }

    public func field(_ name: String, for kind: ItemKind) -> FieldDefinition? {
        if let field = fieldsByKind[kind]?[name] { return field }
        return family(naming: name, for: kind).flatMap { $0.family.field($0.parameter) }
    }

    /// The family a field name belongs to (`label_age.stale`: `label_age`), with the name after
    /// its dot; `nil` when the name is no family's.
    public func family(naming name: String, for kind: ItemKind) -> (family: FieldFamily, parameter: String)? {
        guard let dot = name.firstIndex(of: "."), let family = familiesByKind[kind]?[String(name[..<dot])],
            let parameter = family.parameter(of: name)
        else { return nil }
        return (family, parameter)
    }

    /// The field families of a kind, by prefix.
    public func families(for kind: ItemKind) -> [FieldFamily] {
        (familiesByKind[kind] ?? [:]).values.sorted { $0.prefix < $1.prefix }
    }

    /// ``fieldSpecs(for:)`` with the fields of families that `names` name, for checking a
    /// condition or a template that names them.
    public func fieldSpecs(for kind: ItemKind, naming names: [String]) -> [String: FieldSpec] {
        var specs = fieldSpecs(for: kind)
        for name in names where specs[name] == nil {
            if let field = field(name, for: kind) { specs[name] = field.spec }
        }
        return specs
    }

    /// The fields of a kind, by name.
    public func fields(for kind: ItemKind) -> [FieldDefinition] {
        (fieldsByKind[kind] ?? [:]).values.sorted { $0.name < $1.name }
    }

    /// What the condition checker needs: every field's name and type.
    public func fieldSpecs(for kind: ItemKind) -> [String: FieldSpec] {
        (fieldsByKind[kind] ?? [:]).mapValues(\.spec)
    }

    /// The field the server selects `kind`'s listings by, if a plugin declares one (``FieldDefinition/selects``).
    public func selectionField(for kind: ItemKind) -> FieldDefinition? {
        fields(for: kind).first(where: \.selects)
    }

    public func action(_ name: String, for kind: ItemKind) -> ActionDefinition? {
        actionsByKind[kind]?[name]
    }

    /// The actions of a kind, by name.
    public func actions(for kind: ItemKind) -> [ActionDefinition] {
        (actionsByKind[kind] ?? [:]).values.sorted { $0.name < $1.name }
    }

    /// Every action name of every kind: what an operator may forbid in repository rules
    /// (`repository_rules.forbid`).
    public var actionNames: Set<String> {
        Set(actionsByKind.values.flatMap(\.keys))
    }
}
