/// A plugin contributes, per item kind, the fields rules may test and the actions rules may take.
///
/// The engine, `check` and the docs know fields and actions only through the ``PluginRegistry``
/// built from the plugins, so adding a plugin adds vocabulary without touching the engine.
public protocol BotPlugin: Sendable {
    /// The plugin's name, for docs and conflict messages.
    var name: String { get }
    /// The fields this plugin offers for `kind` (none for kinds it does not serve).
    func fields(for kind: ItemKind) -> [FieldDefinition]
    /// The field families this plugin offers for `kind`: fields named by a label or a rule
    /// (none by default).
    func families(for kind: ItemKind) -> [FieldFamily]
    /// The actions this plugin offers for `kind`.
    func actions(for kind: ItemKind) -> [ActionDefinition]
    /// How the plugin reads the kinds whose items it lists (none by default: a plugin may only
    /// add fields and actions to a kind another plugin reads).
    var kinds: [any ItemKindDefinition] { get }
    /// The reads `watch` polls for changes the activity feed does not show (none by default).
    var probes: [any QuietChangeProbe] { get }
    /// The repository facts this plugin reads and its fields and actions may need, beyond the
    /// needs of an item the engine knows (none by default).
    var needs: [ReadNeedDefinition] { get }
}

extension BotPlugin {
    public func families(for kind: ItemKind) -> [FieldFamily] { [] }
    public var kinds: [any ItemKindDefinition] { [] }
    public var probes: [any QuietChangeProbe] { [] }
    public var needs: [ReadNeedDefinition] { [] }
}
