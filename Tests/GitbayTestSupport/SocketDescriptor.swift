import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A socket of `domain` and `type` that no child process inherits.
func closeOnExecSocket(_ domain: Int32, _ type: Int32) throws -> Int32 {
    #if os(Linux)
    let descriptor = socket(domain, type | Int32(SOCK_CLOEXEC.rawValue), 0)
    #else
    let descriptor = socket(domain, type, 0)
    if descriptor >= 0 { _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC) }
    #endif
    guard descriptor >= 0 else { throw StandInError("socket: \(String(cString: strerror(errno)))") }
    return descriptor
}

/// `close(2)`, under a name that no type's own `close()` hides.
func closeDescriptor(_ descriptor: Int32) {
    _ = close(descriptor)
}
