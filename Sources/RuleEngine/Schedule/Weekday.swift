/// A day of the week as a schedule's `days:` names it, `mon` to `sun`.
///
/// The raw values are Foundation's `Calendar` weekday numbers (Sunday is 1), so a day read from
/// a calendar in the schedule's time zone is compared without a table.
public enum Weekday: Int, CaseIterable, Sendable, Hashable {
    case sun = 1
    case mon, tue, wed, thu, fri, sat

    /// The days in the order people list them, Monday first.
    public static let week: [Weekday] = [.mon, .tue, .wed, .thu, .fri, .sat, .sun]

    /// The day named as in a rule file (`mon`), or `nil`.
    public init?(name: String) {
        guard let day = Self.allCases.first(where: { $0.name == name }) else { return nil }
        self = day
    }

    /// The name a rule file uses: `mon`.
    public var name: String { "\(self)" }

    /// The name in a sentence: `Mon`.
    public var title: String { name.prefix(1).uppercased() + name.dropFirst() }

    /// The day before, for the hours after midnight of a range that wraps it.
    public var previous: Weekday { Weekday(rawValue: rawValue == 1 ? 7 : rawValue - 1) ?? self }
}
