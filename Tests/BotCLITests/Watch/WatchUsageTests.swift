import Foundation
import GitbayTestSupport
import Testing

/// `watch`'s options that are mistakes: each is exit 64 before any watcher starts.
@Suite struct WatchUsageTests {
    @Test(arguments: ["0s", "30", "soon"])
    func anIntervalThatIsNoDurationIsAUsageError(interval: String) async {
        let result = await runBot(["watch", "--interval", interval, "--url", "http://127.0.0.1:9"])
        #expect(result.code == 64)
        #expect(result.error.contains("--interval takes a duration of a second or more"), "\(result.error)")
    }

    /// A webhook secret needs the `--listen` address deliveries come to, and a file with a secret
    /// in it that can be read; no such mistake starts a watcher, and the secret is never printed.
    @Test func aWebhookSecretWithoutListenOrAnEmptyOrUnreadableOneIsAUsageError() async throws {
        let secret = Scratch.url("secret-\(UUID().uuidString)")
        try "s3cret-value\n".write(to: secret, atomically: true, encoding: .utf8)
        let unheard = await runBot(
            ["watch", "--url", "http://127.0.0.1:9", "--webhook-secret-file", secret.path],
            environment: ["GITBAY_TOKEN": "gb_" + String(repeating: "c", count: 64)])
        #expect(unheard.code == 64)
        #expect(unheard.error.contains("give --listen host:port too"), "\(unheard.error)")
        #expect(!unheard.error.contains("s3cret-value"))
        let empty = Scratch.url("secret-\(UUID().uuidString)")
        try "\n".write(to: empty, atomically: true, encoding: .utf8)
        let blank = await runBot(
            ["watch", "--url", "http://127.0.0.1:9", "--listen", "127.0.0.1:0", "--webhook-secret-file", empty.path],
            environment: ["GITBAY_TOKEN": "gb_" + String(repeating: "c", count: 64)])
        #expect(blank.code == 64)
        #expect(blank.error.contains("the webhook secret file \(empty.path) is empty"), "\(blank.error)")
        // A file that is not there (a typo, a secret not yet deployed) and a directory are read errors.
        for unreadable in [Scratch.url("no-such-secret-\(UUID().uuidString)").path, Scratch.url("").path] {
            let missing = await runBot(
                [
                    "watch", "--url", "http://127.0.0.1:9", "--listen", "127.0.0.1:0", "--webhook-secret-file",
                    unreadable,
                ],
                environment: ["GITBAY_TOKEN": "gb_" + String(repeating: "c", count: 64)])
            #expect(missing.code == 64)
            #expect(
                missing.error.contains(
                    "cannot read the webhook secret file \(unreadable) (from --webhook-secret-file)"),
                "\(missing.error)")
        }
    }
}
