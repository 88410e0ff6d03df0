import RuleEngine

/// What a command asks a session to read, as its options and its moment say; with the settings
/// it resolves to the ``RuleEngine/ReadPolicy`` the read follows (``ReadPolicy/init(_:settings:guards:cache:)``).
enum CommandReading: Sendable, Hashable {
    /// `run` and `plan`: guarded, or every detail a verdict may depend on with `--read-all`;
    /// `--no-cache` trusts no copy (and still refreshes them).
    case run(readAll: Bool, noCache: Bool)
    /// A `watch` pass: everything on a full pass (`nil`), else the items its events name.
    case pass(WatchTargets?)
    /// `explain`: one item whole.
    case item(ItemReference)

    /// The items a `watch` pass is about, which alone it reads and judges; `nil` for everything.
    var targets: WatchTargets? {
        if case .pass(let targets) = self { return targets }
        return nil
    }
}
