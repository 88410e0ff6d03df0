import ArgumentParsing
import Foundation
import GitbayClient

/// Builds the gitbay client from the resolved settings.
///
/// Which server and which token is decided once, in ``Settings``; this reads the token file and
/// wires the client's progress to the console. The token never appears in any output.
enum ForgeConnection {
    /// A client for a command that has not resolved its settings itself (`snapshot`).
    static func client(
        _ invocation: Invocation, environment: [String: String], access: GitbayClientConfiguration.Access,
        console: any Console
    ) throws(CommandFailure) -> GitbayClient {
        let settings = try ConfigurationLoader.settings(
            invocation: invocation, environment: environment, console: console)
        return try client(settings, access: access, console: console)
    }

    /// A client for `settings`; `observer` is told of every request and wait (`watch`'s telemetry).
    static func client(
        _ settings: Settings, access: GitbayClientConfiguration.Access, console: any Console,
        observer: (@Sendable (ClientEvent) -> Void)? = nil
    ) throws(CommandFailure) -> GitbayClient {
        let configuration = GitbayClientConfiguration(
            baseURL: settings.url, token: try token(settings.token, console: console), access: access,
            allowInsecureHTTP: settings.allowInsecureHTTP,
            rateLimits: RateLimits(requestsPerMinute: settings.rateLimit), maxResponseSize: settings.maxResponseSize)
        let progress = console.isTerminal(.error)
        let onEvent: @Sendable (ClientEvent) -> Void = { event in
            observer?(event)
            guard progress, case .waiting(let duration, let reason) = event, duration >= .seconds(1) else { return }
            console.write("waiting \(duration.components.seconds) s: \(describe(reason))\n", to: .error)
        }
        do throws(GitbayError) {
            return try GitbayClient(
                configuration: configuration, transport: PlatformTransport.make(), onEvent: onEvent)
        } catch {
            throw CommandFailure(error, server: settings.url)
        }
    }

    /// The server's URL as output may show it (errors, the status page, the metrics): without a
    /// user or password, which a URL can carry and no output may.
    static func shown(_ url: URL) -> String {
        guard var components = URLComponents(url: url, resolvingAgainstBaseURL: false) else { return url.host ?? "" }
        components.user = nil
        components.password = nil
        return components.string ?? url.host ?? ""
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
        _ source: Settings.TokenSource, console: any Console
    ) throws(CommandFailure) -> BearerToken {
        switch source {
        case .environment(let token):
            return token
        case .file(let path, let origin):
            return try TokenFile.read(path, origin: origin, console: console)
        case .missing:
            throw CommandFailure(
                "no API token: set GITBAY_TOKEN or pass --token-file (mint one on gitbay with "
                    + "'token create --name gitbay-bot --scope full')", code: .usage)
        }
    }
}
