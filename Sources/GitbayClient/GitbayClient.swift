import Foundation
import GitbayKit
import Synchronization
import Timekeeping

/// The gitbay control-protocol client: typed commands in, decoded payloads or ``GitbayError`` out.
///
/// It owns everything between a command and the wire: the endpoint and encoding, pacing to the
/// server's budgets so that a run does not draw a 429 in the first place, waiting out `Retry-After`,
/// retrying reads with capped exponential backoff and jitter, never retrying a write whose fate is
/// unknown, paging, counting what was spent, and, when read-only, refusing every write before any
/// I/O. One client may be used from many tasks at once.
///
/// Cancelling the task of a request ends its waits (pacing, `Retry-After`, backoff) at once, and
/// nothing is sent after: the request throws ``GitbayError/Kind/cancelled``. A read in flight is
/// given up; a write in flight is not, since its outcome would be unknown: it runs to its answer,
/// which is returned (or thrown) as usual.
public final class GitbayClient: Sendable {
    public let configuration: GitbayClientConfiguration
    private let transport: any HTTPTransport
    private let clock: any MonotonicClock
    private let jitter: @Sendable () -> Double
    private let onEvent: @Sendable (ClientEvent) -> Void
    private let admission: (any WriteAdmission)?
    private let pacer: RequestPacer
    private let builder: RequestBuilder
    private let interpreter: ResponseInterpreter
    private let counters = Mutex(ClientMetrics())

    /// Creates a client, or throws when the configuration is unusable (`http://` to a remote host).
    ///
    /// - Parameters:
    ///   - jitter: a source of numbers in 0...1 for backoff jitter; tests pass a fixed one.
    ///   - onEvent: told of every send, wait and retry, for progress output.
    ///   - admission: asked before each write is sent, so a stop that comes first keeps it unsent.
    public init(
        configuration: GitbayClientConfiguration, transport: any HTTPTransport,
        clock: any MonotonicClock = SystemClock(),
        jitter: @escaping @Sendable () -> Double = { Double.random(in: 0...1) },
        onEvent: @escaping @Sendable (ClientEvent) -> Void = { _ in }, admission: (any WriteAdmission)? = nil
    ) throws(GitbayError) {
        try configuration.validate()
        self.configuration = configuration
        self.transport = transport
        self.clock = clock
        self.jitter = jitter
        self.onEvent = onEvent
        self.admission = admission
        pacer = RequestPacer(limits: configuration.rateLimits, now: clock.now)
        builder = RequestBuilder(
            baseURL: configuration.baseURL, token: configuration.token, userAgent: configuration.userAgent,
            timeout: configuration.requestTimeout, maxResponseSize: configuration.maxResponseSize)
        interpreter = ResponseInterpreter(retry: configuration.retry, token: configuration.token)
    }

    /// A client of the same server and account whose requests pace with this one's, since gitbay's
    /// budgets are the account's, but which retries by `retry` and counts what it spends apart, in
    /// its own ``metrics``: for work beside the main one, such as `watch`'s check of the setup.
    public func sibling(retry: RetryPolicy) -> GitbayClient {
        var configuration = configuration
        configuration.retry = retry
        return GitbayClient(sharing: self, configuration: configuration)
    }

    private init(sharing other: GitbayClient, configuration: GitbayClientConfiguration) {
        self.configuration = configuration
        transport = other.transport
        clock = other.clock
        jitter = other.jitter
        onEvent = other.onEvent
        admission = other.admission
        pacer = other.pacer
        builder = other.builder
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
            let reservation = pacer.reserve(command.effect, now: clock.now)
            try await wait(reservation.wait, reason: .pacing(reservation.budget), argv: command.argv)
            let exchanged = try await transfer(request, of: command, attempt: attempt)
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

    /// Sends `request` once, unless the task was cancelled first (or, for a write, the admission
    /// says no): then nothing is sent and it throws ``GitbayError/Kind/cancelled``.
    ///
    /// A read follows its task's cancellation into the transport. A write, once on its way, runs
    /// in a task of its own that no cancellation reaches: cut off halfway, its outcome would be
    /// unknown, and a stop comes after the write in flight.
    private func transfer(
        _ request: HTTPRequest, of command: ControlCommand, attempt: Int
    ) async throws(GitbayError) -> Result<HTTPResponse, TransportError> {
        let isWrite = command.effect == .write
        let unsent = GitbayError(kind: .cancelled, message: "stopped before it was sent", argv: command.argv)
        guard !Task.isCancelled else { throw unsent }
        if isWrite, let admission, !admission.admitWrite() { throw unsent }
        defer { if isWrite { admission?.writeEnded() } }
        onEvent(.sending(argv: command.argv, effect: command.effect, attempt: attempt))
        counters.withLock { metrics in
            if isWrite { metrics.writes += 1 } else { metrics.reads += 1 }
            if attempt > 1 { metrics.retries += 1 }
        }
        let transport = self.transport
        let send = { @Sendable () async -> Result<HTTPResponse, TransportError> in
            do throws(TransportError) {
                return .success(try await transport.send(request))
            } catch {
                return .failure(error)
            }
        }
        guard isWrite else { return await send() }
        return await Task(operation: send).value
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
            // A wait comes before a first send or a resend, and a write is resent only when its
            // answer proved it unapplied: nothing of this command is on the server.
            throw GitbayError(kind: .cancelled, message: "stopped while waiting; not sent", argv: argv)
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
