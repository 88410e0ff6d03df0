import Foundation
import RuleEngine
import Testing

private let issueFields: [String: FieldSpec] = Dictionary(
    uniqueKeysWithValues: [
        FieldSpec(name: "state", type: .enumeration(["open", "closed"])),
        FieldSpec(name: "idle", type: .duration),
        FieldSpec(name: "age", type: .duration),
        FieldSpec(name: "labels", type: .labelSet),
        FieldSpec(name: "assignees", type: .userSet),
        FieldSpec(name: "tracking_issue", type: .boolean),
        FieldSpec(name: "last_comment.author", type: .user),
        FieldSpec(name: "created_at", type: .timestamp),
        FieldSpec(name: "title", type: .text),
        FieldSpec(name: "comments", type: .count),
    ].map { ($0.name, $0) })

private func check(_ text: String) throws -> CheckedCondition {
    try CheckedCondition.check(try ConditionExpression.parse(text), fields: issueFields)
}

/// The error for `text`, as (message, start offset, length).
private func failure(_ text: String) -> (String, Int, Int)? {
    do {
        _ = try check(text)
        return nil
    } catch let error as ConditionSyntaxError {
        return (error.message, error.span.start, error.span.length)
    } catch {
        return nil
    }
}

@Suite struct ConditionLanguageTests {
    @Test(arguments: [
        "state = open", "idle > 60d", "labels lacks [stale, pinned, security]", "not tracking_issue",
        "labels has stale", "last_comment.author != @me", "idle > 14d", "age <= 1w2d", "state in [open, closed]",
        "title ~= \"^WIP\"", "created_at < 2026-01-31", "comments >= 3", "assignees has any [@me, alice]",
        "labels has \"needs review\"", "tracking_issue = false", "state not in [closed]", "idle is absent",
        "not last_comment.author is present", "labels is absent",
    ])
    func theShippedAndDocumentedConditionsCheck(text: String) throws {
        _ = try check(text)
    }

    @Test(arguments: [
        ("lables has stale", "unknown field 'lables'; did you mean 'labels'?", 0, 6),
        ("idle > 60", "'60' is not a duration; write a number and a unit: 60d, 2w, 36h, 90m, 30s", 7, 2),
        ("idle > 60days", "'60days' is not a duration; write a number and a unit: 60d, 2w, 36h, 90m, 30s", 7, 6),
        ("state = opne", "'opne' is not a value of 'state'; did you mean 'open'? (values: open, closed)", 8, 4),
        ("idle = 60d", "'=' does not apply to 'idle' (a duration); use '>', '>=', '<', '<='", 5, 1),
        ("idle", "'idle' (a duration) is not a boolean; compare it, as in 'idle > 30d'", 0, 4),
        ("labels has [stale", "unterminated list; add the closing ]", 11, 1),
        ("labels has", "'has' needs a value after it", 10, 1),
        (
            "state = open closed",
            "unexpected 'closed' after the condition; quote values with spaces, "
                + "and write one condition per line (combine them with all:, any: or not:)", 13, 6
        ),
        ("state is open", "write '=' to compare, or 'is absent' / 'is present' to test whether there is a value", 6, 2),
        ("idle is \"absent\"", "write '=' to compare, or 'is absent'", 5, 2),
        ("idle is absent 3d", "unexpected '3d' after the condition", 15, 2),
        ("idle is", "write '=' to compare, or 'is absent'", 5, 2),
        ("state = [open]", "'=' compares with one value; use 'in' for a list", 8, 6),
        ("state in open", "'in' takes a list, such as [a, b]", 9, 4),
        ("title ~= \"(\"", "invalid regular expression", 9, 3),
        ("title = \"unfinished", "unterminated quoted text; add the closing \"", 8, 11),
        ("", "empty condition", 0, 1),
        ("labels has @me", "@me names a user, and 'labels' is not a user", 11, 3),
        ("tracking_issue = yes", "'tracking_issue' is a boolean: compare with true or false, or test it bare", 17, 3),
        ("comments > -1", "'-1' is not a whole number", 11, 2),
        ("Idle > 3d", "expected a field name such as 'state' or 'labels', found 'Idle'", 0, 4),
    ])
    func mistakesArePointedAtInsideTheText(text: String, message: String, start: Int, length: Int) throws {
        let (actual, actualStart, actualLength) = try #require(failure(text))
        #expect(actual.hasPrefix(message))
        #expect(actualStart == start)
        #expect(actualLength == length)
    }

    @Test func columnsCountUnicodeScalarsNotBytes() throws {
        let (_, start, _) = try #require(failure("title = \"naïve café\" extra"))
        #expect(start == 21)
    }

    @Test func evaluationFollowsTheOperators() throws {
        let day = 86_400.0
        #expect(try check("idle > 60d").holds(for: .duration(61 * day), me: "bot"))
        #expect(try !check("idle > 60d").holds(for: .duration(60 * day), me: "bot"))
        #expect(try check("idle >= 60d").holds(for: .duration(60 * day), me: "bot"))
        let labels = FieldValue.set(["bug", "stale"])
        #expect(try check("labels has stale").holds(for: labels, me: "bot"))
        #expect(try check("labels has [bug, stale]").holds(for: labels, me: "bot"))
        #expect(try !check("labels has [bug, pinned]").holds(for: labels, me: "bot"))
        #expect(try check("labels has any [pinned, bug]").holds(for: labels, me: "bot"))
        #expect(try !check("labels lacks [stale, pinned, security]").holds(for: labels, me: "bot"))
        #expect(try check("labels lacks [pinned, security]").holds(for: labels, me: "bot"))
        #expect(try check("last_comment.author != @me").holds(for: .text("alice"), me: "bot"))
        #expect(try !check("last_comment.author != @me").holds(for: .text("bot"), me: "bot"))
        #expect(try check("state in [open, closed]").holds(for: .text("closed"), me: "bot"))
        #expect(try check("state not in [closed]").holds(for: .text("open"), me: "bot"))
        #expect(try check("not tracking_issue").holds(for: .boolean(false), me: "bot"))
        #expect(try !check("tracking_issue").holds(for: .boolean(false), me: "bot"))
        #expect(try check("title ~= \"^WIP\"").holds(for: .text("WIP: thing"), me: "bot"))
        #expect(try check("title !~ \"^WIP\"").holds(for: .text("thing"), me: "bot"))
        let cutoff = try Date.ISO8601FormatStyle().parse("2026-01-31T00:00:00Z")
        #expect(try check("created_at < 2026-01-31").holds(for: .timestamp(cutoff - 1), me: "bot"))
        #expect(try check("comments >= 3").holds(for: .count(3), me: "bot"))
    }

    @Test func anAbsentValueFailsEveryTestUnlessNegated() throws {
        #expect(try !check("last_comment.author != @me").holds(for: .absent, me: "bot"))
        #expect(try !check("last_comment.author = @me").holds(for: .absent, me: "bot"))
        #expect(try check("not last_comment.author = @me").holds(for: .absent, me: "bot"))
        #expect(try !check("idle > 1d").holds(for: .unknown, me: "bot"))
        #expect(try check("not idle > 1d").holds(for: .unknown, me: "bot"))
    }

    /// `is absent` is the one test no value passes and an absent value does, for either reason
    /// (the field does not apply, or nobody can say it); `is present` is its opposite.
    @Test func isAbsentTestsForAValueOfAnyType() throws {
        for value: FieldValue in [.absent, .unknown] {
            #expect(try check("idle is absent").holds(for: value, me: "bot"))
            #expect(try !check("idle is present").holds(for: value, me: "bot"))
            #expect(try !check("not idle is absent").holds(for: value, me: "bot"))
        }
        for value: FieldValue in [.duration(0), .text(""), .set([]), .boolean(false), .count(0)] {
            #expect(try !check("idle is absent").holds(for: value, me: "bot"))
            #expect(try check("idle is present").holds(for: value, me: "bot"))
        }
    }

    @Test(arguments: [
        ("60d", 60 * 86_400.0), ("2w", 14 * 86_400.0), ("36h", 36 * 3_600.0), ("90m", 5_400.0), ("1d12h", 129_600.0),
    ])
    func durationsReadAsWritten(text: String, seconds: Double) {
        #expect(DurationLiteral.seconds(text) == seconds)
    }

    @Test(arguments: ["60", "d", "6 0d", "60D", "1.5d", "-3d", ""])
    func notDurations(text: String) {
        #expect(DurationLiteral.seconds(text) == nil)
    }

    /// Seconds and their words, at each unit's edges.
    static let spokenDurations: [(Double, String)] = [
        (15_649_200, "181 days"), (172_800, "2 days"), (172_799, "1 day"), (86_400, "1 day"),
        (86_399, "23 hours"), (21_540, "5 hours"), (3_600, "1 hour"), (3_599, "59 minutes"), (60, "1 minute"),
        (59.9, "less than a minute"), (0, "less than a minute"),
    ]

    @Test func durationsAreDescribedInTheirLargestUnits() {
        #expect(DurationLiteral.describe(seconds: 61 * 86_400 + 3 * 3_600 + 59) == "61d 3h")
        #expect(DurationLiteral.describe(seconds: 45) == "45s")
        #expect(DurationLiteral.describe(seconds: 0) == "0s")
        #expect(DurationLiteral.describe(seconds: 86_400 + 5 * 60 + 7) == "1d 5m")
        #expect(DurationLiteral.describe(seconds: 7_200.9) == "2h")
        #expect(DurationLiteral.describe(seconds: 30 * 604_800) == "210d")
        #expect(DurationLiteral.describe(seconds: 59 * 60 + 1) == "59m 1s")
    }

    /// What a `{{ quiet }}` placeholder writes into a comment: the largest unit in words, rounded down.
    @Test(arguments: spokenDurations)
    func durationsAreSpokenInWords(seconds: Double, words: String) {
        #expect(DurationLiteral.words(seconds: seconds) == words)
        #expect(FieldValue.duration(seconds).spoken == words)
    }

    @Test func onlyDurationsAreSpokenOtherwiseThanDisplayed() {
        for value in [FieldValue.count(3), .text("alice"), .set(["b", "a"]), .boolean(true)] {
            #expect(value.spoken == value.display)
        }
    }
}
