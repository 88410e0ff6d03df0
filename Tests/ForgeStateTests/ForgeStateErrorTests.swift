import BuildsPlugin
import Foundation
import IssuesPlugin
import MergeRequestsPlugin
import RuleEngine
import Testing

/// A bad forge-state file is refused with the JSON path of the bad value and a plain sentence.
@Suite struct ForgeStateErrorTests {
    /// A valid one-repository forge with `issue` spliced in as its only issue.
    private static func forge(format: String = "gitbay-forge-state/1", issue: String) -> String {
        #"{"format":"\#(format)","now":"2026-11-29T12:00:00.000Z","me":"triage-bot","repos":[{"path":"krz/a","#
            + #""issues":[{"number":1,"title":"ok","state":"open","author":"al","created_at":"2026-01-01T00:00:00Z"},"#
            + "\(issue)]}]}"
    }

    private static let goodIssue =
        #"{"number":2,"title":"t","state":"open","author":"al","created_at":"2026-01-02T00:00:00.000Z"}"#

    private func problem(_ text: String) -> ForgeStateFileError? {
        do {
            _ = try ForgeFiles.load(text: text)
            return nil
        } catch {
            return error
        }
    }

    @Test func aValidFileLoads() {
        #expect(problem(Self.forge(issue: Self.goodIssue)) == nil)
    }

    @Test func aWrongFormatIsRefused() throws {
        let error = try #require(problem(Self.forge(format: "gitbay-forge-state/2", issue: Self.goodIssue)))
        #expect(error.path == "format")
        #expect(error.description.hasPrefix(#"format: expected "gitbay-forge-state/1", found "gitbay-forge-state/2""#))
    }

    @Test func aMissingFormatIsRefused() throws {
        let error = try #require(problem(#"{"now":"2026-11-29T12:00:00.000Z","me":"bot","repos":[]}"#))
        #expect(error.description == "format: required key is missing")
    }

    @Test func aMissingRequiredKeyIsNamedWithItsPath() throws {
        let issue = #"{"number":2,"state":"open","author":"al","created_at":"2026-01-02T00:00:00.000Z"}"#
        let error = try #require(problem(Self.forge(issue: issue)))
        #expect(error.description == "repos[0].issues[1].title: required key is missing")
    }

    @Test func aBadTimestampIsNamedWithItsPath() throws {
        let issue = #"{"number":2,"title":"t","state":"open","author":"al","created_at":"yesterday"}"#
        let error = try #require(problem(Self.forge(issue: issue)))
        #expect(error.path == "repos[0].issues[1].created_at")
        #expect(error.problem.hasPrefix(#"not a timestamp: "yesterday""#))
        #expect(!error.description.contains("DecodingError"))
    }

    @Test func aWrongTypeIsNamed() throws {
        let issue = #"{"number":"two","title":"t","state":"open","author":"al","created_at":"2026-01-02T00:00:00Z"}"#
        let error = try #require(problem(Self.forge(issue: issue)))
        #expect(error.description == "repos[0].issues[1].number: expected an integer")
    }

    @Test func aListWhereAnObjectBelongsIsNamed() throws {
        let notAList = #"{"format":"gitbay-forge-state/1","now":"2026-11-29T12:00:00.000Z","me":"b","repos":{}}"#
        #expect(problem(notAList)?.description == "repos: expected a list")
        let notAnObject = #"{"format":"gitbay-forge-state/1","now":"2026-11-29T12:00:00.000Z","me":"b","repos":[[]]}"#
        #expect(problem(notAnObject)?.description == "repos[0]: expected an object")
    }

    @Test func anUnknownStateAndARepeatedNumberAreRefused() throws {
        let reopened = #"{"number":2,"title":"t","state":"reopened","author":"al","created_at":"2026-01-02T00:00:00Z"}"#
        #expect(
            problem(Self.forge(issue: reopened))?.description
                == #"repos[0].issues[1].state: "reopened" is not one of open, closed"#)
        let twice = #"{"number":1,"title":"t","state":"open","author":"al","created_at":"2026-01-02T00:00:00Z"}"#
        #expect(problem(Self.forge(issue: twice))?.description == "repos[0].issues[1].number: 1 appears twice")
    }

    @Test func invalidJSONIsSaidPlainly() throws {
        let error = try #require(problem(#"{"format": "#))
        #expect(error.path == "")
        #expect(error.problem.hasPrefix("not valid JSON: "))
    }

    @Test func unknownKeysAreIgnored() throws {
        let text = Self.forge(issue: Self.goodIssue).replacingOccurrences(
            of: #""me":"triage-bot","#, with: #""me":"triage-bot","generator":{"seed":7},"#)
        #expect(problem(text) == nil)
    }
}
