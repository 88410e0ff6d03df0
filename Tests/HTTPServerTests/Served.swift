import GitbayTestSupport

@testable import HTTPServer

/// Waits until `server` holds at least `descriptors` open, at most 20 s; answers whether it did.
///
/// The count is the listener, the wakeup pipe's two ends and the connections the server has
/// taken, so a test sees its clients served before it goes on; polled through ``eventually``, the
/// suite's one poll, since the server signals nothing as it takes a connection.
func served(_ server: HTTPServer, descriptors: Int) async throws -> Bool {
    try await eventually(within: 20, every: .milliseconds(10)) { server.loop.openDescriptors.count >= descriptors }
}
