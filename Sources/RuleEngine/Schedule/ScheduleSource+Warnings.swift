import YAML

extension ScheduleSource {
    /// What a valid schedule holds that is likely a slip: a day named twice, or hour ranges that
    /// overlap, each at its line and column; `check` prints them and the rules still load.
    ///
    /// Neither changes the windows (a day twice is that day, overlapping ranges are their union),
    /// so neither is an error; but `hours: [09:00-17:00, 12:00-13:00]` was most likely meant as a
    /// lunch break, and nothing else would say that it is not one.
    public var warnings: [Diagnostic] {
        var warnings: [Diagnostic] = []
        var seen: Set<Weekday> = []
        for day in days?.value ?? [] {
            guard let weekday = Weekday(name: day.value) else { continue }
            if !seen.insert(weekday).inserted {
                warnings.append(.warning("'\(day.value)' is named twice in 'days:'", at: day.location))
            }
        }
        var ranges: [(range: HourRange, source: Located<String>)] = []
        for source in hours?.value ?? [] {
            guard let range = try? HourRange(parsing: source.value) else { continue }
            if let earlier = ranges.first(where: { Self.overlap($0.range, range) }) {
                warnings.append(
                    .warning(
                        "'\(range)' overlaps '\(earlier.range)': the window is both together; write one range, "
                            + "or two that do not meet", at: source.location))
            }
            ranges.append((range, source))
        }
        return warnings
    }

    /// Whether two ranges share a minute of the day; ranges that only touch (`09:00-12:00`,
    /// `12:00-17:00`) do not.
    static func overlap(_ first: HourRange, _ second: HourRange) -> Bool {
        let firstSpans = spans(first)
        return spans(second).contains { other in
            firstSpans.contains { $0.start < other.end && other.start < $0.end }
        }
    }

    /// The range as half-open spans of minutes within one day: two when it wraps midnight.
    private static func spans(_ range: HourRange) -> [(start: Int, end: Int)] {
        range.wraps ? [(range.start, HourRange.day), (0, range.end)] : [(range.start, range.end)]
    }
}
