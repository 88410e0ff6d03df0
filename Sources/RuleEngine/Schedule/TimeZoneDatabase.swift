import Foundation
import Suggestions

/// The time zones a schedule may name: the IANA names Foundation's tz database knows.
///
/// Foundation on Linux (6.x) reads zones from the ICU data it carries, not `/usr/share/zoneinfo`;
/// a Foundation without that data knows no zone at all, and a schedule must then fail with what to
/// install rather than act on UTC. The names are a value so that case is tested without removing
/// the data.
public struct TimeZoneDatabase: Sendable {
    /// Every zone name known, such as `Europe/Berlin`.
    public var identifiers: [String]

    /// The database of this process's Foundation.
    public static let system = TimeZoneDatabase(identifiers: TimeZone.knownTimeZoneIdentifiers)

    public init(identifiers: [String]) {
        self.identifiers = identifiers
    }

    /// Why a zone name cannot be used.
    public struct Problem: Error, Sendable, Hashable {
        public var message: String
    }

    /// The zone named `name`: `UTC`, or an IANA name the database knows.
    public func zone(named name: String) -> Result<TimeZone, Problem> {
        if name == Schedule.defaultZoneName { return .success(.gmt) }
        guard !identifiers.isEmpty else {
            return .failure(
                Problem(
                    message:
                        "the time-zone database is missing; install tzdata (no zone is known, not even '\(name)')"))
        }
        if identifiers.contains(name), let zone = TimeZone(identifier: name) { return .success(zone) }
        var message = "unknown time zone '\(name)'"
        if let suggestion = Suggestion.closest(to: name, among: identifiers) {
            message += "; did you mean '\(suggestion)'?"
        }
        return .failure(Problem(message: message + " (an IANA name such as Europe/Berlin, or UTC)"))
    }
}
