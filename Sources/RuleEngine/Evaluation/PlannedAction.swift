import GitbayKit

/// One action of a plan entry: the exact command, or why it will not run.
public struct PlannedAction: Sendable, Hashable, Codable {
    /// What will become of the action.
    public enum Status: String, Sendable, Hashable, Codable {
        /// It will run (or, in a dry run, would).
        case pending
        /// The item is already as the action would leave it; nothing to do.
        case alreadyDone = "already-done"
        /// A plugin's safety rule forbids it on this item, whatever the rule says.
        case refused
        /// A limit or guard held it back; the reason says which.
        case held
        /// Not due yet (a merge whose gates do not pass): nothing is sent this run, no guard
        /// holds it, and a later run sends it once what it waits for is there; the note says what.
        case waiting
        /// The command could not be built (a value gitbay would refuse).
        case invalid
    }

    /// The action's name, such as `add-label`.
    public var action: String
    public var status: Status
    /// The exact command, for pending and held actions.
    public var command: ControlCommand?
    /// Why it is not pending, or a caution for a pending one.
    public var note: String?
    /// The argument the command was built from, so `apply` can tell on a fresh read whether the
    /// action has meanwhile been done.
    public var argument: ActionArgument?

    public init(
        action: String, status: Status, command: ControlCommand? = nil, note: String? = nil,
        argument: ActionArgument? = nil
    ) {
        self.action = action
        self.status = status
        self.command = command
        self.note = note
        self.argument = argument
    }
}
