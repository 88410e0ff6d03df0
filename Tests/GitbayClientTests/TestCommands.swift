import GitbayKit

/// A paged read with integer rows, standing in for the real listing commands.
struct NumberListCommand: PagedCommand {
    typealias Item = Int
    static var effect: CommandEffect { .read }
    var limit = 200
    var cursor: String?

    var argv: [String] {
        ["issue", "list", "krz/gitbay", "--limit", String(limit)] + (cursor.map { ["--cursor", $0] } ?? [])
    }
}

/// A read whose argv carries the characters a query string mangles.
struct SearchCommand: GitbayCommand {
    typealias Response = [String: Int]
    static var effect: CommandEffect { .read }
    var text: String
    var argv: [String] { ["issue", "list", "--q", text, "--limit", "50"] }
}

/// A write with a body on stdin.
struct CommentCommand: GitbayCommand {
    typealias Response = [String: Int]
    static var effect: CommandEffect { .write }
    var body: String
    var argv: [String] { ["issue", "comment", "krz/gitbay", "7", "--file", "-"] }
    var stdin: String? { body }
}
