import ArgumentParsing
import Foundation
import GitbayClient
import GitbayKit
import HTTPServer
import RuleEngine
import StateDatabase
import Watch
import Webhooks

/// `gitbay-bot watch`: a long-running process that acts on the forge's activity within seconds.
///
/// It starts with an ordinary run, then polls the activity feed once per interval: the events
/// newer than the last one handled name the items that may have changed, and only those are read
/// again (from the read cache where their version allows) and judged, with the same guards,
/// journal and dry run as `run`. A full pass every `--full-every` catches what no event announces
/// (time passing: `idle`) and heals anything missed; a feed that no longer reaches back to the
/// last event handled forces one. The position in the feed lives in the state database, so a
/// watcher started again goes on where the last one stopped.
struct WatchCommand: BotCommand {
    static let spec = CommandSpec(
        name: "watch",
        abstract: "Act on the forge's activity as it happens: poll the feed, judge only what changed.",
        discussion: """
            Starts with one full pass, then polls gitbay's activity feed every --interval and \
            re-reads and judges only the items the new events can affect; the bot's own events \
            trigger nothing. A full pass runs every --full-every, and whenever the feed no longer \
            reaches back to the last event handled. One line per pass on stdout (JSON lines with \
            --format json). SIGHUP reloads the rules (invalid rules are reported and the old ones \
            kept); SIGINT and SIGTERM end every wait and stop after the write in flight, if one is \
            (exit 130, 143). Busy servers, \
            rate limits and network trouble are waited out with a growing pause; a token the \
            server turns away is exit 1. With --listen it serves Prometheus metrics at /metrics, \
            /healthz (200 while a pass succeeded within max(3 intervals, twice the longest pass), \
            else 503 and why) and a status page at / (an address it cannot listen on is exit 1 at the \
            start). With --webhook-secret-file it also takes gitbay's webhook deliveries at POST \
            /hooks/gitbay (signed with that secret; others get 401), acts on each at once, pushes \
            included, which no feed shows, and polls ten times less often while they arrive. One \
            with gitbay's delivery headers refused for its signature turns /healthz to 503 at once, \
            said on stderr once, and polling back to --interval, until a delivery is accepted; an \
            event the feed shows that no delivery announced turns /healthz to 503, polling back to \
            --interval, and runs a full pass. Writes go out at gitbay's pace behind the passes, \
            answers to people before a full pass's backlog. Started by systemd as Type=notify, it says \
            READY=1 after the first full pass, STATUS= after each, STOPPING=1 on a stop, and feeds \
            the watchdog (WatchdogSec=) only while its passes and waits make progress.
            """,
        options: [
            SharedOptions.config.spec, SharedOptions.url, SharedOptions.tokenFile.spec, SharedOptions.insecure,
            SharedOptions.rateLimit.spec, SharedOptions.scope.spec, SharedOptions.maxActions.spec,
            SharedOptions.tripwireShare.spec,
            SharedOptions.tripwireFloor.spec, SharedOptions.force, SharedOptions.forceRule, SharedOptions.verbose,
            SharedOptions.stateDir.spec,
            SharedOptions.journal.spec,
            interval.spec, fullEvery.spec, dryRun, listen.spec, webhookSecretFile.spec, format.spec,
        ],
        positionals: [SharedOptions.rules]
    )

    static let interval = duration(
        .value(
            "interval", valueName: "duration", help: "How often to poll the feed (default 30s).", defaultValue: "30s"))
    static let fullEvery = duration(
        .value(
            "full-every", valueName: "duration",
            help: "How often to run a full pass, for time-based conditions (default 15m).", defaultValue: "15m"))
    static let dryRun = OptionSpec.flag("dry-run", help: "Plan every pass and write nothing.")
    static let listen = TypedOption<ListenAddress>(
        .value(
            "listen", valueName: "host:port",
            help:
                "Serve /metrics (Prometheus), /healthz and a status page on this address (loopback "
                + "unless an address says otherwise; off by default).")
    ) { text throws(CommandFailure) in
        do throws(HTTPServerError) {
            return try ListenAddress.parse(text)
        } catch {
            throw CommandFailure(error.message, code: .usage)
        }
    }
    static let webhookSecretFile = TypedOption<String>(
        .value(
            "webhook-secret-file", valueName: "path",
            help:
                "Take gitbay's webhook deliveries at POST /hooks/gitbay of --listen, checking their signature "
                + "with the secret in this file (default: webhook_secret_file in gitbay-bot.yml)."))
    static let format = TypedOption<OutputFormat>(
        .value(
            "format", valueName: "format", help: "How to print each pass.", allowedValues: ["text", "json"],
            defaultValue: "text"),
        expected: "text or json", parse: OutputFormat.init(rawValue:))

    /// A duration option of at least a second; its default is the spec's, so it is written once.
    private static func duration(_ spec: OptionSpec) -> TypedOption<TimeInterval> {
        TypedOption(spec, expected: "a duration of a second or more, such as 30s or 15m") { text in
            DurationLiteral.seconds(text).flatMap { $0 >= 1 ? $0 : nil }
        }
    }

    static var acceptsReloads: Bool { true }

    let planning: PlanningRun
    let interval: TimeInterval
    let fullEvery: TimeInterval
    let dryRun: Bool
    let listen: ListenAddress?
    /// `--webhook-secret-file`, when given on the command line.
    let webhookSecretFile: String?
    let json: Bool

    init(_ invocation: Invocation, context: CommandContext) throws(CommandFailure) {
        planning = try PlanningRun(invocation, context: context)
        interval = try Self.interval.defaultedValue(in: invocation)
        fullEvery = try Self.fullEvery.defaultedValue(in: invocation)
        dryRun = invocation.flag(Self.dryRun)
        listen = try Self.listen.value(in: invocation)
        webhookSecretFile = try Self.webhookSecretFile.value(in: invocation)
        json = try Self.format.defaultedValue(in: invocation) == .json
    }

    func run() async throws(CommandFailure) -> BotExitCode {
        let console = planning.console
        let control = planning.context.control
        let registry = planning.registry
        if let listen, !listen.isLoopback {
            console.write(
                "warning: --listen \(listen) serves /metrics, /healthz and the status page to every host that "
                    + "can reach this one; they show the server, the account, the rules and recent actions "
                    + "(never the token)\n", to: .error)
        }
        let settings = try planning.settings()
        let clock = planning.context.clock
        let telemetry = WatchTelemetry(
            server: ForgeConnection.shown(settings.url), interval: interval, fullEvery: fullEvery, dryRun: dryRun,
            clock: clock)
        let rules = try planning.loadRules(settings)
        let secret = try webhookSecret(settings, console: console)

        let client = try ForgeConnection.client(
            settings, access: dryRun ? .readOnly : .readWrite, console: console, control: control,
            observer: telemetry.record)
        let hooks = secret.map { secret in
            WebhookEndpoint(
                intake: WebhookIntake(path: WebhookCheck.endpointPath, secret: secret), inbox: WebhookInbox(),
                telemetry: telemetry, console: console)
        }
        let server = try serve(on: listen, telemetry, hooks: hooks, console: console)
        let notifier = SystemdNotifier(environment: planning.context.environment)
        let watchdog = notifier.flatMap { Watchdog(notifier: $0, telemetry: telemetry, clock: clock) }
        defer { watchdog?.stop() }
        var watcher = Watcher(
            rules: rules, settings: settings, client: client, dryRun: dryRun, interval: interval,
            fullEvery: fullEvery, json: json, verbose: planning.input.verbose,
            registry: registry, control: control, console: console, telemetry: telemetry, notifier: notifier,
            clock: clock, inbox: hooks?.inbox)
        let ended = await withTaskCancellationHandler { () async -> Result<BotExitCode, CommandFailure> in
            do throws(CommandFailure) {
                return .success(
                    try await watcher.watch { () throws(CommandFailure) in try planning.loadRules(settings) })
            } catch {
                return .failure(error)
            }
        } onCancel: {
            telemetry.stopping()
            notifier?.notify([
                "STOPPING=1", "STATUS=\(CommandControl.stopNote(writeInFlight: control.hasWriteInFlight))",
            ])
        }
        await server?.stopAndWait()
        return try ended.get()
    }

    /// The webhook secret, from `--webhook-secret-file` or `webhook_secret_file`.
    ///
    /// `nil` when neither is given. Deliveries come to `--listen`'s server, so the secret needs it.
    private func webhookSecret(_ settings: Settings, console: any Console) throws(CommandFailure) -> [UInt8]? {
        let source =
            webhookSecretFile.map { Settings.SourcedPath(path: $0, origin: "--webhook-secret-file") }
            ?? settings.webhookSecretFile
        guard let source else { return nil }
        guard listen != nil else {
            throw CommandFailure(
                "\(source.origin) takes webhook deliveries at POST /hooks/gitbay on the --listen address; "
                    + "give --listen host:port too", code: .usage)
        }
        return try WebhookSecret.read(source.path, origin: source.origin, console: console)
    }

    /// Starts the status server on `address`, before the first pass, so that a probe sees the start.
    ///
    /// With `hooks`, its path takes POST bodies (gitbay's deliveries) and the rest stays GET and HEAD.
    private func serve(
        on address: ListenAddress?, _ telemetry: WatchTelemetry, hooks: WebhookEndpoint?, console: any Console
    ) throws(CommandFailure) -> HTTPServer? {
        guard let address else { return nil }
        let endpoints = StatusEndpoints(telemetry: telemetry)
        do {
            let server = try HTTPServer.start(on: address, bodyRoutes: hooks.map { [$0.intake.bodyRoute] } ?? []) {
                request in
                if let hooks, request.path == hooks.intake.path { return hooks.respond(to: request) }
                return endpoints.respond(to: request)
            }
            var bound = address
            bound.port = server.port
            console.write("note: serving /metrics, /healthz and the status page at http://\(bound)/\n", to: .error)
            return server
        } catch {
            throw CommandFailure(error.message, code: .failure)
        }
    }
}
