import Foundation
import GitbayKit

/// Decides what one HTTP answer means: a payload, a failure to report, or a wait and a retry.
///
/// A pure function of the command, the answer and the retry policy, so every branch of gitbay's
/// error model (statuses, exit codes, pre-dispatch refusals) is tested without a server.
struct ResponseInterpreter: Sendable {
    /// What to do with an answer.
    enum Verdict<Payload: Decodable & Sendable>: Sendable {
        case success(Envelope<Payload>)
        case retry(Retry)
        case fail(GitbayError)
    }

    /// A failure worth sending the request again for.
    struct Retry: Sendable {
        var error: GitbayError
        /// The least wait the server asked for; `nil` means backoff.
        var wait: Duration?
        var reason: ClientEvent.WaitReason
        /// The budget the server said is spent, to hold back for `wait`.
        var hold: RequestPacer.HoldScope?
    }

    let retry: RetryPolicy
    let token: BearerToken

    func interpret<Payload: Decodable & Sendable>(
        _ response: HTTPResponse, for command: ControlCommand, as payload: Payload.Type
    ) -> Verdict<Payload> {
        let isWrite = command.effect == .write
        guard let probe = Self.probe(response.body) else {
            return undecodable(response, command: command)
        }
        let message = token.redact(probe.error ?? probe.output ?? "")
        let retryAfter = Self.retryAfter(header: response.header("Retry-After"), message: message)
        func error(_ kind: GitbayError.Kind, mayHaveApplied: Bool = false) -> GitbayError {
            GitbayError(
                kind: kind, message: message.isEmpty ? "HTTP \(response.status)" : message, argv: command.argv,
                httpStatus: response.status, exitCode: probe.exitCode, retryAfter: retryAfter,
                mayHaveApplied: isWrite && mayHaveApplied)
        }
        if let version = probe.protocolVersion, version != 1 {
            return .fail(error(.unsupportedProtocol(version)))
        }

        switch (response.status, probe.exitCode) {
        case (200..<300, nil), (200..<300, 0):
            do {
                let envelope = try JSONDecoder().decode(Envelope<Payload>.self, from: response.body)
                return .success(envelope)
            } catch {
                return .fail(
                    GitbayError(
                        kind: .malformedResponse,
                        message: "the reply to this command did not decode: \(Self.describe(error))",
                        argv: command.argv, httpStatus: response.status, exitCode: probe.exitCode,
                        // The command ran (a success status): a write took effect though its reply is unreadable.
                        mayHaveApplied: isWrite))
            }
        case (401, _):
            return .fail(error(.unauthorized))
        case (429, _):
            // The limiter runs before dispatch, so a refused write was not applied: safe to resend.
            return waitOrFail(
                error(.rateLimited), wait: retryAfter, reason: .rateLimited,
                hold: isWrite ? .writes : .requests)
        case (503, _):
            // A busy refusal turns the command away before it runs.
            return waitOrFail(error(.busy), wait: retryAfter, reason: .busy, hold: nil)
        case (_, 4?) where message.hasPrefix("too many writes"):
            return waitOrFail(
                error(.rateLimited), wait: retryAfter ?? .seconds(10), reason: .tooManyWrites,
                hold: .accountWrites)
        case (_, 4?):
            return .fail(error(.denied))
        case (_, 3?):
            return .fail(error(.notFound))
        case (_, 2?):
            return .fail(error(.usage))
        case (_, 1?):
            return .fail(error(.failure))
        case (_, .some):
            // Exit 5 and unknown codes: the command ran and the server broke; a read can try again.
            let failure = error(.serverError, mayHaveApplied: true)
            return isWrite ? .fail(failure) : .retry(Retry(error: failure, reason: .backoff))
        case (400, nil), (404, nil):
            // Refused before dispatch: a bad body, an unknown command, or a write sent as a read.
            return .fail(error(.usage))
        case (500..<600, nil):
            // A gitbay envelope without exit_code: refused before dispatch (e.g. a store failure
            // during auth), so even a write was not applied.
            return .retry(Retry(error: error(.serverError), reason: .backoff))
        default:
            return .fail(error(.malformedResponse))
        }
    }

    /// What a failed exchange means when no HTTP answer came back at all: a retry, or the error.
    func interpret(_ failure: TransportError, for command: ControlCommand) throws(GitbayError) -> Retry {
        let isWrite = command.effect == .write
        let error = GitbayError(
            kind: .transport(failure), message: Self.describe(failure), argv: command.argv,
            mayHaveApplied: isWrite && failure.mayHaveReachedServer)
        switch failure {
        case .cancelled:
            throw GitbayError(kind: .cancelled, message: "cancelled", argv: command.argv, mayHaveApplied: isWrite)
        case .cannotConnect:
            return Retry(error: error, reason: .backoff)
        case .responseTooLarge:
            // An answer past the cap is no gitbay reply, handled like any other: a read is sent
            // again, a write may have run before its answer went wrong.
            let malformed = GitbayError(
                kind: .malformedResponse, message: error.message, argv: command.argv, mayHaveApplied: isWrite)
            if isWrite { throw malformed }
            return Retry(error: malformed, reason: .backoff)
        case .timedOut, .connectionLost, .other:
            if isWrite { throw error }
            return Retry(error: error, reason: .backoff)
        case .tls, .redirectRefused:
            throw error
        }
    }

    private func waitOrFail<Payload: Decodable & Sendable>(
        _ error: GitbayError, wait: Duration?, reason: ClientEvent.WaitReason, hold: RequestPacer.HoldScope?
    ) -> Verdict<Payload> {
        if let wait, wait > retry.maxRetryAfter {
            return .fail(error)
        }
        return .retry(Retry(error: error, wait: wait, reason: reason, hold: hold))
    }

    /// An answer that is not a JSON envelope: a proxy's error page, a truncated or garbled body.
    private func undecodable<Payload: Decodable & Sendable>(
        _ response: HTTPResponse, command: ControlCommand
    ) -> Verdict<Payload> {
        let isWrite = command.effect == .write
        let status = response.status
        let error = GitbayError(
            kind: status == 429 ? .rateLimited : status == 503 ? .busy : .malformedResponse,
            message: "the server's answer is not a gitbay reply (HTTP \(status), \(response.body.count) bytes)",
            argv: command.argv, httpStatus: status,
            retryAfter: Self.retryAfter(header: response.header("Retry-After"), message: ""),
            // A success status means the command ran; anything else may come from a proxy before it.
            mayHaveApplied: isWrite)
        if isWrite {
            return .fail(error)
        }
        return waitOrFail(error, wait: error.retryAfter, reason: .backoff, hold: nil)
    }

    /// The envelope fields needed to classify an answer, whatever the payload's type.
    private struct Probe: Decodable {
        var protocolVersion: Int?
        var error: String?
        var exitCode: Int?
        var output: String?

        enum CodingKeys: String, CodingKey {
            case protocolVersion = "protocol_version"
            case error
            case exitCode = "exit_code"
            case output
        }
    }

    private static func probe(_ body: Data) -> Probe? {
        guard let object = try? JSONSerialization.jsonObject(with: body), object is [String: Any] else {
            return nil
        }
        return try? JSONDecoder().decode(Probe.self, from: body)
    }

    /// The wait the server asked for: the `Retry-After` header (integer seconds), or the
    /// "try again in 7s" / "retry in 7s" of a message.
    static func retryAfter(header: String?, message: String) -> Duration? {
        if let header, let seconds = Int(header.trimmingCharacters(in: .whitespaces)), seconds >= 0 {
            return .seconds(seconds)
        }
        for marker in ["try again in ", "retry in "] {
            guard let range = message.range(of: marker) else { continue }
            let digits = message[range.upperBound...].prefix { $0.isNumber }
            if let seconds = Int(digits) {
                return .seconds(seconds)
            }
        }
        return nil
    }

    private static func describe(_ error: any Error) -> String {
        switch error {
        case DecodingError.keyNotFound(let key, let context):
            return "missing key '\(key.stringValue)' at \(path(context.codingPath))"
        case DecodingError.typeMismatch(_, let context), DecodingError.valueNotFound(_, let context),
            DecodingError.dataCorrupted(let context):
            return "\(context.debugDescription) at \(path(context.codingPath))"
        default:
            return "\(error)"
        }
    }

    private static func path(_ codingPath: [any CodingKey]) -> String {
        codingPath.isEmpty
            ? "the top level"
            : codingPath.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }
                .joined(separator: ".")
    }

    static func describe(_ failure: TransportError) -> String {
        switch failure {
        case .timedOut: return "no complete answer before the deadline"
        case .cannotConnect(let detail): return "cannot connect: \(detail)"
        case .connectionLost(let detail): return "the connection broke: \(detail)"
        case .tls(let detail): return "TLS failed: \(detail)"
        case .redirectRefused(let host):
            return "the server redirected to another host (\(host)); the token is never sent there"
        case .responseTooLarge(let cap): return "the server's answer passed the \(cap) cap (max_response_size)"
        case .cancelled: return "cancelled"
        case .other(let detail): return detail
        }
    }
}

extension TransportError {
    /// Whether the request may have reached the server and run there.
    var mayHaveReachedServer: Bool {
        switch self {
        case .cannotConnect, .tls, .redirectRefused: return false
        case .timedOut, .connectionLost, .responseTooLarge, .cancelled, .other: return true
        }
    }
}
