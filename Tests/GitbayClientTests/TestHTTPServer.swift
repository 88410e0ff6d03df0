import GitbayTestSupport
import Testing

/// The one ``TransportTestServer`` a suite of transport tests shares.
///
/// Starting a server per test would put dozens of Python start-ups on a two-core runner at once.
/// Tests keep apart by putting a unique marker in their paths when they read the server's log.
enum TestHTTPServer {
    /// The server of the suite being run, set by ``Scope``.
    @TaskLocal static var current: TransportTestServer?

    /// The suite's server; fails the test when the suite lacks the ``Scope`` trait.
    static func shared() throws -> TransportTestServer {
        try #require(current, "the suite needs the .testHTTPServer trait")
    }

    /// A suite trait that runs one server for the whole suite and stops it when the suite ends.
    struct Scope: SuiteTrait, TestScoping {
        var isRecursive: Bool { false }

        func provideScope(
            for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
        ) async throws {
            try await TransportTestServer.run { server in
                try await TestHTTPServer.$current.withValue(server) {
                    try await function()
                }
            }
        }
    }
}

extension Trait where Self == TestHTTPServer.Scope {
    /// Runs the suite with one local ``TransportTestServer``, reachable through `TestHTTPServer.shared()`.
    static var testHTTPServer: Self { Self() }
}
