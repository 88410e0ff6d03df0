import Foundation
import Testing

@testable import RuleEngine

/// An instant written in UTC, `2027-03-29T07:00:00Z`.
private func utc(_ text: String) throws -> Date {
    try #require(ISO8601DateFormatter().date(from: text))
}

private func schedule(
    days: [Weekday]? = nil, hours: [String] = [], zone: String = "Europe/Berlin"
) throws -> Schedule {
    Schedule(
        days: days, hours: try hours.map { try HourRange(parsing: $0) }, zoneName: zone,
        timeZone: try TimeZoneDatabase.system.zone(named: zone).get())
}

private let workdays: [Weekday] = [.mon, .tue, .wed, .thu, .fri]

@Suite struct ScheduleTests {
    @Test func theMondayAfterTheSpringSwitchOpensAtSevenUTC() throws {
        // Europe/Berlin moves to summer time on Sunday 2027-03-28: 09:00 on Monday is 07:00 UTC.
        let office = try schedule(days: workdays, hours: ["09:00-17:00"])
        #expect(!office.verdict(at: try utc("2027-03-29T06:59:00Z")).open)
        #expect(office.verdict(at: try utc("2027-03-29T07:00:00Z")).open)
        #expect(office.verdict(at: try utc("2027-03-29T14:59:59Z")).open)
        #expect(!office.verdict(at: try utc("2027-03-29T15:00:00Z")).open)
        // The Friday before, still winter time: 09:00 is 08:00 UTC.
        #expect(!office.verdict(at: try utc("2027-03-26T07:30:00Z")).open)
        #expect(office.verdict(at: try utc("2027-03-26T08:00:00Z")).open)
    }

    @Test func aFridayEveningWaitsForMondayMorningAcrossTheSwitch() throws {
        let office = try schedule(days: workdays, hours: ["09:00-17:00"])
        let verdict = office.verdict(at: try utc("2027-03-26T18:00:00Z"))
        #expect(!verdict.open)
        #expect(verdict.nextOpening == (try utc("2027-03-29T07:00:00Z")))
        #expect(
            office.heldNote(at: try utc("2027-03-26T18:00:00Z"))
                == "outside its schedule; next window Mon 2027-03-29 09:00 Europe/Berlin")
        #expect(office.heldNote(at: try utc("2027-03-29T07:00:00Z")) == nil)
    }

    @Test func aWindowInsideTheSkippedHourNeverOpensOnTheNightOfTheSwitch() throws {
        // 2027-03-28 02:00 CET jumps to 03:00 CEST: no clock time from 02:00 to 03:00 happens.
        let night = try schedule(hours: ["02:00-03:00"])
        for minute in stride(from: 0, to: 120, by: 15) {
            let instant = try utc("2027-03-28T00:00:00Z").addingTimeInterval(Double(minute) * 60)
            #expect(!night.verdict(at: instant).open, "\(instant)")
        }
        // Closed before the gap, it next opens on Monday night at 02:00 CEST, 00:00 UTC.
        #expect(night.verdict(at: try utc("2027-03-27T23:00:00Z")).nextOpening == (try utc("2027-03-29T00:00:00Z")))
        // The night before, 02:00 CET is 01:00 UTC.
        #expect(night.verdict(at: try utc("2027-03-27T01:30:00Z")).open)
    }

    @Test func aWindowStartingInTheSkippedHourOpensWhenTheClocksResume() throws {
        let early = try schedule(hours: ["02:30-04:00"])
        let verdict = early.verdict(at: try utc("2027-03-28T00:30:00Z"))
        #expect(!verdict.open)
        // 03:00 CEST, 01:00 UTC: the first clock time after the gap, inside the range.
        #expect(verdict.nextOpening == (try utc("2027-03-28T01:00:00Z")))
    }

    @Test func theRepeatedHourOfTheAutumnSwitchIsInsideBothTimes() throws {
        // 2027-10-31 03:00 CEST goes back to 02:00 CET: 02:00 to 03:00 happens twice.
        let night = try schedule(hours: ["02:00-03:00"])
        #expect(!night.verdict(at: try utc("2027-10-30T23:59:00Z")).open)
        #expect(night.verdict(at: try utc("2027-10-31T00:00:00Z")).open)
        #expect(night.verdict(at: try utc("2027-10-31T01:30:00Z")).open)
        #expect(!night.verdict(at: try utc("2027-10-31T02:00:00Z")).open)
        // The Monday after, winter time: 09:00 is 08:00 UTC.
        let office = try schedule(days: workdays, hours: ["09:00-17:00"])
        #expect(!office.verdict(at: try utc("2027-11-01T07:30:00Z")).open)
        #expect(office.verdict(at: try utc("2027-11-01T08:00:00Z")).open)
        #expect(office.verdict(at: try utc("2027-10-29T16:00:00Z")).nextOpening == (try utc("2027-11-01T08:00:00Z")))
    }

    @Test func aRangeWrappingMidnightBelongsToTheDayItStarts() throws {
        // Friday nights only: Friday 22:00 to Saturday 06:00, Berlin winter time (UTC+1).
        let friday = try schedule(days: [.fri], hours: ["22:00-06:00"])
        #expect(!friday.verdict(at: try utc("2027-01-08T20:59:00Z")).open)
        #expect(friday.verdict(at: try utc("2027-01-08T21:00:00Z")).open)
        #expect(friday.verdict(at: try utc("2027-01-09T04:59:00Z")).open)
        #expect(!friday.verdict(at: try utc("2027-01-09T05:00:00Z")).open)
        // Thursday after midnight belongs to Wednesday night, which is not scheduled.
        #expect(!friday.verdict(at: try utc("2027-01-07T02:00:00Z")).open)
        #expect(
            friday.heldNote(at: try utc("2027-01-09T05:00:00Z"))
                == "outside its schedule; next window Fri 2027-01-15 22:00 Europe/Berlin")
    }

    @Test func severalRangesAndTheDefaultZone() throws {
        let split = try schedule(hours: ["08:00-10:00", "16:00-24:00"], zone: "UTC")
        #expect(split.verdict(at: try utc("2027-01-04T09:59:00Z")).open)
        #expect(!split.verdict(at: try utc("2027-01-04T10:00:00Z")).open)
        #expect(split.verdict(at: try utc("2027-01-04T10:00:00Z")).nextOpening == (try utc("2027-01-04T16:00:00Z")))
        #expect(split.verdict(at: try utc("2027-01-04T23:59:00Z")).open)
        #expect(!split.verdict(at: try utc("2027-01-05T00:00:00Z")).open)
        #expect(split.summary == "every day 08:00-10:00, 16:00-24:00 UTC")
    }

    @Test func daysWithoutHoursAreWholeDays() throws {
        let weekend = try schedule(days: [.sat, .sun])
        #expect(!weekend.verdict(at: try utc("2027-01-08T22:59:00Z")).open)
        #expect(weekend.verdict(at: try utc("2027-01-08T23:00:00Z")).open)
        #expect(weekend.verdict(at: try utc("2027-01-10T22:59:00Z")).open)
        #expect(weekend.verdict(at: try utc("2027-01-11T12:00:00Z")).nextOpening == (try utc("2027-01-15T23:00:00Z")))
    }

    @Test func aPlanKeepsTheScheduleAsWritten() throws {
        let office = try schedule(days: workdays, hours: ["9:00-17:00"])
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let data = try encoder.encode(office)
        #expect(
            String(decoding: data, as: UTF8.self)
                == #"{"days":["mon","tue","wed","thu","fri"],"hours":["09:00-17:00"],"timezone":"Europe\/Berlin"}"#)
        #expect(try JSONDecoder().decode(Schedule.self, from: data) == office)
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(Schedule.self, from: Data(#"{"timezone":"Mars/Olympus"}"#.utf8))
        }
    }

    @Test(arguments: [
        (
            "9-17",
            "'9-17' is not a range of hours; write HH:MM-HH:MM, such as 09:00-17:00 (or 22:00-06:00 over midnight)",
            0
        ),
        ("25:00-26:00", "hour 25 does not exist; hours run from 00 to 23 (24:00 only to end a range)", 0),
        ("09:00-24:30", "hour 24 does not exist; hours run from 00 to 23 (24:00 only to end a range)", 6),
        ("09:60-10:00", "minute 60 does not exist; minutes run from 00 to 59", 3),
        ("09:00-09:00", "'09:00-09:00' opens and closes at the same time; for the whole day leave 'hours:' out", 0),
        ("00:00-24:00", "'00:00-24:00' opens and closes at the same time; for the whole day leave 'hours:' out", 0),
    ])
    func badRanges(text: String, message: String, offset: Int) {
        #expect(throws: HourRange.ParseError(message: message, offset: offset)) { try HourRange(parsing: text) }
    }

    @Test func goodRanges() throws {
        #expect(try HourRange(parsing: "22:00-06:00").wraps)
        #expect(try !HourRange(parsing: "18:00 - 24:00").wraps)
        #expect(try HourRange(parsing: "7:05-8:00").description == "07:05-08:00")
    }

    @Test func zones() {
        #expect(
            TimeZoneDatabase.system.zone(named: "Europe/Berln")
                == .failure(
                    .init(
                        message:
                            "unknown time zone 'Europe/Berln'; did you mean 'Europe/Berlin'? (an IANA name such as "
                            + "Europe/Berlin, or UTC)")))
        #expect((try? TimeZoneDatabase.system.zone(named: "America/New_York").get())?.identifier == "America/New_York")
        // A Foundation without zone data knows none; that must not pass for UTC.
        #expect(
            TimeZoneDatabase(identifiers: []).zone(named: "Europe/Berlin")
                == .failure(
                    .init(
                        message:
                            "the time-zone database is missing; install tzdata (no zone is known, not even "
                            + "'Europe/Berlin')")))
        #expect((try? TimeZoneDatabase(identifiers: []).zone(named: "UTC").get()) == .gmt)
    }
}
