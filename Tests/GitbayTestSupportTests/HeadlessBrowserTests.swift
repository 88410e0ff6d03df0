import Foundation
import Testing

@testable import GitbayTestSupport

/// The headless browser the status page's tests use: what a visit reports of a page's console,
/// its DOM and its screenshot, and that a visit ends, in time, with every process it started.
///
/// The pages are served over HTTP on 127.0.0.1, as the status page will be. The suite is
/// serialized: each visit is a whole browser, and two cores are shared with the other suites.
@Suite(.serialized) struct HeadlessBrowserTests {
    private let environment = ProcessInfo.processInfo.environment

    @Test func aCleanPageHasNoConsoleErrorsAndShowsWhatItsScriptsAdded() async throws {
        let page = """
            <!doctype html>
            <html><head><title>clean</title><style>body { font: 32px sans-serif; }</style></head>
            <body><h1>gitbay-bot status</h1>
            <script>document.body.insertAdjacentHTML("beforeend", '<p id="added">added by a script</p>');</script>
            <script>setTimeout(() => document.body.insertAdjacentHTML("beforeend", '<p id="later">by a timer</p>'), 500);</script>
            </body></html>
            """
        let screenshot = Self.screenshotURL()
        let visit = try await serving(["clean.html": page]) { base in
            try await HeadlessBrowser.visit(base.appendingPathComponent("clean.html"), screenshotTo: screenshot)
        }
        #expect(visit.consoleErrors == [])
        #expect(visit.dom.contains("<h1>gitbay-bot status</h1>"))
        #expect(visit.dom.contains(#"<p id="added">added by a script</p>"#))
        #expect(visit.dom.contains(#"<p id="later">by a timer</p>"#))
        #expect(visit.screenshot == screenshot)
        #expect(try Self.pngSize(screenshot) == (1280, 900))
        try await expectNothingLeft(by: screenshot)
    }

    @Test func consoleErrorsAndUncaughtExceptionsAreReported() async throws {
        // One statement a line, so each report's line is known.
        let page = #"""
            <!doctype html>
            <html><head><title>errors</title></head><body><p>errors</p>
            <script>console.error("boom");</script>
            <script>console.error("two\nlines");</script>
            <script>undefinedFunction();</script>
            <script>setTimeout(() => { throw new Error("late"); }, 300);</script>
            <script>Promise.reject(new Error("rejected"));</script>
            </body></html>
            """#
        let screenshot = Self.screenshotURL()
        let (visit, url) = try await serving(["errors.html": page]) { base in
            let url = base.appendingPathComponent("errors.html")
            return (try await HeadlessBrowser.visit(url, screenshotTo: screenshot, width: 640, height: 480), url)
        }
        let expected = [
            "boom (\(url.absoluteString):3)",
            "two\nlines (\(url.absoluteString):4)",
            "Uncaught ReferenceError: undefinedFunction is not defined (\(url.absoluteString):5)",
            "Uncaught Error: late (\(url.absoluteString):6)",
            "Uncaught (in promise) Error: rejected (\(url.absoluteString):7)",
        ]
        #expect(visit.consoleErrors.count == expected.count)
        #expect(Set(visit.consoleErrors) == Set(expected))
        #expect(try Self.pngSize(screenshot) == (640, 480))
        try await expectNothingLeft(by: screenshot)
    }

    /// chromium logs a web page's console at one level, so what is not an error counts too.
    @Test func consoleLogAndWarnCountAsErrorsForChromiumLogsEveryLevelAlike() async throws {
        let page = """
            <!doctype html>
            <html><body><script>console.log("just saying"); console.warn("careful");</script></body></html>
            """
        let screenshot = Self.screenshotURL()
        let (visit, url) = try await serving(["log.html": page]) { base in
            let url = base.appendingPathComponent("log.html")
            return (try await HeadlessBrowser.visit(url, screenshotTo: screenshot), url)
        }
        #expect(visit.consoleErrors == ["just saying (\(url.absoluteString):2)", "careful (\(url.absoluteString):2)"])
        try await expectNothingLeft(by: screenshot)
    }

    @Test func chromiumsOwnLinesAreNotThePagesErrors() {
        // Lines as this chromium prints them, with its D-Bus, GPU and launcher noise; a console
        // record of one of its own pages; the format before version 120; a cut-short record.
        let log = """
            /usr/bin/chromium: 9: [: 25276510208: unexpected operator
            [2164:2193:1201/201548.080492:ERROR:dbus/bus.cc:405] Failed to connect to the bus: Failed to connect to socket /run/dbus/system_bus_socket: No such file or directory
            [2209:2209:1201/201548.185067:WARNING:media/gpu/vaapi/vaapi_wrapper.cc:1655] drmGetDevices2() has not found any devices
            [2209:2209:1201/201548.272767:WARNING:sandbox/policy/linux/sandbox_linux.cc:405] InitializeSandbox() called with multiple threads in process gpu-process.
            [2164:2164:1201/201548.327035:ERROR:dbus/object_proxy.cc:572] Failed to call method: org.freedesktop.DBus.NameHasOwner
            [2164:2164:1201/201548.327036:ERROR:console/console_log.cc:7] "not a console record", source: x (1)
            [2164:2164:1201/201548.703122:INFO:CONSOLE:2] "boom", source: http://127.0.0.1:8000/p.html (2)
            5990 bytes written to file /tmp/shot.png
            [2164:2164:1201/201548.703123:INFO:CONSOLE:4] "two
            lines", source: http://127.0.0.1:8000/p.html (4)
            [2164:2164:1201/201548.703124:INFO:CONSOLE:1] "internal", source: chrome://newtab/ (1)
            [2164:2164:1201/201548.703131:INFO:CONSOLE(3)] "Uncaught ReferenceError: f is not defined", source: http://127.0.0.1:8000/p.html (3)
            [2164:2164:1201/201548.718173:INFO:CONSOLE:9] "cut short
            """
        #expect(
            HeadlessBrowser.consoleErrors(inLog: log) == [
                "boom (http://127.0.0.1:8000/p.html:2)",
                "two\nlines (http://127.0.0.1:8000/p.html:4)",
                "Uncaught ReferenceError: f is not defined (http://127.0.0.1:8000/p.html:3)",
                "cut short",
            ])
    }

    @Test func aPageThatNeverAnswersEndsTheVisitAtItsTimeoutWithNothingLeft() async throws {
        // Accepts connections (the kernel does, from the backlog) and never answers them.
        let silent = try ChildProcess(
            "/usr/bin/env",
            [
                "python3", "-u", "-c",
                "import socket, sys\ns = socket.socket()\ns.bind(('127.0.0.1', 0))\ns.listen(8)\n"
                    + "print(s.getsockname()[1])\nsys.stdin.read()",
            ], environment: environment, input: .pipe)
        let port = try await silent.firstLine(timeout: .seconds(30))
        let url = try #require(URL(string: "http://127.0.0.1:\(port)/"))
        let screenshot = Self.screenshotURL()
        let started = ContinuousClock.now
        await #expect {
            try await HeadlessBrowser.visit(url, screenshotTo: screenshot, timeout: .seconds(5))
        } throws: { error in
            guard case .timedOut(_, let after) = error as? HeadlessBrowser.Failure else { return false }
            return after == .seconds(5)
        }
        // The timeout, and at most the seven seconds of waiting for the visit's processes to end.
        #expect(ContinuousClock.now - started < .seconds(15))
        await silent.stop()
        try await expectNothingLeft(by: screenshot)
    }

    @Test func aPageThatCannotBeReachedIsAnError() async throws {
        // A port a server had a moment ago: closed now.
        let closed = try await serving([:]) { $0 }
        let screenshot = Self.screenshotURL()
        await #expect {
            try await HeadlessBrowser.visit(closed.appendingPathComponent("gone.html"), screenshotTo: screenshot)
        } throws: { error in
            guard case .pageLoadFailed(_, let reason) = error as? HeadlessBrowser.Failure else { return false }
            return reason == "net::ERR_CONNECTION_REFUSED"
        }
        #expect(!FileManager.default.fileExists(atPath: screenshot.path))
        try await expectNothingLeft(by: screenshot)
    }

    /// A screenshot's place, unique to one test, in the test process's scratch folder.
    private static func screenshotURL() -> URL {
        Scratch.url("shot-\(UUID().uuidString).png")
    }

    /// The width and height in a PNG's header.
    private static func pngSize(_ file: URL) throws -> (Int, Int) {
        let bytes = [UInt8](try Data(contentsOf: file).prefix(24))
        try #require(bytes.count == 24 && bytes[0..<8] == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        let number = { (start: Int) in bytes[start..<start + 4].reduce(0) { $0 << 8 | Int($1) } }
        return (number(16), number(20))
    }

    /// Runs `body` with the base URL of an HTTP server on 127.0.0.1 serving `pages` (file name to
    /// HTML) from a folder of their own, and stops the server whatever `body` does.
    private func serving<T>(_ pages: [String: String], _ body: (URL) async throws -> T) async throws -> T {
        let folder = Scratch.url("pages-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        for (name, html) in pages {
            try Data(html.utf8).write(to: folder.appendingPathComponent(name))
        }
        let server = try ChildProcess(
            "/usr/bin/env",
            ["python3", "-u", "-m", "http.server", "--bind", "127.0.0.1", "--directory", folder.path, "0"],
            environment: environment)
        let serve = { (server: ChildProcess) in
            // "Serving HTTP on 127.0.0.1 port 37069 (http://127.0.0.1:37069/) ..."
            let line = try await server.firstLine(timeout: .seconds(30))
            let port = try #require(line.firstMatch(of: #/ port (\d+) /#)?.1, "the server printed '\(line)'")
            return try await body(try #require(URL(string: "http://127.0.0.1:\(port)/")))
        }
        return try await stopping(server, with: { await $0.stop() }, serve)
    }

    /// Expects no process of the visit that wrote `screenshot` to be running (`pgrep -f` on the
    /// name of the visit's folder, which every one of them has in its command line), and the
    /// folder to be gone.
    private func expectNothingLeft(by screenshot: URL) async throws {
        let name = "chromium-\(screenshot.deletingPathExtension().lastPathComponent)"
        let pgrep = try #require(
            ProgramPath.find("pgrep"), "pgrep is not installed: run Scripts/install-deps.sh --tests")
        let ended = try await ChildProcess(pgrep, ["-a", "-f", name], environment: environment)
            .wait(timeout: .seconds(10))
        // pgrep exits 1 when nothing matches.
        #expect(ended.status == 1, "left running: \(ended.outputText)")
        let temporary = try FileManager.default.contentsOfDirectory(atPath: NSTemporaryDirectory())
        #expect(!temporary.contains { $0.hasPrefix(name) })
    }
}
