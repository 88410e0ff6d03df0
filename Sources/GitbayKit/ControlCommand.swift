/// Whether a control command only reads forge state or changes it.
///
/// gitbay decides GET-ability from each command's `ReadOnly` flag, which its `help` output does not
/// expose, so the bot carries the flag itself: reads go to `GET /api/v1/read`, writes to
/// `POST /api/v1/cmd`, and a read-only client refuses every `.write` before any I/O.
public enum CommandEffect: String, Sendable, Hashable, Codable {
    case read
    case write
}

/// A control command in the erased form the wire carries: argv, optional stdin and its effect.
///
/// Plans store this form, so that `apply` replays exactly the argv that was shown to the user.
public struct ControlCommand: Sendable, Hashable, Codable {
    /// The real argv: no shell, no quoting; `argv[0]` is the first word of the command path.
    public var argv: [String]
    /// Text handed to the command's stdin (only for commands gitbay registers with `ReadsStdin`).
    public var stdin: String?
    /// Read or write, which picks the endpoint and the rate bucket.
    public var effect: CommandEffect

    public init(argv: [String], stdin: String? = nil, effect: CommandEffect) {
        self.argv = argv
        self.stdin = stdin
        self.effect = effect
    }
}
