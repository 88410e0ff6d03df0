import Foundation

/// When a rule may act: days of the week and ranges of clock time in a time zone.
///
/// Outside its window a rule's entries are held, so a bot run from cron at any hour acts only in
/// working hours, in the team's own zone. Whether an instant is inside is decided from the local
/// clock time Foundation's tz database gives for that instant, never from a fixed offset, so
/// daylight saving needs no special case: a clock time skipped in spring is never inside, one
/// repeated in autumn is inside both times.
public struct Schedule: Sendable, Hashable {
    /// The days whose clock times it opens on, as written; `nil` for every day.
    public var days: [Weekday]?
    /// The ranges of clock time, as written; empty for the whole day.
    public var hours: [HourRange]
    /// The time zone's name as written (`Europe/Berlin`, `UTC`), for messages and plans.
    public var zoneName: String
    public var timeZone: TimeZone

    /// The zone of a schedule that names none.
    public static let defaultZoneName = "UTC"

    public init(days: [Weekday]?, hours: [HourRange], zoneName: String, timeZone: TimeZone) {
        self.days = days
        self.hours = hours
        self.zoneName = zoneName
        self.timeZone = timeZone
    }

    /// Whether a schedule is open at an instant, and when it next opens if not.
    public struct Verdict: Sendable, Hashable {
        public var open: Bool
        /// The first instant after the one asked about at which it is open; `nil` when open.
        public var nextOpening: Date?
    }

    /// Whether the schedule is open at `date`, and its next opening when it is not.
    public func verdict(at date: Date) -> Verdict {
        let calendar = self.calendar
        if isOpen(at: date, calendar: calendar) { return Verdict(open: true, nextOpening: nil) }
        return Verdict(open: false, nextOpening: nextOpening(after: date, calendar: calendar))
    }

    /// Why a rule outside this schedule at `date` is held, naming the next opening in the
    /// schedule's zone (`outside its schedule; next window Mon 2026-11-30 09:00 Europe/Berlin`);
    /// `nil` when open.
    public func heldNote(at date: Date) -> String? {
        let verdict = verdict(at: date)
        guard !verdict.open else { return nil }
        guard let next = verdict.nextOpening else { return "outside its schedule" }
        return "outside its schedule; next window \(localTime(of: next))"
    }

    /// An instant as the schedule's zone reads it, with its date: `Mon 2026-11-30 09:00 Europe/Berlin`.
    ///
    /// The date is there because the next opening may be up to two weeks away (a window that a
    /// spring switch skips), and a weekday alone cannot tell this Monday from the next.
    public func localTime(of date: Date) -> String {
        let parts = calendar.dateComponents([.weekday, .year, .month, .day, .hour, .minute], from: date)
        let day = parts.weekday.flatMap(Weekday.init(rawValue:))?.title ?? ""
        let calendarDate = String(
            format: "%04d-%02d-%02d", parts.year ?? 0, parts.month ?? 0, parts.day ?? 0)
        let clock = HourRange.clock((parts.hour ?? 0) * 60 + (parts.minute ?? 0))
        return "\(day) \(calendarDate) \(clock) \(zoneName)"
    }

    /// The schedule in words: `mon, tue, wed, thu, fri 09:00-17:00 Europe/Berlin`.
    public var summary: String {
        let days = days.map { $0.map(\.name).joined(separator: ", ") } ?? "every day"
        let hours = hours.isEmpty ? "all day" : hours.map(\.description).joined(separator: ", ")
        return "\(days) \(hours) \(zoneName)"
    }

    private var calendar: Calendar {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        return calendar
    }

    private func opensOn(_ day: Weekday) -> Bool {
        days?.contains(day) ?? true
    }

    /// Whether the local clock time at `date` is in a range on an allowed day (or, for a range
    /// that wraps midnight, after midnight following an allowed day).
    private func isOpen(at date: Date, calendar: Calendar) -> Bool {
        let parts = calendar.dateComponents([.weekday, .hour, .minute], from: date)
        guard let day = parts.weekday.flatMap(Weekday.init(rawValue:)) else { return false }
        guard !hours.isEmpty else { return opensOn(day) }
        let minute = (parts.hour ?? 0) * 60 + (parts.minute ?? 0)
        return hours.contains { range in
            (opensOn(day) && range.contains(minute, sameDay: true))
                || (opensOn(day.previous) && range.contains(minute, sameDay: false))
        }
    }

    /// The earliest start of a range after `date` at which the schedule is open.
    ///
    /// A start whose clock time a spring switch skips falls to the first time after the gap, and
    /// counts only if that time is still inside the range (`02:00-03:00` on the night the clocks
    /// jump from 02:00 to 03:00 does not open at all). Two weeks are looked at, the most a weekly
    /// window can be away when one of its nights falls into a gap.
    private func nextOpening(after date: Date, calendar: Calendar) -> Date? {
        guard let noon = calendar.date(bySettingHour: 12, minute: 0, second: 0, of: date) else { return nil }
        let starts = hours.isEmpty ? [0] : hours.map(\.start)
        for offset in 0...14 {
            guard let day = calendar.date(byAdding: .day, value: offset, to: noon),
                let weekday = Weekday(rawValue: calendar.component(.weekday, from: day)), opensOn(weekday)
            else { continue }
            let openings = starts.compactMap { start in
                calendar.date(
                    bySettingHour: start / 60, minute: start % 60, second: 0, of: day, matchingPolicy: .nextTime,
                    repeatedTimePolicy: .first, direction: .forward)
            }.filter { $0 > date && isOpen(at: $0, calendar: calendar) }
            if let first = openings.min() { return first }
        }
        return nil
    }
}

extension Schedule: Codable {
    private enum CodingKeys: String, CodingKey {
        case days, hours, timezone
    }

    /// Reads a schedule as a plan stores it, the zone checked against the tz database.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let names = try container.decodeIfPresent([String].self, forKey: .days)
        let ranges = try container.decodeIfPresent([String].self, forKey: .hours) ?? []
        let zoneName = try container.decodeIfPresent(String.self, forKey: .timezone) ?? Self.defaultZoneName
        func corrupt(_ message: String) -> DecodingError {
            DecodingError.dataCorrupted(
                DecodingError.Context(codingPath: container.codingPath, debugDescription: message))
        }
        days = try names.map { names in
            try names.map { name in
                guard let day = Weekday(name: name) else { throw corrupt("unknown day '\(name)'") }
                return day
            }
        }
        hours = []
        for text in ranges {
            do throws(HourRange.ParseError) {
                hours.append(try HourRange(parsing: text))
            } catch {
                throw corrupt(error.message)
            }
        }
        switch TimeZoneDatabase.system.zone(named: zoneName) {
        case .success(let zone): timeZone = zone
        case .failure(let problem): throw corrupt(problem.message)
        }
        self.zoneName = zoneName
    }

    /// Writes the schedule as a rule file does: `days` left out for every day, `hours` for all day.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeIfPresent(days?.map(\.name), forKey: .days)
        if !hours.isEmpty { try container.encode(hours.map(\.description), forKey: .hours) }
        try container.encode(zoneName, forKey: .timezone)
    }
}
