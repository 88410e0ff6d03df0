/// How a command prints its result: for people, or for programs.
enum OutputFormat: String, Sendable {
    case text
    case json
    /// JSON lines: one object a line (`history`).
    case jsonl
    case markdown
}
