import GitbayKit

extension ReadContext {
    /// The open merge requests of `scope` (`mr list --q "<scope> is:mr is:open"`), listed once per run.
    ///
    /// Whoever asks: the merge request rules' listing and the rules previews' look share the
    /// rows, which a run of 1,000 repositories pays some 15 requests for. A scope of every
    /// repository (`repo:*`) listed already serves any other scope, its rows filtered by the caller.
    ///
    /// Answers the rows and the requests they took now (none when listed before).
    public mutating func openMergeRequests(in scope: RuleScope) async throws -> (rows: [QueryItem], requests: Int) {
        let key = scope.description
        if let rows = openMergeRequestRows[key] { return (rows, 0) }
        if let everything = openMergeRequestRows.first(where: { Self.reachesEverything($0.key) }) {
            return (everything.value, 0)
        }
        let rows = try await reader.all(try MergeRequestQueryCommand(query: "\(key) is:mr is:open"))
        openMergeRequestRows[key] = rows
        return (rows, pages(rows.count))
    }

    /// Whether a scope's text names every repository the account reaches.
    private static func reachesEverything(_ scope: String) -> Bool {
        scope.split(separator: " ").contains("repo:*")
    }
}
