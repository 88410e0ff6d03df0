/// A typed gitbay control command: it renders its exact argv and names the payload it answers with.
///
/// Each command the bot uses is one value conforming to this protocol, so that the argv sent over
/// the wire is built in one place and pinned by a golden test against gitbay's registry.
public protocol GitbayCommand: Sendable {
    /// The `data` payload of a successful reply.
    associatedtype Response: Decodable & Sendable

    /// Whether the command only reads (GET-able) or changes state (POST only).
    static var effect: CommandEffect { get }

    /// The argv, exactly as gitbay's dispatcher will see it.
    var argv: [String] { get }

    /// Text for the command's stdin; `nil` for commands that do not read it.
    var stdin: String? { get }

    /// What a reply of `"data": null` means, or `nil` when such a reply is malformed.
    ///
    /// gitbay turns an empty top-level list into `[]` but sends a list nested in a map payload as `null`
    /// (docs/gitbay/protocol.md#envelope); a command whose whole reply is a list may still read `null` as empty.
    static var emptyResponse: Response? { get }
}

extension GitbayCommand {
    public var stdin: String? { nil }

    public static var emptyResponse: Response? { nil }

    /// The erased form of this command, as plans and journals store it.
    public var control: ControlCommand {
        ControlCommand(argv: argv, stdin: stdin, effect: Self.effect)
    }
}

/// A read command whose reply is cursor-paged (`{items, next}`).
///
/// gitbay switches to the paged shape only when `--limit` or `--cursor` is present, and without a
/// limit some commands return every row at once, so a paged command always renders `--limit`.
public protocol PagedCommand: GitbayCommand where Response == Page<Item> {
    /// One row of a page.
    associatedtype Item: Decodable & Sendable

    /// Rows per page, 1 to ``Page/maximumLimit``.
    var limit: Int { get set }

    /// The opaque cursor from the previous page's `next`, or `nil` for the first page.
    var cursor: String? { get set }
}
