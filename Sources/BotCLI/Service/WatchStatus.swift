import Foundation
import GitbayClient
import RuleEngine

/// What a watcher has done and is doing, as one value: the source of `/metrics`, `/healthz`, the
/// status page and systemd's notifications.
///
/// The watcher and its client change it through ``WatchTelemetry``; readers take a copy, so a
/// scrape or a page never waits for a pass, and a pass never waits for a scrape.
struct WatchStatus: Sendable {
    /// Why the watcher or its client waits, as `waits_total` labels it.
    enum WaitCause: String, Sendable, CaseIterable, Comparable {
        /// The server answered 429, or refused a write as over the account's write budget.
        case rateLimit = "rate_limit"
        /// The server answered 503, or failed with a 5xx.
        case busy
        /// The network or the connection failed, or an answer was cut short or garbled.
        case transport
        /// The client's own pacing to the request budget (`--rate-limit`).
        case pacing

        static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }

        /// The cause of waiting after `error`, `nil` when waiting cannot mend it.
        init?(_ error: GitbayError) {
            switch error.kind {
            case .rateLimited: self = .rateLimit
            case .busy, .serverError: self = .busy
            case .transport, .malformedResponse: self = .transport
            default: return nil
            }
        }

        /// How the status page names it.
        var phrase: String {
            switch self {
            case .rateLimit: return "the server is rate-limiting this account"
            case .busy: return "the server is busy or failing"
            case .transport: return "the server cannot be reached"
            case .pacing: return "pacing to the request budget"
            }
        }
    }

    /// A wait under way: its cause and when it ends.
    struct Wait: Sendable, Hashable {
        var cause: WaitCause
        var until: Date
    }

    /// One finished pass, for the page's table.
    struct PassRecord: Sendable, Hashable {
        var kind: String
        var started: Date
        var ended: Date
        var requests: Int
        var actions: Int
        var applied: Int
        var failed: Int
    }

    /// One action from the state store's journal (or, in a dry run, from the last plan).
    struct ActionRecord: Sendable, Hashable {
        var at: Date
        var rule: String
        var item: String
        var command: String
        var outcome: String
        var reasons: [String]
    }

    /// The result of the last reload of the rules.
    struct Reload: Sendable, Hashable {
        var at: Date
        /// `nil` when it loaded; otherwise why the old rules stay.
        var failure: String?
    }

    /// A rule as the page lists it.
    struct LoadedRule: Sendable, Hashable {
        var name: String
        var kind: String
    }

    /// A label pair of `actions_total`.
    struct ActionKey: Sendable, Hashable, Comparable {
        var rule: String
        var outcome: String

        static func < (lhs: Self, rhs: Self) -> Bool { (lhs.rule, lhs.outcome) < (rhs.rule, rhs.outcome) }
    }

    /// How many passes and actions the page and the metrics keep.
    static let recentLimit = 50

    /// A count of webhook deliveries: their event kind and what came of them.
    struct DeliveryKey: Sendable, Hashable, Comparable {
        var event: String
        var outcome: String

        static func < (lhs: DeliveryKey, rhs: DeliveryKey) -> Bool {
            (lhs.event, lhs.outcome) < (rhs.event, rhs.outcome)
        }
    }

    /// The server's URL, which never carries the token.
    var server: String
    /// The account the token belongs to, once the server said.
    var account: String?
    var started: Date
    var interval: TimeInterval
    var fullEvery: TimeInterval
    var dryRun: Bool
    var passes: [String: Int] = ["full": 0, "events": 0, "idle": 0]
    var reads = 0
    var writes = 0
    var actions: [ActionKey: Int] = [:]
    /// The commands the passes judged that wait to be sent, or are being sent.
    var writesWaiting = 0
    /// How often the feed is polled now: `interval`, or the relaxed pace while webhook
    /// deliveries work.
    var pollEvery: TimeInterval
    /// Webhook deliveries by event kind and outcome (`accepted`, `duplicate`, `out-of-scope`,
    /// `bad-signature`, `too-large`, `not-a-delivery`, `inbox-full`).
    var deliveries: [DeliveryKey: Int] = [:]
    /// When the last delivery was accepted.
    var lastDelivery: Date?
    /// How deliveries stand (`unproven`, `working`, `failing`), when the watcher takes them.
    var deliveryHealth: String?
    /// Events the feed showed that never came as deliveries.
    var deliveriesMissed = 0
    /// The deliveries refused for a reason that says the bot and its hook disagree.
    var refusals = RefusedDeliveries()
    /// Whether deliveries fail: the feed showed an event none announced, or gitbay's are refused.
    var deliveriesFailing: Bool {
        deliveryHealth == DeliveryWatch.Health.failing.rawValue || refusals.failing
    }
    /// The repositories whose events arrive only by polling (no delivery came from them).
    var unhooked: [String] = []
    /// What the start's check of the hooks found, once it ended; `nil` while it runs (or without
    /// webhooks).
    var hookCheck: HookCheck?

    /// The outcome of the start's check of the hooks.
    struct HookCheck: Sendable, Hashable {
        /// What it looked at: "checked 1 repository", and what it could not.
        var summary: String
        /// What a person should fix, one line each.
        var problems: [String]
    }
    var waits: [WaitCause: Int] = Dictionary(uniqueKeysWithValues: WaitCause.allCases.map { ($0, 0) })
    var lastPassEnded: Date?
    var lastSuccessfulPassEnded: Date?
    /// The longest successful pass so far, which sets how long a pass may be expected to take.
    var longestPass: TimeInterval = 0
    /// When the pass under way started.
    var passStarted: Date?
    var currentWait: Wait?
    /// The cause of the client's last retry, which its backoff waits for.
    var retryCause: WaitCause?
    /// When the watcher, idle between passes, polls next.
    var nextPoll: Date?
    var nextFullPass: Date?
    var feedPosition: Int?
    var rules: [LoadedRule] = []
    var reloadFailures = 0
    var lastReload: Reload?
    var recentPasses: [PassRecord] = []
    var recentActions: [ActionRecord] = []
    /// The commands that wait in the bot's own queue (a `/merge` whose gates do not pass), as
    /// the last pass that judged their item saw them.
    var waitingCommands: [WaitingCommand] = []
    /// The rules the tripwire holds back whole, by name, with its note, as the last full pass
    /// judged them.
    var tripped: [String: String] = [:]

    /// A command waiting in the bot's own queue, and the item it waits on.
    struct WaitingCommand: Sendable, Hashable {
        var item: PlannedItem
        /// The plan's line for it (``PlanEntry/waitingNote``).
        var note: String
    }
    /// The last failure since the last successful pass, in one line.
    var lastFailure: String?
    /// When the watcher last showed it moves: a request sent, a wait begun, a pass begun or ended.
    var lastProgress: Date
    /// Whether the first full pass has ended (systemd's `READY=1`).
    var ready = false
    var stopping = false

    init(server: String, started: Date, interval: TimeInterval, fullEvery: TimeInterval, dryRun: Bool) {
        self.server = server
        self.started = started
        self.interval = interval
        self.fullEvery = fullEvery
        self.dryRun = dryRun
        pollEvery = interval
        lastProgress = started
    }
}
