import GitbayKit

/// An action a plugin offers to rules: the command it renders, how to see it is already done, and
/// when it must never run whatever the rule says.
public struct ActionDefinition: Sendable {
    public var name: String
    public var argument: ActionArgumentKind
    /// What an action whose argument is ``ActionArgumentKind/parameters`` takes, in the order
    /// the docs list them; empty for any other.
    public var parameters: [ActionParameter]
    /// One line for `docs/fields.md`, `check` and editors.
    public var doc: String
    /// What must be read before ``isDone`` and ``refusal`` can answer (labels for `add-label`,
    /// comments for `comment`); a `.detail` need comes with ``ReadNeed/freshDetail`` unless the
    /// action is declared ``cached(_:)``.
    public private(set) var needs: Set<ReadNeed>
    /// What must be read, beyond ``needs``, before ``commandRefusal`` can answer (a merge
    /// request's revisions); read only where a rule's command asks for the action.
    public let commandNeeds: Set<ReadNeed>
    /// The exact command; throws when a value is one gitbay would refuse (a comment over 64 KiB).
    public var command: @Sendable (ActionRequest, ItemContext) throws -> ControlCommand
    /// Whether the item is already as the action would leave it, so the action is skipped:
    /// never add a present label, never post a comment twice, never ready a ready MR.
    public var isDone: @Sendable (ActionRequest, ItemContext) -> Bool
    /// A reason the action must not run on this item at all, whatever the rule says (never cancel
    /// the build of an open merge request's head); `nil` when it may.
    public var refusal: @Sendable (ItemContext) -> String?
    /// A reason the action must not run for this command's giver, though it may run on the item:
    /// what the command was given on has changed since (a merge request's head pushed after a
    /// `/merge`), so the giver has not approved what it would do now; `nil` when it may.
    ///
    /// Judged only for an action that answers a command, after ``isDone`` (a merge request
    /// merged meanwhile answers the command whatever its head).
    public var commandRefusal: @Sendable (PlannedCommand, ItemContext) -> String?
    /// Why the action is not due yet though its rule holds (a merge whose gates do not pass):
    /// it sends nothing this run and is judged again on the next, where a queue in gitbay would
    /// act later on the bot's authority with nobody re-checking the rule; `nil` when it may go.
    public var wait: @Sendable (ActionRequest, ItemContext) -> String?
    /// A caution to show in the plan (`mr ready` may start a queued merge); `nil` when none.
    public var warning: @Sendable (ItemContext) -> String?
    /// Another action the rule should take too for this one to work as documented, and what
    /// goes wrong without it (`ready` remembers a landing only by the rule's marked comment);
    /// `check` warns when a rule lacks it.
    public var companion: (action: String, without: String)?
    /// Whether ``isDone`` and ``refusal`` may judge a cached detail: what they read moves the
    /// kind's version, or only the bot itself writes it (a comment's marker), and recording the
    /// bot's write drops the item's cached detail.
    public var isCached: Bool { !needs.contains(.freshDetail) }

    public init(
        _ name: String, argument: ActionArgumentKind = .none, parameters: [ActionParameter] = [],
        needs: Set<ReadNeed> = [], commandNeeds: Set<ReadNeed> = [], doc: String,
        command: @escaping @Sendable (ActionRequest, ItemContext) throws -> ControlCommand,
        isDone: @escaping @Sendable (ActionRequest, ItemContext) -> Bool,
        refusal: @escaping @Sendable (ItemContext) -> String? = { _ in nil },
        commandRefusal: @escaping @Sendable (PlannedCommand, ItemContext) -> String? = { _, _ in nil },
        wait: @escaping @Sendable (ActionRequest, ItemContext) -> String? = { _, _ in nil },
        warning: @escaping @Sendable (ItemContext) -> String? = { _ in nil },
        companion: (action: String, without: String)? = nil
    ) {
        self.name = name
        self.argument = argument
        self.parameters = parameters
        self.doc = doc
        self.needs = needs.contains(.detail) ? needs.union([.freshDetail]) : needs
        self.commandNeeds = commandNeeds
        self.command = command
        self.isDone = isDone
        self.refusal = refusal
        self.commandRefusal = commandRefusal
        self.wait = wait
        self.warning = warning
        self.companion = companion
    }

    /// This action, declared safe to judge on a cached detail (``isCached``); `false` leaves it
    /// as it is, for shared definitions that are cached for one kind and not another.
    public func cached(_ cached: Bool = true) -> ActionDefinition {
        var action = self
        if cached { action.needs.remove(.freshDetail) }
        return action
    }

    /// What the action comes to on one item: refused, already done, or due.
    public enum Verdict: Sendable, Hashable {
        /// A plugin's safety rule forbids it here, whatever the rule says; the reason says which.
        case refused(String)
        /// The item is already as the action would leave it.
        case done
        /// Not yet: the reason says what it waits for.
        case waiting(String)
        /// It has to be sent.
        case due
    }

    /// The one order in which planning and applying ask: refusal, then done, then the command's
    /// refusal, then waiting.
    ///
    /// A refusal is the stronger statement (the action must never run on this item), so it wins
    /// over "already so", and `plan` and `apply` report the same item the same way.
    public func verdict(_ request: ActionRequest, _ context: ItemContext) -> Verdict {
        if let reason = refusal(context) { return .refused(reason) }
        if isDone(request, context) { return .done }
        if let command = request.command, let reason = commandRefusal(command, context) { return .refused(reason) }
        return wait(request, context).map(Verdict.waiting) ?? .due
    }
}
