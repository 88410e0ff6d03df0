import Foundation
import GitbayKit

/// How one read goes, decided before it starts: which items' details it takes, what it does with
/// the read cache, and whether the rolling sweep and a read budget bound its per-repository reads.
///
/// ``ReadPlanner/read(_:from:at:policy:basis:)`` follows it and derives nothing: the rules of which
/// choices go together (an audit trusts no copy, only a trusted cache lets the sweep skip a
/// repository, a budget bounds a guarded read only) are applied here, once, when it is made, so
/// every command that reads states its policy and a test can pin it without a server.
public struct ReadPolicy: Sendable {
    /// Which items' details a read takes.
    public enum Scope: Sendable, Hashable {
        /// Every detail a verdict may depend on, whatever a guard holds back (`--read-all`).
        case audit
        /// Details only where they can change what a run under these guards does.
        case guarded(EvaluationOptions)
        /// A `watch` pass: these items' details alone, under these guards.
        case targets(WatchTargets, guards: EvaluationOptions)
        /// One item whole, with what the rules need of its repository (`explain`).
        case item(ItemReference)
    }

    /// What a read does with a read cache.
    public enum CacheUse: Sendable {
        /// It keeps nothing and trusts nothing.
        case none
        /// It keeps every detail read afresh in `cache`, and trusts no copy there (`--no-cache`, an audit).
        case refreshes(any ReadCache)
        /// Details in `cache` whose version still matches stand in for reads; what is read afresh is kept.
        case trusts(any ReadCache)
    }

    public let scope: Scope
    public let cache: CacheUse
    /// The rolling sweep's period (``RepositorySweep``): the feed is read to mark each repository's
    /// copy, and, where the cache is trusted, the repositories nothing changed in are skipped but
    /// for a rolling share; `nil` keeps no sweep, and every repository is read.
    public let sweepPeriod: TimeInterval?
    /// The most requests the read sends before the sweep's reads that no change asks for wait for
    /// the next runs; `nil` sets none.
    public let readBudget: Int?
    /// Whether the read takes the repositories' own rules files, and what their rules may do.
    ///
    /// `nil` reads none; a `watch` pass reads none yet, and `explain` its item's repository's.
    public var repositoryRules: RepositoryRulesPolicy?

    /// The policy of a read of `scope`; what `scope` rules out is dropped: an audit and `explain`
    /// trust no copy (what they show of an item is the server's now), `explain` keeps none, a
    /// `watch` pass and `explain` keep no sweep, and only a guarded read has a budget.
    public init(
        _ scope: Scope, cache: CacheUse = .none, sweepPeriod: TimeInterval? = nil, readBudget: Int? = nil
    ) {
        self.scope = scope
        switch (scope, cache) {
        case (.item, _): self.cache = .none
        case (.audit, .trusts(let kept)): self.cache = .refreshes(kept)
        default: self.cache = cache
        }
        switch scope {
        case .audit:
            self.sweepPeriod = sweepPeriod
            self.readBudget = nil
        case .guarded:
            self.sweepPeriod = sweepPeriod
            self.readBudget = readBudget
        case .targets, .item:
            self.sweepPeriod = nil
            self.readBudget = nil
        }
    }

    /// The guards the detail reads follow; `nil` reads every detail a verdict may depend on.
    public var guards: EvaluationOptions? {
        switch scope {
        case .guarded(let guards), .targets(_, let guards): return guards
        case .audit, .item: return nil
        }
    }

    /// The items a `watch` pass is about; `nil` for a read of everything.
    public var targets: WatchTargets? {
        if case .targets(let targets, _) = scope { return targets }
        return nil
    }

    /// The cache details are kept in, trusted or not.
    public var keptIn: (any ReadCache)? {
        switch cache {
        case .none: return nil
        case .refreshes(let cache), .trusts(let cache): return cache
        }
    }

    /// Whether copies in the cache stand in for reads.
    public var trustsCache: Bool {
        if case .trusts = cache { return true }
        return false
    }

    /// Whether the sweep may skip a repository on its copy (when the feed tells everything since
    /// the last run): a sweep is kept and its copies are trusted.
    public var sweepSkips: Bool { sweepPeriod != nil && trustsCache }

    /// Whether the read takes who did what from the feed itself: not a `watch` pass about chosen
    /// items, whose own poll read the feed's news and kept it.
    public var readsFeed: Bool { targets == nil }

    /// Whether the feed's activity is read even when no rule weighs it: a sweep tells where
    /// something changed from it, one request where each repository read saved is one.
    public var readsActivityForSweep: Bool { sweepPeriod != nil }
}
