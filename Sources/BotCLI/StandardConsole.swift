import ArgumentParsing
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The process's real standard output and error.
public struct StandardConsole: Console {
    public init() {}

    public func write(_ text: String, to stream: StandardStream) {
        let handle = stream == .output ? FileHandle.standardOutput : FileHandle.standardError
        // `write(_:)` traps on a full disk or a closed descriptor; output that cannot be written
        // is lost, but the run, and its journal, go on.
        try? handle.write(contentsOf: Data(text.utf8))
    }

    public func isTerminal(_ stream: StandardStream) -> Bool {
        isatty(stream == .output ? STDOUT_FILENO : STDERR_FILENO) == 1
    }
}
