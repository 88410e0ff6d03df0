import ArgumentParsing
import Foundation
import GitbayClient

/// Builds the gitbay client from the resolved settings.
///
/// Which server and which token is decided once, in ``Settings``; this reads the token file and
/// wires the client's progress to the console. The token never appears in any output.
enum ForgeConnection {
    /// A client for `settings`; `observer` is told of every request and wait (`watch`'s telemetry),
    /// and `control`, the command's, admits each write, so none goes out after a stop.
    static func client(
        _ settings: Settings, access: GitbayClientConfiguration.Access, console: any Console,
        control: CommandControl? = nil, observer: (@Sendable (ClientEvent) -> Void)? = nil
    ) throws(CommandFailure) -> GitbayClient {
        let configuration = GitbayClientConfiguration(
            baseURL: settings.url, token: try token(settings.token, console: console), access: access,
            allowInsecureHTTP: settings.allowInsecureHTTP,
            rateLimits: RateLimits(requestsPerMinute: settings.rateLimit), maxResponseSize: settings.maxResponseSize)
        let limits = configuration.rateLimits
        let onEvent: @Sendable (ClientEvent) -> Void = { event in
            observer?(event)
            guard case .waiting(let duration, let reason) = event, duration >= noticedWait else { return }
            console.write(
                "note: waiting \(Int(duration.seconds.rounded())) s \(describe(reason, limits: limits))\n", to: .error)
        }
        do throws(GitbayError) {
            return try GitbayClient(
                configuration: configuration, transport: PlatformTransport.make(), onEvent: onEvent,
                admission: control)
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

    /// The shortest wait the bot says it starts, on stderr, on a terminal or not: a run that sits
    /// silent for longer (`apply` pacing 35 s for the write budget) looks hung, in a cron log too.
    static let noticedWait = Duration.seconds(2)

    /// What a wait is for, after "waiting N s".
    private static func describe(_ reason: ClientEvent.WaitReason, limits: RateLimits) -> String {
        func rate(_ perMinute: Double?) -> String {
            guard let perMinute else { return "" }
            let shown = perMinute.rounded() == perMinute ? String(Int(perMinute)) : String(format: "%.1f", perMinute)
            return " (\(shown) a minute)"
        }
        switch reason {
        case .pacing(.requests): return "for gitbay's request budget\(rate(limits.requestsPerMinute))"
        case .pacing(.writes): return "for gitbay's write budget\(rate(limits.writesPerMinute))"
        case .pacing(.accountWrites):
            return "for the account's write budget across gitbay\(rate(limits.accountWritesPerMinute))"
        case .rateLimited: return "as the server asked (429): it is rate-limiting this account"
        case .busy: return "as the server asked (503): it is busy"
        case .tooManyWrites:
            return "as the server asked: the account's writes across gitbay are spent (too many writes)"
        case .backoff: return "before trying again"
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
