import Foundation
import GitbayTestSupport
import Testing

/// The C shim the server and the test spawner share builds wherever POSIX does.
///
/// macOS cannot be tried here, so its C source is compiled against the strict POSIX and XSI
/// declarations twice: as Linux builds it (the GNU calls, under the `_GNU_SOURCE` it defines for
/// itself), and with `__linux__` undefined, which is the branch Darwin builds and may use no GNU
/// extension and no glibc layout.
@Suite struct POSIXShimPortabilityTests {
    @Test(arguments: [[], ["-U__linux__"]])
    func theShimCompilesStrictly(undefining: [String]) async throws {
        let root = SimulatorProcess.repositoryRoot.appendingPathComponent("Sources/CPOSIXShims")
        let compiler = try ChildProcess(
            "/usr/bin/env",
            ["clang", "-fsyntax-only", "-std=c11", "-D_XOPEN_SOURCE=700"] + undefining + [
                "-Werror", "-Wall", "-Wextra", "-pedantic", "-I", root.appendingPathComponent("include").path,
                root.appendingPathComponent("CPOSIXShims.c").path,
            ], environment: ProcessInfo.processInfo.environment)
        let ended = try await compiler.wait(timeout: .seconds(60))
        #expect(ended.status == 0, "\(ended.errorText)")
    }
}
