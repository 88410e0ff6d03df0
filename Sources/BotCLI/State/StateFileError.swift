import Foundation

/// A file of the bot's that could not be read or written, as one line that names it.
///
/// Foundation's own descriptions of such errors run to several lines and leave out the path, so
/// a full disk would read as "The operation could not be completed".
struct StateFileError: Error, CustomStringConvertible {
    var path: String
    /// What was being done, as in "cannot write to".
    var action: String
    var underlying: any Error

    var description: String {
        "cannot \(action) \(path): \(Self.reason(underlying))"
    }

    /// The system's reason for `error` in a few words ("No space left on device").
    static func reason(_ error: any Error) -> String {
        if let cocoa = error as? CocoaError {
            switch cocoa.code {
            case .fileWriteOutOfSpace: return "no space left on the device"
            case .fileWriteVolumeReadOnly: return "the file system is read-only"
            case .fileWriteNoPermission, .fileReadNoPermission: return "permission denied"
            case .fileNoSuchFile, .fileReadNoSuchFile: return "no such file or folder"
            default: break
            }
        }
        let nsError = error as NSError
        // Foundation on Linux gives the system's error as a POSIXError value, not an NSError.
        if let posix = nsError.userInfo[NSUnderlyingErrorKey] as? POSIXError {
            return String(cString: strerror(posix.code.rawValue))
        }
        if let posix = nsError.userInfo[NSUnderlyingErrorKey] as? NSError, posix.domain == NSPOSIXErrorDomain {
            return String(cString: strerror(Int32(posix.code)))
        }
        if nsError.domain == NSPOSIXErrorDomain { return String(cString: strerror(Int32(nsError.code))) }
        return nsError.localizedDescription.split(separator: "\n").first.map(String.init) ?? "\(error)"
    }
}
