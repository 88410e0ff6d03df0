import Webhooks

/// gitbay's deliveries the endpoint refused for a reason that says the bot and its hook disagree,
/// in spells: a spell begins at such a refusal and ends at the next delivery accepted.
///
/// A refused delivery is itself the sign that deliveries fail, and the surest: gitbay retries it
/// four times and then drops it (`internal/webhook/webhook.go`, `fail`), while the feed shows the
/// event only at the next poll, minutes later at the relaxed pace, and never shows a push. So a
/// spell counts as failing deliveries at once, and is said once, however many deliveries it
/// refuses. Pure: the endpoint tells it what it answered and says what it answers.
///
/// Which refusals count (``counts(_:claimsDelivery:)``) is chosen so that a client of the internet
/// cannot make noise of it cheaply: a refused signature counts only on a request that carries
/// gitbay's delivery headers, and a signed request is gitbay's (or a holder of the secret's).
/// Whoever copies the headers can still begin a spell, which the next delivery gitbay sends and
/// the bot accepts ends; a spell writes nothing, and polls the feed no more often than a watcher
/// without webhooks (``WatchMachine/deliveriesRefused()``).
struct RefusedDeliveries: Sendable, Hashable {
    /// What the endpoint answered a request, as far as the spells go.
    enum Answer: Sendable, Hashable {
        /// Refused for `reason` (``reason(for:)``), a refusal that ``counts(_:claimsDelivery:)``.
        case refused(reason: String)
        /// A signed delivery taken with a 2xx (accepted, or acknowledged outside the rules'
        /// scope): the bot and its hook agree.
        case taken
        /// Anything else: a refusal that does not count, or a full inbox (gitbay retries).
        case neither
    }

    /// What an answer did to the spells.
    enum Turn: Sendable, Hashable {
        /// A spell began: say so, once.
        case began(reason: String)
        /// A delivery was accepted after `refused` refusals: the spell is over.
        case ended(refused: Int)
    }

    /// The refusals counted since the watcher started.
    private(set) var total = 0
    /// The refusals of the spell under way; 0 when none is.
    private(set) var inSpell = 0
    /// Why the spell's last delivery was refused, in the words of ``reason(for:)``; `nil` when no
    /// spell is under way.
    private(set) var lastReason: String?

    /// Whether a spell is under way: deliveries fail.
    var failing: Bool { inSpell > 0 }

    /// Whether `refusal` says the bot and its hook disagree, given whether the request carries
    /// gitbay's delivery headers (``WebhookIntake/claimsDelivery(_:)``).
    ///
    /// A wrong or missing signature counts on a request that claims to be a delivery: gitbay sends
    /// its headers on every attempt, a scanner or a person's browser does not. A request whose
    /// signature held but that is no delivery the bot reads counts whatever its headers: it is
    /// gitbay's, and lost. A path, a method or a size gitbay never sends says nothing of the
    /// hook, and counts never.
    static func counts(_ refusal: WebhookRefusal, claimsDelivery: Bool) -> Bool {
        switch refusal {
        case .noSecret, .missingSignature, .badSignature: claimsDelivery
        case .notADelivery: true
        case .notFound, .methodNotAllowed, .bodyTooLarge: false
        }
    }

    /// What `refusal` says is wrong with the hook, and what to look at; never the secret.
    static func reason(for refusal: WebhookRefusal) -> String {
        switch refusal {
        case .badSignature:
            "the signature does not match the body: the hook signs with another secret than the webhook secret file's"
        case .missingSignature:
            "the delivery is not signed: the hook has no secret (add it again with --secret -)"
        case .notADelivery(let why):
            "a signed delivery this bot cannot read (\(why)): gitbay sends what this version does not know"
        case .noSecret, .notFound, .methodNotAllowed, .bodyTooLarge:
            refusal.message
        }
    }

    /// Takes what the endpoint answered a request: answers the spell that began or ended, `nil`
    /// when none did.
    mutating func record(_ answer: Answer) -> Turn? {
        switch answer {
        case .refused(let reason):
            total += 1
            inSpell += 1
            lastReason = reason
            return inSpell == 1 ? .began(reason: reason) : nil
        case .taken:
            guard failing else { return nil }
            defer { (inSpell, lastReason) = (0, nil) }
            return .ended(refused: inSpell)
        case .neither:
            return nil
        }
    }
}
