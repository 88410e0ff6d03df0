import Foundation

/// A size in bytes, written for people as `32 MiB` and read from settings as `32MiB` or `33554432`.
///
/// The client caps every answer's size with one; keeping the spelling here means the cap an error
/// names is written the way the setting that changes it is.
public struct ByteCount: Sendable, Hashable, Comparable, CustomStringConvertible {
    public var bytes: Int

    public init(bytes: Int) {
        self.bytes = bytes
    }

    public static func kibibytes(_ count: Int) -> ByteCount { ByteCount(bytes: count * 1024) }

    public static func mebibytes(_ count: Int) -> ByteCount { ByteCount(bytes: count * 1024 * 1024) }

    /// The binary units a size may be written in, largest first.
    private static let units: [(suffix: String, bytes: Int)] = [
        ("GiB", 1 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10),
    ]

    /// Reads a whole number of bytes (`33554432`) or of a binary unit (`32MiB`, `512 KiB`, `1GiB`).
    ///
    /// Returns nil for anything else, negative or too large for an `Int` included.
    public init?(parsing text: String) {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        let unit = Self.units.first { trimmed.hasSuffix($0.suffix) }
        let digits = unit.map { trimmed.dropLast($0.suffix.count).trimmingCharacters(in: .whitespaces) } ?? trimmed
        guard !digits.isEmpty, digits.allSatisfy({ $0.isASCII && $0.isNumber }), let count = Int(digits) else {
            return nil
        }
        let (bytes, overflow) = count.multipliedReportingOverflow(by: unit?.bytes ?? 1)
        guard !overflow else { return nil }
        self.bytes = bytes
    }

    /// The size in the largest binary unit that divides it, such as `32 MiB`, else in bytes.
    public var description: String {
        guard bytes > 0, let unit = Self.units.first(where: { bytes % $0.bytes == 0 }) else {
            return bytes == 1 ? "1 byte" : "\(bytes) bytes"
        }
        return "\(bytes / unit.bytes) \(unit.suffix)"
    }

    public static func < (lhs: ByteCount, rhs: ByteCount) -> Bool {
        lhs.bytes < rhs.bytes
    }
}
