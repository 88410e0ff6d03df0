import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Opens a page in headless chromium, so the tests of `watch --listen`'s status page see what a
/// person's browser shows (a screenshot, the DOM after the page's scripts ran, its console errors),
/// not only the HTML the server sent.
///
/// One ``ChildProcess`` runs `chromium` with `--screenshot`, `--window-size` and `--dump-dom` at
/// once: the DOM comes on its standard output and the log, with the page's console, on its
/// standard error. Its profile and `HOME` are a fresh folder, removed afterwards, named
/// `chromium-<screenshot's name without extension>-<UUID>` in the temporary folder: every process
/// of the visit (the browser, its zygotes and renderers, and the crash handlers, which leave its
/// process group) has that folder in its command line, so a test can look for the processes of
/// its visit with `pgrep -f chromium-<screenshot's name>`. `Scripts/install-deps.sh --tests`
/// installs chromium.
public enum HeadlessBrowser {
    /// What a visit saw.
    public struct Visit: Sendable {
        /// The PNG chromium wrote, of exactly the window's size.
        public var screenshot: URL
        /// The document as serialized after the page's scripts ran (`--dump-dom`).
        public var dom: String
        /// The page's console messages and uncaught exceptions, each as `message (source:line)`.
        ///
        /// This chromium logs a web page's console messages on stderr at INFO whatever their level
        /// (`[pid:tid:MMDD/HHMMSS.micros:INFO:CONSOLE:LINE] "MESSAGE", source: URL (LINE)`), so
        /// `console.log` and `console.warn` land here as `console.error` does: a page under test
        /// should print nothing to its console. Uncaught exceptions and rejected promises come as
        /// `Uncaught ...`. Resources that fail to load (a 404 image) are not logged, so they are not
        /// here; nor is chromium's own noise (D-Bus, GPU, the launcher) or its own pages' console.
        public var consoleErrors: [String]
    }

    /// Why a visit saw nothing.
    public enum Failure: Error, CustomStringConvertible {
        case notInstalled
        /// chromium could not load the page (`net::ERR_CONNECTION_REFUSED`...).
        case pageLoadFailed(url: URL, reason: String)
        /// chromium was still busy at the visit's timeout (it was killed).
        case timedOut(url: URL, after: Duration)
        /// chromium failed otherwise: its exit, and the end of what it printed.
        case browserFailed(url: URL, detail: String)
        /// Processes of the visit that outlived even SIGKILL.
        case processesLeft(url: URL, pids: [Int32])

        public var description: String {
            switch self {
            case .notInstalled:
                return "chromium is not installed: run Scripts/install-deps.sh --tests"
            case .pageLoadFailed(let url, let reason):
                return "chromium could not load \(url.absoluteString): \(reason)"
            case .timedOut(let url, let after):
                return "chromium did not finish with \(url.absoluteString) within \(after)"
            case .browserFailed(let url, let detail):
                return "chromium failed on \(url.absoluteString): \(detail)"
            case .processesLeft(let url, let pids):
                return "processes of the visit of \(url.absoluteString) outlived it: \(pids)"
            }
        }
    }

    /// Loads `url` in a `width` × `height` window, lets the page run for a second of its virtual
    /// time (so timers set at load fire and what they do shows, without waiting that second), then
    /// writes a PNG screenshot to `screenshotTo` and answers the DOM and the console's errors.
    ///
    /// The visit ends within `timeout` (chromium's process group is killed then), then waits at
    /// most a few seconds for the visit's other processes to end, killing those left; none
    /// outlives it. A page that cannot be loaded is ``Failure/pageLoadFailed(url:reason:)``.
    public static func visit(
        _ url: URL, screenshotTo: URL, width: Int = 1280, height: Int = 900, timeout: Duration = .seconds(90)
    ) async throws -> Visit {
        guard let chromium = ProgramPath.find("chromium") else { throw Failure.notInstalled }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "chromium-\(screenshotTo.deletingPathExtension().lastPathComponent)-\(UUID().uuidString)",
            isDirectory: true)
        let home = folder.appendingPathComponent("home", isDirectory: true)
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        // A screenshot of an earlier visit must not pass for this one's.
        try? FileManager.default.removeItem(at: screenshotTo)

        var environment = ProcessInfo.processInfo.environment
        environment["HOME"] = home.path
        environment["XDG_CONFIG_HOME"] = home.appendingPathComponent(".config").path
        environment["XDG_CACHE_HOME"] = home.appendingPathComponent(".cache").path
        let arguments = [
            // Tests run as root, where chromium's sandbox cannot start.
            "--headless", "--no-sandbox", "--disable-gpu",
            "--user-data-dir=\(folder.appendingPathComponent("profile").path)",
            "--no-first-run", "--disable-extensions", "--disable-background-networking",
            // Containers give /dev/shm 64 MB, which chromium outgrows; /tmp has room.
            "--disable-dev-shm-usage", "--hide-scrollbars",
            "--enable-logging=stderr", "--v=0",
            "--virtual-time-budget=1000",
            "--window-size=\(width),\(height)", "--screenshot=\(screenshotTo.path)", "--dump-dom",
            url.absoluteString,
        ]

        let browser: ChildProcess
        do {
            browser = try ChildProcess(chromium, arguments, environment: environment)
        } catch {
            try? FileManager.default.removeItem(at: folder)
            throw error
        }
        let ended: ChildProcess.Termination
        do {
            ended = try await browser.wait(timeout: timeout)
        } catch {
            try await end(browser, folder: folder, url: url)
            if case .timedOut = error as? ChildProcess.Failure { throw Failure.timedOut(url: url, after: timeout) }
            throw error
        }
        try await end(browser, folder: folder, url: url)

        let log = ended.errorText
        if let failed = log.firstMatch(of: #/Page load failed: (\S+)/#) {
            throw Failure.pageLoadFailed(url: url, reason: String(failed.1))
        }
        guard ended.status == 0 else {
            let exit = ended.status.map { "exit \($0)" } ?? "signal \(ended.signal ?? 0)"
            throw Failure.browserFailed(url: url, detail: "\(exit); it printed '\(log.suffix(2000))'")
        }
        let written = (try? FileManager.default.attributesOfItem(atPath: screenshotTo.path)[.size] as? Int) ?? 0
        guard written > 0 else {
            throw Failure.browserFailed(url: url, detail: "no screenshot; it printed '\(log.suffix(2000))'")
        }
        return Visit(screenshot: screenshotTo, dom: ended.outputText, consoleErrors: consoleErrors(inLog: log))
    }

    /// The page's console messages in chromium's log `log`, each as `message (source:line)`.
    ///
    /// A console record starts with chromium's log prefix and `CONSOLE:LINE]` (`CONSOLE(LINE)]`
    /// before version 120) and ends at the first line that ends with `", source: URL (LINE)`; a
    /// message with newlines spans several lines. Everything else (D-Bus, GPU, sandbox and
    /// launcher lines, "N bytes written to file") is chromium's, as are console messages of its
    /// own pages (`chrome://`, `devtools://`...).
    static func consoleErrors(inLog log: String) -> [String] {
        // Each record of chromium's log starts `[pid:tid:MMDD/HHMMSS.micros:LEVEL:`.
        let recordStart = #/\[\d+:\d+:\d{4}/\d{6}\.\d+:[A-Z0-9_]+:/#
        // What follows a console record's opening quote is the message's start.
        let consoleStart = #/\[\d+:\d+:\d{4}/\d{6}\.\d+:[A-Z0-9_]+:CONSOLE(?::\d+|\(\d+\))\] "(.*)/#
        let consoleEnd = #/(?s)(.*)", source: (.*) \((\d+)\)/#
        let lines = log.split(separator: "\n", omittingEmptySubsequences: false)
        var errors: [String] = []
        var index = 0
        while index < lines.count {
            guard let start = lines[index].wholeMatch(of: consoleStart) else {
                index += 1
                continue
            }
            var text = String(start.1)
            while true {
                if let record = text.wholeMatch(of: consoleEnd) {
                    let source = String(record.2)
                    if !ownPageSchemes.contains(where: { source.hasPrefix($0) }) {
                        errors.append(source.isEmpty ? String(record.1) : "\(record.1) (\(source):\(record.3))")
                    }
                    break
                }
                // Cut short (chromium killed mid-line): the record is still the page's.
                guard index + 1 < lines.count, lines[index + 1].prefixMatch(of: recordStart) == nil else {
                    errors.append(text)
                    break
                }
                index += 1
                text += "\n" + lines[index]
            }
            index += 1
        }
        return errors
    }

    /// The schemes of chromium's own pages, whose console is not the page under test's.
    private static let ownPageSchemes = ["chrome://", "chrome-extension://", "chrome-untrusted://", "devtools://"]

    /// Ends what is left of the visit, so nothing of it outlives the test.
    ///
    /// First chromium's process group (already gone after a normal exit), then the processes left
    /// that name the visit's folder (the crash handlers, in groups of their own), then the folder.
    /// Runs detached, so a cancelled test still waits for its processes to end.
    private static func end(_ browser: ChildProcess, folder: URL, url: URL) async throws {
        let left = await Task.detached { () -> [Int32] in
            if browser.isRunning { await browser.stop(grace: .seconds(2)) }
            // Two seconds to end on their own (the crash handlers follow the browser within
            // milliseconds), then SIGKILL and five more.
            let gone = { processes(naming: folder.path).isEmpty }
            if (try? await eventually(within: 2, every: .milliseconds(100), gone)) != true {
                for pid in processes(naming: folder.path) { kill(pid, SIGKILL) }
                _ = try? await eventually(within: 5, every: .milliseconds(100), gone)
            }
            return processes(naming: folder.path)
        }.value
        try? FileManager.default.removeItem(at: folder)
        guard left.isEmpty else { throw Failure.processesLeft(url: url, pids: left) }
    }

    /// The processes whose command line contains `text`, from /proc.
    private static func processes(naming text: String) -> [Int32] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return entries.compactMap { entry in
            guard let pid = Int32(entry),
                let arguments = FileManager.default.contents(atPath: "/proc/\(entry)/cmdline")
            else { return nil }
            return String(decoding: arguments, as: UTF8.self).contains(text) ? pid : nil
        }
    }
}
