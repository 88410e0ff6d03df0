import Foundation
import GitbayTestSupport
import Testing

/// A state folder of the bot's for one test, and what `history` says is in it.
struct BotState {
    /// A fresh folder under the scratch folder, made by the bot on first use.
    let folder = Scratch.url("state-\(UUID().uuidString)").path

    /// The actions on record for `server`, newest first, as `history --format jsonl` prints them.
    func history(server: URL, _ arguments: [String] = []) async throws -> [[String: Any]] {
        let result = await runBot(
            ["history", "--state-dir", folder, "--url", server.absoluteString, "--format", "jsonl"] + arguments)
        #expect(result.code == 0, "\(result.error)")
        return try result.output.split(separator: "\n").map {
            try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
    }

    /// The argv of each action on record with `outcome`, as one line each.
    func commands(server: URL, outcome: String) async throws -> [String] {
        try await history(server: server).filter { $0["outcome"] as? String == outcome }.map {
            (($0["argv"] as? [String]) ?? []).joined(separator: " ")
        }
    }
}
