import Foundation
import GitbayTestSupport
import Testing

private let root = SimulatorProcess.repositoryRoot
private let demo = root.appendingPathComponent("examples/demo-forge.json").path
private let example = root.appendingPathComponent("examples/schedule").path

/// A file named `name` holding `text` in a fresh folder, answering its path.
private func write(_ text: String, named name: String = "rules.yml") throws -> String {
    let folder = Scratch.url("schedule-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let path = folder.appendingPathComponent(name).path
    try Data(text.utf8).write(to: URL(fileURLWithPath: path))
    return path
}

/// One issue rule on the demo forge's idle issues, with `schedule` (YAML lines) when given.
private func rule(_ name: String, schedule: String = "") -> String {
    """
      - name: \(name)
        on: issues
    \(schedule)    when:
          - state = open
          - idle > 60d
          - labels lacks [stale, pinned, security]
        do: [{add-label: stale}]

    """
}

/// `schedule:` on the command line of `check`, `plan` and the configuration file.
@Suite struct ScheduleCommandTests {
    @Test func checkReportsEveryMistakeInAScheduleAtItsPlace() async throws {
        let path = try write(
            """
            scope: owner:krz
            rules:
              - name: office
                on: issues
                schedule:
                  days: [mon, tus]
                  hours: ["9-17", "25:00-26:00", "09:00-09:00", "22:00-06:00"]
                  timezone: Europe/Berln
                do: [close]
              - name: never
                on: issues
                schedule: {days: []}
                do: [close]

            """)
        let result = await runBot(["check", path])
        #expect(result.code == 78)
        #expect(
            result.error == """
                \(path):6:19: error: unknown day 'tus'; did you mean 'tue'? (days: mon, tue, wed, thu, fri, sat, sun)
                      days: [mon, tus]
                                  ^
                \(path):7:16: error: '9-17' is not a range of hours; write HH:MM-HH:MM, such as 09:00-17:00 (or \
                22:00-06:00 over midnight)
                      hours: ["9-17", "25:00-26:00", "09:00-09:00", "22:00-06:00"]
                               ^
                \(path):7:24: error: hour 25 does not exist; hours run from 00 to 23 (24:00 only to end a range)
                      hours: ["9-17", "25:00-26:00", "09:00-09:00", "22:00-06:00"]
                                       ^
                \(path):7:39: error: '09:00-09:00' opens and closes at the same time; for the whole day leave \
                'hours:' out
                      hours: ["9-17", "25:00-26:00", "09:00-09:00", "22:00-06:00"]
                                                      ^
                \(path):8:17: error: unknown time zone 'Europe/Berln'; did you mean 'Europe/Berlin'? (an IANA name \
                such as Europe/Berlin, or UTC)
                      timezone: Europe/Berln
                                ^
                \(path):12:22: error: 'days:' needs at least one day; leave it out for every day
                    schedule: {days: []}
                                     ^
                1 file: 6 errors

                """)
    }

    /// A day named twice and hour ranges that overlap change no window, so the rules load; but
    /// `12:00-13:00` inside `09:00-17:00` was most likely meant as a break, and `check` says so.
    @Test func checkWarnsOfARepeatedDayAndOverlappingHours() async throws {
        let path = try write(
            """
            scope: owner:krz
            rules:
              - name: office
                on: issues
                schedule:
                  days: [mon, tue, mon]
                  hours: ["09:00-17:00", "12:00-13:00", "17:00-18:00", "22:00-06:00", "05:00-07:00"]
                do: [close]

            """)
        let result = await runBot(["check", path])
        #expect(result.code == 0, "\(result.error)")
        #expect(result.output == "1 file, 1 rule: 3 warnings\n")
        #expect(result.error.contains("\(path):6:24: warning: 'mon' is named twice in 'days:'\n"))
        #expect(result.error.contains("\(path):7:30: warning: '12:00-13:00' overlaps '09:00-17:00'"))
        // Touching ranges do not overlap; a night range overlaps the morning it runs into.
        #expect(!result.error.contains("'17:00-18:00' overlaps"))
        #expect(result.error.contains("\(path):7:75: warning: '05:00-07:00' overlaps '22:00-06:00'"))
    }

    /// The configuration's default `schedule:` gets the same warnings from `check`, shown and
    /// counted with the rules'; other commands pass over them, as over the rules' warnings.
    @Test func checkWarnsOfTheSameInTheConfigurationsSchedule() async throws {
        let configuration = try write(
            "schedule:\n  days: [mon, tue, mon]\n  hours: [\"09:00-17:00\", \"12:00-13:00\"]\n")
        let rules = try write("scope: owner:krz\nrules:\n" + rule("office"))
        let result = await runBot(["check", "--config", configuration, rules])
        #expect(result.code == 0, "\(result.error)")
        #expect(result.output == "1 file, 1 rule: 2 warnings\n")
        #expect(
            result.error == """
                \(configuration):2:20: warning: 'mon' is named twice in 'days:'
                  days: [mon, tue, mon]
                                   ^
                \(configuration):3:26: warning: '12:00-13:00' overlaps '09:00-17:00': the window is both together; \
                write one range, or two that do not meet
                  hours: ["09:00-17:00", "12:00-13:00"]
                                         ^

                """)
    }

    @Test func theShippedExampleIsValid() async {
        let result = await runBot(["check", example])
        #expect(result.code == 0, "\(result.error)")
        #expect(result.output == "1 file, 2 rules: no problems found\n")
    }

    @Test func outsideTheWindowEveryFormatSaysWhyTheEntryIsHeld() async throws {
        // The demo forge's clock, Sunday 2026-11-29 12:00 UTC, is outside Monday-to-Friday office hours.
        let text = await runBot(["plan", example, "--snapshot", demo])
        #expect(text.code == 0, "\(text.error)")
        #expect(text.output.contains("held back: outside its schedule; next window Mon 2026-11-30 09:00 Europe/Berlin"))
        #expect(text.output.contains("held back: outside its schedule; next window Sun 2026-11-29 22:00 Europe/Berlin"))
        #expect(text.output.hasSuffix("0 commands pending (0 rules, 0 entries), 5 held back\n"))
        let markdown = await runBot(["plan", example, "--snapshot", demo, "--format", "markdown"])
        #expect(markdown.output.contains("outside its schedule; next window Mon 2026-11-30 09:00 Europe/Berlin"))
        let json = await runBot(["plan", example, "--snapshot", demo, "--format", "json"])
        #expect(
            json.output.contains(#""note" : "outside its schedule; next window Mon 2026-11-30 09:00 Europe/Berlin""#))
        #expect(json.output.contains(#""timezone" : "Europe/Berlin""#))
        // Monday 09:00 in Berlin (08:00 UTC in winter) the office rule acts; the night rule still waits.
        let monday = await runBot(["plan", example, "--snapshot", demo, "--now", "2026-11-30T08:00:00Z"])
        #expect(monday.output.contains("+ issue label krz/gitbay 31 --add stale"))
        #expect(monday.output.contains("next window Mon 2026-11-30 22:00 Europe/Berlin"))
        #expect(monday.output.hasSuffix("2 commands pending (1 rule, 2 entries), 3 held back\n"))
        // 23:30 in Berlin is inside the night window that wraps midnight.
        let night = await runBot(["plan", example, "--snapshot", demo, "--now", "2026-11-30T22:30:00Z"])
        #expect(night.output.contains("+ build cancel krz/runner 101"))
    }

    @Test func explainShowsTheVerdictOfEachRulesSchedule() async {
        let text = await runBot(["explain", "krz/gitbay#31", example, "--snapshot", demo])
        #expect(
            text.output.contains(
                "  schedule (mon, tue, wed, thu, fri 09:00-17:00 Europe/Berlin): outside it; next window "
                    + "Mon 2026-11-30 09:00 Europe/Berlin\n"))
        let json = await runBot(["explain", "krz/gitbay#31", example, "--snapshot", demo, "--format", "json"])
        #expect(json.output.contains(#""nextOpening" : "2026-11-30T08:00:00.000Z""#))
        #expect(json.output.contains(#""open" : false"#))
        let markdown = await runBot([
            "explain", "krz/gitbay#31", example, "--snapshot", demo, "--format", "markdown", "--now",
            "2026-11-30T08:00:00Z",
        ])
        #expect(markdown.output.contains("schedule (mon, tue, wed, thu, fri 09:00-17:00 Europe/Berlin): inside it"))
    }

    @Test func theConfigurationsScheduleIsTheDefaultThatARulesOwnReplaces() async throws {
        let rules = try write(
            "scope: owner:krz\nrules:\n" + rule("office") + rule("always", schedule: "    schedule: {days: [sun]}\n"))
        let configuration = try write(
            "schedule:\n  days: [mon, tue, wed, thu, fri]\n  timezone: Europe/Berlin\n", named: "gitbay-bot.yml")
        let result = await runBot(["plan", rules, "--snapshot", demo, "--config", configuration])
        #expect(result.code == 0, "\(result.error)")
        #expect(result.output.contains("office (issues): 2 matched of 10, 0 acting, 2 held"))
        #expect(
            result.output.contains("held back: outside its schedule; next window Mon 2026-11-30 00:00 Europe/Berlin"))
        #expect(result.output.contains("always (issues): 2 matched of 10, 2 acting, 0 held"))
    }

    @Test func aBadDefaultScheduleIsDiagnosedLikeARules() async throws {
        let configuration = try write("schedule:\n  hours: [\"17:00-17:00\"]\n  timezone: Europe/Berln\n")
        let result = await runBot([
            "plan", root.appendingPathComponent("rules").path, "--snapshot", demo, "--config", configuration,
        ])
        #expect(result.code == 78)
        #expect(
            result.error == """
                \(configuration):2:12: error: '17:00-17:00' opens and closes at the same time; for the whole day \
                leave 'hours:' out
                  hours: ["17:00-17:00"]
                           ^
                \(configuration):3:13: error: unknown time zone 'Europe/Berln'; did you mean 'Europe/Berlin'? (an \
                IANA name such as Europe/Berlin, or UTC)
                  timezone: Europe/Berln
                            ^
                error: the configuration \(configuration) has 2 errors; nothing was read or done

                """)
    }
}
