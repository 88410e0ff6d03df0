import Foundation

/// Parses and formats gitbay's timestamp strings without a `DateFormatter`.
///
/// gitbay writes times in two SQLite forms: milliseconds for issues, merge requests, comments and
/// reviews (`2026-09-23T23:26:00.570Z`) and whole seconds for builds (`2026-09-02T14:03:11Z`); Go
/// `time.Time` fields add RFC 3339 with nanoseconds. One small hand-written parser accepts all of them
/// identically on Linux and iOS, and the formatter writes each field back in the form it came in.
public enum GitbayTimestamp {
    /// How many fractional digits a written timestamp carries.
    public enum Precision: Sendable, Hashable {
        /// `2026-09-23T23:26:00.570Z`: issues, merge requests, comments, reviews, checks.
        case milliseconds
        /// `2026-09-02T14:03:11Z`: builds.
        case seconds
    }

    /// Parses `YYYY-MM-DDTHH:MM:SS[.fraction][Z|±HH:MM]`; a missing zone means UTC.
    ///
    /// A space instead of `T` is accepted too, since SQLite's own `datetime()` writes one.
    public static func parse(_ text: String) -> Date? {
        let bytes = Array(text.utf8)
        guard bytes.count >= 19, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-"),
            [UInt8(ascii: "T"), UInt8(ascii: "t"), UInt8(ascii: " ")].contains(bytes[10]),
            bytes[13] == UInt8(ascii: ":"), bytes[16] == UInt8(ascii: ":"),
            let year = number(bytes, at: 0, digits: 4), let month = number(bytes, at: 5, digits: 2),
            let day = number(bytes, at: 8, digits: 2), let hour = number(bytes, at: 11, digits: 2),
            let minute = number(bytes, at: 14, digits: 2), let second = number(bytes, at: 17, digits: 2),
            (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60, second <= 60
        else { return nil }
        var index = 19
        var nanoseconds = 0
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            var scale = 100_000_000
            let start = index
            while index < bytes.count, let digit = digitValue(bytes[index]) {
                nanoseconds += digit * scale
                scale /= 10
                index += 1
            }
            guard index > start else { return nil }
        }
        var offset = 0
        if index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: "Z"), UInt8(ascii: "z"):
                index += 1
            case UInt8(ascii: "+"), UInt8(ascii: "-"):
                guard index + 6 == bytes.count, bytes[index + 3] == UInt8(ascii: ":"),
                    let hours = number(bytes, at: index + 1, digits: 2),
                    let minutes = number(bytes, at: index + 4, digits: 2)
                else { return nil }
                offset = (hours * 3600 + minutes * 60) * (bytes[index] == UInt8(ascii: "-") ? -1 : 1)
                index += 6
            default:
                return nil
            }
        }
        guard index == bytes.count else { return nil }
        let days = daysFromCivil(year: year, month: month, day: day)
        let seconds = days * 86_400 + hour * 3600 + minute * 60 + second - offset
        return Date(timeIntervalSince1970: Double(seconds) + Double(nanoseconds) / 1_000_000_000)
    }

    /// Formats a date in UTC with the given precision, as gitbay writes it.
    public static func format(_ date: Date, precision: Precision) -> String {
        let milliseconds = Int((date.timeIntervalSince1970 * 1000).rounded())
        var seconds = milliseconds.quotientRoundingDown(by: 1000)
        let fraction = milliseconds - seconds * 1000
        if precision == .seconds, fraction >= 500 {
            seconds += 1
        }
        let days = seconds.quotientRoundingDown(by: 86_400)
        let secondOfDay = seconds - days * 86_400
        let (year, month, day) = civilFromDays(days)
        var text =
            "\(padded(year, 4))-\(padded(month, 2))-\(padded(day, 2))T"
            + "\(padded(secondOfDay / 3600, 2)):\(padded(secondOfDay % 3600 / 60, 2)):\(padded(secondOfDay % 60, 2))"
        if precision == .milliseconds {
            text += ".\(padded(fraction, 3))"
        }
        return text + "Z"
    }

    private static func digitValue(_ byte: UInt8) -> Int? {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) ? Int(byte - UInt8(ascii: "0")) : nil
    }

    private static func number(_ bytes: [UInt8], at start: Int, digits: Int) -> Int? {
        guard start + digits <= bytes.count else { return nil }
        var value = 0
        for index in start..<(start + digits) {
            guard let digit = digitValue(bytes[index]) else { return nil }
            value = value * 10 + digit
        }
        return value
    }

    private static func padded(_ value: Int, _ width: Int) -> String {
        let digits = String(value)
        return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }

    /// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's algorithm).
    private static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
        let shiftedYear = month <= 2 ? year - 1 : year
        let era = shiftedYear.quotientRoundingDown(by: 400)
        let yearOfEra = shiftedYear - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The inverse of ``daysFromCivil(year:month:day:)``.
    private static func civilFromDays(_ days: Int) -> (year: Int, month: Int, day: Int) {
        let shifted = days + 719_468
        let era = shifted.quotientRoundingDown(by: 146_097)
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }
}

extension Int {
    /// Floor division, so that times before 1970 still split into whole days and seconds.
    fileprivate func quotientRoundingDown(by divisor: Int) -> Int {
        let quotient = self / divisor
        return (self % divisor != 0 && (self < 0) != (divisor < 0)) ? quotient - 1 : quotient
    }
}
