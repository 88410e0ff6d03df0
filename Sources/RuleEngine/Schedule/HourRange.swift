/// A range of local clock times in a schedule's `hours:`, `09:00-17:00`; `22:00-06:00` wraps midnight.
///
/// Times are minutes after midnight: the start is within the day, the end may be `24:00` (the
/// end of the day), and a range whose end comes before its start runs over midnight into the next
/// day, so night windows are one range rather than two.
public struct HourRange: Sendable, Hashable, CustomStringConvertible {
    /// Minutes after midnight at which the range opens, 0 to 1439.
    public let start: Int
    /// Minutes after midnight at which it closes, 0 to 1440; before ``start`` when it wraps.
    public let end: Int

    /// Why a range cannot be read, and the character offset in the text it is about.
    public struct ParseError: Error, Sendable, Hashable {
        public var message: String
        public var offset: Int
    }

    /// The minutes in a day: `24:00`, the latest end.
    static let day = 24 * 60

    /// Reads `HH:MM-HH:MM` (one-digit hours too, spaces around the dash allowed).
    public init(parsing text: String) throws(ParseError) {
        let scalars = Array(text.unicodeScalars)
        guard let dash = scalars.firstIndex(of: "-") else { throw Self.shapeError(text) }
        let start = try Self.time(scalars, from: 0, to: dash, text: text, isEnd: false)
        let end = try Self.time(scalars, from: dash + 1, to: scalars.count, text: text, isEnd: true)
        guard start != end % Self.day else {
            throw ParseError(
                message: "'\(text)' opens and closes at the same time; for the whole day leave 'hours:' out",
                offset: 0)
        }
        self.start = start
        self.end = end
    }

    /// Whether the range runs over midnight into the next day.
    public var wraps: Bool { end < start }

    /// The range as written in normal form: `09:00-17:00`.
    public var description: String { "\(Self.clock(start))-\(Self.clock(end))" }

    /// Whether a clock time `minute` minutes after midnight is in the range's part on its own day
    /// (`sameDay`), or in the part after midnight of a wrapping range (`!sameDay`).
    func contains(_ minute: Int, sameDay: Bool) -> Bool {
        if sameDay { return minute >= start && (wraps || minute < end) }
        return wraps && minute < end
    }

    /// `HH:MM` for a number of minutes after midnight.
    static func clock(_ minutes: Int) -> String {
        let hour = minutes / 60
        let minute = minutes % 60
        return (hour < 10 ? "0" : "") + "\(hour):" + (minute < 10 ? "0" : "") + "\(minute)"
    }

    private static func shapeError(_ text: String) -> ParseError {
        ParseError(
            message: "'\(text)' is not a range of hours; write HH:MM-HH:MM, such as 09:00-17:00 (or 22:00-06:00 "
                + "over midnight)", offset: 0)
    }

    /// The minutes after midnight of the `H:MM` or `HH:MM` between `from` and `to`, spaces trimmed.
    private static func time(
        _ scalars: [Unicode.Scalar], from: Int, to: Int, text: String, isEnd: Bool
    ) throws(ParseError) -> Int {
        var lower = from
        var upper = to
        while lower < upper, scalars[lower] == " " { lower += 1 }
        while upper > lower, scalars[upper - 1] == " " { upper -= 1 }
        let part = scalars[lower..<upper]
        guard let colon = part.firstIndex(of: ":"), (1...2).contains(colon - lower), upper - colon == 3,
            part.allSatisfy({ $0 == ":" || ("0"..."9").contains($0) }),
            let hour = Int(String(String.UnicodeScalarView(scalars[lower..<colon]))),
            let minute = Int(String(String.UnicodeScalarView(scalars[(colon + 1)..<upper])))
        else { throw shapeError(text) }
        guard hour < 24 || (isEnd && hour == 24 && minute == 0) else {
            throw ParseError(
                message: "hour \(hour) does not exist; hours run from 00 to 23 (24:00 only to end a range)",
                offset: lower)
        }
        guard minute < 60 else {
            throw ParseError(message: "minute \(minute) does not exist; minutes run from 00 to 59", offset: colon + 1)
        }
        return hour * 60 + minute
    }
}
