import Foundation
import GitbayKit
import Synchronization

/// The gitbay control-protocol client: typed commands in, decoded payloads or ``GitbayError`` out.
///
/// It owns everything between a command and the wire: the endpoint and encoding, pacing to the
/// server's budgets so that a run does not draw a 429 in the first place, waiting out `Retry-After`,
/// retrying reads with capped exponential backoff and jitter, never retrying a write whose fate is
/// unknown, paging, counting what was spent, and, when read-only, refusing every write before any
/// I/O. One client may be used from many tasks at once.
public final class GitbayClient: Sendable {
    public let configuration: GitbayClientConfiguration
    private let transport: any HTTPTransport
    private let clock: any ClientClock
    private let jitter: @Sendable () -> Double
    private let onEvent: @Sendable (ClientEvent) -> Void
    private let pacer: RequestPacer
    private let builder: RequestBuilder
    private let interpreter: ResponseInterpreter
    private let counters = Mutex(ClientMetrics())

    /// Creates a client, or throws when the configuration is unusable (`http://` to a remote host).
    ///
    /// - Parameters:
    ///   - jitter: a source of numbers in 0...1 for backoff jitter; tests pass a fixed one.
    ///   - onEvent: told of every send, wait and retry, for progress output.
    public init(
        configuration: GitbayClientConfiguration, transport: any HTTPTransport,
        clock: any ClientClock = SystemClientClock(),
        jitter: @escaping @Sendable () -> Double = { Double.random(in: 0...1) },
        onEvent: @escaping @Sendable (ClientEvent) -> Void = { _ in }
    ) throws(GitbayError) {
        try configuration.validate()
        self.configuration = configuration
        self.transport = transport
        self.clock = clock
        self.jitter = jitter
        self.onEvent = onEvent
        pacer = RequestPacer(limits: configuration.rateLimits, now: clock.now)
        builder = RequestBuilder(
            baseURL: configuration.baseURL, token: configuration.token, userAgent: configuration.userAgent,
            timeout: configuration.requestTimeout, maxResponseSize: configuration.maxResponseSize)
        interpreter = ResponseInterpreter(retry: configuration.retry, token: configuration.token)
    }

    /// What this client has spent so far.
    public var metrics: ClientMetrics {
        counters.withLock { $0 }
    }

    /// Whether writes are refused (a dry run).
    public var isReadOnly: Bool { configuration.access == .readOnly }

    /// Runs a typed command and returns its decoded payload.
    public func send<Command: GitbayCommand>(_ command: Command) async throws(GitbayError) -> Command.Response {
        let envelope = try await exchange(command.control, as: Command.Response.self)
        guard let data = envelope.data ?? Command.emptyResponse else {
            throw GitbayError(
                kind: .malformedResponse, message: "the reply carries no data", argv: command.argv,
                exitCode: envelope.exitCode)
        }
        return data
    }

    /// Runs an erased command (as a saved plan holds it) and returns the whole envelope.
    public func send<Payload: Decodable & Sendable>(
        _ command: ControlCommand, expecting payload: Payload.Type
    ) async throws(GitbayError) -> Envelope<Payload> {
        try await exchange(command, as: payload)
    }

    /// The pages of a listing, fetched one request at a time as the sequence is iterated.
    public func pages<Command: PagedCommand>(_ command: Command) -> PageSequence<Command> {
        var first = command
        first.limit = min(max(first.limit, 1), configuration.pageLimit)
        first.cursor = nil
        return PageSequence(client: self, first: first)
    }

    /// Every row of a listing, following `next` until the last page.
    public func all<Command: PagedCommand>(_ command: Command) async throws(GitbayError) -> [Command.Item] {
        var rows: [Command.Item] = []
        var iterator = pages(command).makeAsyncIterator()
        while let page = try await iterator.nextPage() {
            rows += page.items
        }
        return rows
    }

    private func exchange<Payload: Decodable & Sendable>(
        _ command: ControlCommand, as payload: Payload.Type
    ) async throws(GitbayError) -> Envelope<Payload> {
        if command.effect == .write && isReadOnly {
            counters.withLock { $0.refusedWrites += 1 }
            throw GitbayError(
                kind: .readOnlyClient,
                message: "this is a read-only run (dry run); the write was not sent", argv: command.argv)
        }
        let request = builder.request(for: command)
        var attempt = 0
        while true {
            attempt += 1
            try await wait(pacer.reserve(command.effect, now: clock.now), reason: .pacing, argv: command.argv)
            onEvent(.sending(argv: command.argv, effect: command.effect, attempt: attempt))
            counters.withLock { metrics in
                if command.effect == .write { metrics.writes += 1 } else { metrics.reads += 1 }
                if attempt > 1 { metrics.retries += 1 }
            }

            let exchanged: Result<HTTPResponse, TransportError>
            do {
                exchanged = .success(try await transport.send(request))
            } catch {
                exchanged = .failure(error)
            }
            let retry: ResponseInterpreter.Retry
            switch exchanged {
            case .success(let response):
                switch interpreter.interpret(response, for: command, as: payload) {
                case .success(let envelope):
                    return envelope
                case .fail(let error):
                    throw error
                case .retry(let verdict):
                    retry = verdict
                }
            case .failure(let error):
                retry = try interpreter.interpret(error, for: command)
            }
            count(reason: retry.reason)
            if let wait = retry.wait, let hold = retry.hold {
                pacer.hold(hold, for: wait, now: clock.now)
            }

            guard attempt < configuration.retry.maxAttempts else { throw retry.error }
            let delay = retry.wait ?? configuration.retry.backoff(afterAttempt: attempt, jitter: jitter())
            onEvent(.retrying(argv: command.argv, attempt: attempt + 1, failure: retry.error))
            try await wait(delay, reason: retry.reason, argv: command.argv)
        }
    }

    private func count(reason: ClientEvent.WaitReason) {
        counters.withLock { metrics in
            switch reason {
            case .rateLimited: metrics.rateLimitedResponses += 1
            case .busy: metrics.busyResponses += 1
            case .tooManyWrites: metrics.tooManyWritesResponses += 1
            case .pacing, .backoff: break
            }
        }
    }

    private func wait(_ duration: Duration, reason: ClientEvent.WaitReason, argv: [String]) async throws(GitbayError) {
        guard duration > .zero else { return }
        onEvent(.waiting(duration, reason: reason))
        do {
            try await clock.sleep(for: duration)
        } catch {
            throw GitbayError(kind: .cancelled, message: "cancelled while waiting", argv: argv)
        }
        counters.withLock { metrics in
            switch reason {
            case .pacing: metrics.pacingWait += duration
            case .rateLimited, .busy, .tooManyWrites: metrics.serverWait += duration
            case .backoff: metrics.backoffWait += duration
            }
        }
    }
}
