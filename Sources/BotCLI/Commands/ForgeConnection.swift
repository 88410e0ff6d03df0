import ArgumentParsing
import Foundation
import GitbayClient

/// Builds the gitbay client from the command line and the environment.
///
/// Precedence: command-line options, then `GITBAY_URL` / `GITBAY_TOKEN`, then the default server.
/// The token never appears in any output.
enum ForgeConnection {
    static let defaultURL = "https://gitbay.org"

    static func client(
        _ invocation: Invocation, environment: [String: String], access: GitbayClientConfiguration.Access,
        console: any Console
    ) throws(CommandFailure) -> GitbayClient {
        let text = invocation.value("url") ?? environment["GITBAY_URL"] ?? defaultURL
        guard let url = URL(string: text), url.scheme != nil else {
            throw CommandFailure("'\(text)' is not a URL; write https://gitbay.example", code: .usage)
        }
        let token = try self.token(invocation, environment: environment)
        let rate = invocation.value("rate-limit") ?? "120"
        guard let requestsPerMinute = Double(rate), requestsPerMinute >= 1 else {
            throw CommandFailure("--rate-limit takes a number of requests a minute, not '\(rate)'", code: .usage)
        }
        let configuration = GitbayClientConfiguration(
            baseURL: url, token: token, access: access, allowInsecureHTTP: invocation.flag("allow-insecure-http"),
            rateLimits: RateLimits(requestsPerMinute: requestsPerMinute))
        let progress = console.isTerminal(.error)
        let onEvent: @Sendable (ClientEvent) -> Void = { event in
            guard progress, case .waiting(let duration, let reason) = event, duration >= .seconds(1) else { return }
            console.write("waiting \(duration.components.seconds) s: \(describe(reason))\n", to: .error)
        }
        do throws(GitbayError) {
            return try GitbayClient(
                configuration: configuration, transport: PlatformTransport.make(), onEvent: onEvent)
        } catch {
            throw CommandFailure(error)
        }
    }

    private static func describe(_ reason: ClientEvent.WaitReason) -> String {
        switch reason {
        case .pacing: return "pacing to the server's request budget"
        case .rateLimited: return "the server is rate-limiting this account"
        case .busy: return "the server is busy"
        case .tooManyWrites: return "the account's write budget is spent"
        case .backoff: return "backing off before a retry"
        }
    }

    private static func token(
        _ invocation: Invocation, environment: [String: String]
    ) throws(CommandFailure)
        -> BearerToken
    {
        if let path = invocation.value("token-file") {
            guard let data = FileManager.default.contents(atPath: path) else {
                throw CommandFailure("cannot read the token file \(path)", code: .usage)
            }
            let token = BearerToken(String(decoding: data, as: UTF8.self))
            guard !token.isEmpty else { throw CommandFailure("the token file \(path) is empty", code: .usage) }
            return token
        }
        if let value = environment["GITBAY_TOKEN"], !BearerToken(value).isEmpty {
            return BearerToken(value)
        }
        throw CommandFailure(
            "no API token: set GITBAY_TOKEN or pass --token-file (mint one on gitbay with "
                + "'token create --name gitbay-bot --scope full')", code: .usage)
    }
}
