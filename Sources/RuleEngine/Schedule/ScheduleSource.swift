import Suggestions
import YAML

/// A `schedule:` as written, in a rule or as the default in `gitbay-bot.yml`, every value located.
///
/// Both places decode it with this one type and check it with ``schedule(database:)``, so a zone,
/// a range or a day is diagnosed the same way, at its line and column, wherever it is written.
public struct ScheduleSource: Decodable, Sendable {
    /// Listed so the "did you mean" of an unknown key knows every real key.
    public enum CodingKeys: String, CodingKey, CaseIterable {
        case days, hours, timezone
    }

    public var days: Located<[Located<String>]>?
    public var hours: Located<[Located<String>]>?
    public var timezone: Located<String>?

    /// The checked schedule, or every mistake in it.
    public func schedule(database: TimeZoneDatabase = .system) -> Result<Schedule, YAMLError> {
        var diagnostics: [Diagnostic] = []
        var weekdays: [Weekday]?
        if let days {
            if days.value.isEmpty {
                diagnostics.append(
                    .error("'days:' needs at least one day; leave it out for every day", at: days.location))
            }
            weekdays = days.value.compactMap { day in
                if let weekday = Weekday(name: day.value) { return weekday }
                let names = Weekday.week.map(\.name)
                var message = "unknown day '\(day.value)'"
                if let suggestion = Suggestion.closest(to: day.value.lowercased(), among: names, maxDistance: 2) {
                    message += "; did you mean '\(suggestion)'?"
                }
                diagnostics.append(.error(message + " (days: \(names.joined(separator: ", ")))", at: day.location))
                return nil
            }
        }
        var ranges: [HourRange] = []
        if let hours {
            if hours.value.isEmpty {
                diagnostics.append(
                    .error("'hours:' needs at least one range; leave it out for the whole day", at: hours.location))
            }
            for range in hours.value {
                do {
                    ranges.append(try HourRange(parsing: range.value))
                } catch {
                    diagnostics.append(.error(error.message, at: range.location(ofScalarOffset: error.offset)))
                }
            }
        }
        let zoneName = timezone?.value ?? Schedule.defaultZoneName
        let zone = database.zone(named: zoneName)
        if case .failure(let problem) = zone, let timezone {
            diagnostics.append(.error(problem.message, at: timezone.location))
        }
        guard diagnostics.isEmpty, case .success(let timeZone) = zone else { return .failure(YAMLError(diagnostics)) }
        return .success(Schedule(days: weekdays, hours: ranges, zoneName: zoneName, timeZone: timeZone))
    }
}
