/// The paging words every paged command ends its argv with.
///
/// `--limit` is always rendered: without it gitbay returns a bare array (or every row at once) instead
/// of the `{items, next}` page the client expects.
extension PagedCommand {
    var pagingArguments: [String] {
        var argv = ["--limit", String(limit)]
        if let cursor, !cursor.isEmpty {
            argv += ["--cursor", cursor]
        }
        return argv
    }
}
