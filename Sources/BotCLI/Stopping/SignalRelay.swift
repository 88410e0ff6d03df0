import CSignals
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The process's signals as a stream: what the entry point, and nothing else, turns into the
/// cancellation of the command it runs.
///
/// The C handler only writes the signal's number to a pipe; a thread of the relay's own reads it
/// and yields it. So no Swift code runs in a signal handler, nothing is polled, and the layout of
/// `struct sigaction`, which glibc and Darwin spell differently, stays in C.
public enum SignalRelay {
    /// Catches `stopping` (the first of each is relayed, and a second ends the process by the
    /// signal's default action, for a person who really means it) and `repeating` (each one
    /// relayed), and answers the stream of the signals caught; `nil` when the pipe cannot be made.
    public static func start(stopping: [Int32], repeating: [Int32]) -> AsyncStream<Int32>? {
        let fd = gitbay_signals_open()
        guard fd >= 0 else { return nil }
        let (stream, continuation) = AsyncStream.makeStream(of: Int32.self)
        let reader = Thread {
            var byte: UInt8 = 0
            while true {
                let count = read(fd, &byte, 1)
                if count == 1 {
                    continuation.yield(Int32(byte))
                } else if count < 0 && errno == EINTR {
                    continue
                } else {
                    continuation.finish()
                    return
                }
            }
        }
        reader.name = "gitbay-signals"
        reader.start()
        for signal in stopping { _ = gitbay_signals_catch(signal, 1) }
        for signal in repeating { _ = gitbay_signals_catch(signal, 0) }
        return stream
    }

    /// Lets the next `signal` end the process by its default action: for a repeating signal that
    /// was taken as a stop.
    public static func endOnNext(_ signal: Int32) {
        _ = gitbay_signals_default(signal)
    }
}
