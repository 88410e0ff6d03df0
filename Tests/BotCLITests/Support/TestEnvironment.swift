import Foundation
import GitbayTestSupport

/// The environment a test runs the bot with: `environment`, and a scratch `HOME` when it names
/// no state folder of its own.
///
/// Without `HOME` or `XDG_STATE_HOME` the bot keeps its state in `./gitbay-bot`, which for a test
/// is the package folder: a run there once left a database that was committed by mistake.
func testEnvironment(_ environment: [String: String]) -> [String: String] {
    guard environment["HOME"] == nil, environment["XDG_STATE_HOME"] == nil else { return environment }
    return environment.merging(["HOME": Scratch.url("home").path]) { mine, _ in mine }
}

/// A commit id of forty `digit`s, for forge-state files written in tests.
func sha(_ digit: Character) -> String {
    String(repeating: digit, count: 40)
}
