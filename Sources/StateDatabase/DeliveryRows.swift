import Foundation
import RuleEngine

/// The `webhook_bodies` table: one row per webhook body `watch --listen` took (schema version 6).
///
/// Keyed by the SHA-256 of the signed body, in lowercase hex, with the unsigned `X-Gitbay-Delivery`
/// id it came under kept beside it for whoever reads the file, never compared. `arrival` numbers
/// the rows in the order they were taken (the table's rowid: each insert is one past the largest,
/// and the largest is never the one trimmed), and only the newest ``DeliveryLog/deliveriesKept`` stay.
enum DeliveryRows {
    /// Takes the body `bodyDigest` under delivery `id` at `date`, answering whether it is new.
    ///
    /// `kept` bounds the rows. Run inside a transaction, so check, insert and trim are one step.
    static func take(
        _ id: Int, bodyDigest: [UInt8], at date: Date, kept: Int, in connection: SQLiteConnection
    ) throws -> Bool {
        let digest = SQLiteValue.text(hex(bodyDigest))
        let seen = try connection.rows("SELECT 1 FROM webhook_bodies WHERE digest = ?", [digest]) { $0.integer(0) }
        guard seen.isEmpty else { return false }
        try connection.run(
            "INSERT INTO webhook_bodies (digest, delivery, taken_at) VALUES (?, ?, ?)",
            [digest, .integer(Int64(id)), .real(date.timeIntervalSinceReferenceDate)])
        try connection.run(
            "DELETE FROM webhook_bodies WHERE arrival <= last_insert_rowid() - ?",
            [.integer(Int64(kept))])
        return true
    }

    /// `bytes` as two lowercase hex digits each.
    private static func hex(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789abcdef".utf8)
        return String(decoding: bytes.flatMap { [digits[Int($0 >> 4)], digits[Int($0 & 0x0f)]] }, as: UTF8.self)
    }
}
