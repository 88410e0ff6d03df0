/// Runs `body` with `resource`, then `stop`s it whether `body` returns or throws (a `defer`
/// cannot wait for an asynchronous stop).
func stopping<Resource, T>(
    _ resource: Resource, with stop: (Resource) async -> Void, _ body: (Resource) async throws -> T
) async throws -> T {
    do {
        let result = try await body(resource)
        await stop(resource)
        return result
    } catch {
        await stop(resource)
        throw error
    }
}
