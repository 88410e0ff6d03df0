import Foundation
import GitbayTestSupport
import Testing

/// The entry point's signal handling builds wherever POSIX does: macOS cannot be tried here, so
/// its C source is compiled against the strict POSIX and XSI declarations (no GNU extension, no
/// glibc layout), which Darwin's headers provide.
@Suite struct SignalPortabilityTests {
    @Test func theSignalHandlersUseOnlyPOSIXDeclarations() async throws {
        let root = SimulatorProcess.repositoryRoot.appendingPathComponent("Sources/CSignals")
        let compiler = try ChildProcess(
            "/usr/bin/env",
            [
                "clang", "-fsyntax-only", "-std=c11", "-D_XOPEN_SOURCE=700", "-Werror", "-Wall", "-Wextra",
                "-pedantic", "-I", root.appendingPathComponent("include").path,
                root.appendingPathComponent("CSignals.c").path,
            ], environment: ProcessInfo.processInfo.environment)
        let ended = try await compiler.wait(timeout: .seconds(60))
        #expect(ended.status == 0, "\(ended.errorText)")
    }
}
