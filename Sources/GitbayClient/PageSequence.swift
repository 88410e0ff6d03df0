import GitbayKit

/// The pages of a cursor-paged listing, each fetched when the iteration reaches it.
///
/// It follows `next` until the server omits it, and stops with an error if the server ever hands
/// back a cursor it already gave, so a misbehaving server cannot make a run loop for ever.
public struct PageSequence<Command: PagedCommand>: AsyncSequence, Sendable {
    public typealias Element = Page<Command.Item>

    let client: GitbayClient
    let first: Command

    public func makeAsyncIterator() -> Iterator {
        Iterator(client: client, next: first)
    }

    /// Fetches one page per step.
    public struct Iterator: AsyncIteratorProtocol {
        let client: GitbayClient
        var next: Command?
        var seenCursors: Set<String> = []

        init(client: GitbayClient, next: Command) {
            self.client = client
            self.next = next
        }

        public mutating func next() async throws -> Page<Command.Item>? {
            try await nextPage()
        }

        /// The next page, or `nil` after the last; the typed-throws form of ``next()``.
        public mutating func nextPage() async throws(GitbayError) -> Page<Command.Item>? {
            guard let command = next else { return nil }
            let page = try await client.send(command)
            if let cursor = page.next {
                guard seenCursors.insert(cursor).inserted else {
                    next = nil
                    throw GitbayError(
                        kind: .malformedResponse, message: "the server repeated the page cursor '\(cursor)'",
                        argv: command.argv)
                }
                var following = command
                following.cursor = cursor
                next = following
            } else {
                next = nil
            }
            return page
        }
    }
}
