import Foundation
import RuleEngine

/// The `journal` table: journal entries to rows and back, and the `open_groups` bookkeeping that
/// goes with every change.
enum JournalRows {
    /// The columns an entry is stored in, in the order ``insert(_:into:)`` binds and ``entry(_:)`` reads them.
    private static let columns = "at, run, phase, rule, item, action, argv, outcome, detail, stdin, argument, reasons"

    /// Adds `entry` after every row already there.
    static func insert(_ entry: JournalEntry, into connection: SQLiteConnection) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        func json(_ value: (some Encodable)?) throws -> SQLiteValue {
            .text(try value.map { String(decoding: try encoder.encode($0), as: UTF8.self) })
        }
        try connection.run(
            "INSERT INTO journal (\(columns)) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            [
                .real(entry.at.timeIntervalSinceReferenceDate), .text(entry.run), .text(entry.phase.rawValue),
                .text(entry.rule), .text(entry.item), .text(entry.action), try json(entry.argv),
                .text(entry.outcome), .text(entry.detail), .text(entry.stdin), try json(entry.argument),
                try json(entry.reasons),
            ])
    }

    /// The entries of the rows matching `condition` (SQL over the table's columns, `?` for each of
    /// `values`), in the order they were written.
    ///
    /// - Parameter withReasons: whether to read the intents' reasons, which only `history` shows;
    ///   decoding them is most of the time it takes to read an entry.
    static func entries(
        where condition: String, _ values: [SQLiteValue] = [], withReasons: Bool, in connection: SQLiteConnection
    ) throws -> [JournalEntry] {
        var decoder = ColumnDecoder()
        let selected = withReasons ? columns : columns.replacingOccurrences(of: "reasons", with: "NULL")
        return try connection.rows("SELECT \(selected) FROM journal WHERE \(condition) ORDER BY id", values) { row in
            try entry(row, decoder: &decoder)
        }
    }

    /// Brings the `open_groups` row of one run's entries about one rule and item up to date: there
    /// when those entries alone would leave an action unfinished, so that ``UnfinishedAction/find(in:)``
    /// over the rules and items with such a row finds all there is.
    static func refreshGroup(run: String, rule: String, item: String, in connection: SQLiteConnection) throws {
        let group = try entries(
            where: "item = ? AND rule = ? AND run = ?", [.text(item), .text(rule), .text(run)], withReasons: false,
            in: connection)
        let sql =
            UnfinishedAction.find(in: group).isEmpty
            ? "DELETE FROM open_groups WHERE run = ? AND rule = ? AND item = ?"
            : "INSERT OR IGNORE INTO open_groups (run, rule, item) VALUES (?, ?, ?)"
        try connection.run(sql, [.text(run), .text(rule), .text(item)])
    }

    /// The entry a row holds; a row that does not read as one is a damaged database.
    private static func entry(_ row: SQLiteRow, decoder: inout ColumnDecoder) throws -> JournalEntry {
        func text(_ column: Int32) throws -> String {
            guard let text = row.text(column) else { throw damaged("a NULL where text belongs") }
            return text
        }
        guard let phase = JournalEntry.Phase(rawValue: try text(2)) else { throw damaged("an unknown phase") }
        return JournalEntry(
            at: Date(timeIntervalSinceReferenceDate: row.real(0)), run: try text(1), phase: phase, rule: try text(3),
            item: try text(4), action: try text(5), argv: try decoder.argv(text(6)), outcome: row.text(7),
            detail: row.text(8), stdin: row.text(9), argument: try row.text(10).map { try decoder.argument($0) },
            reasons: try row.text(11).map { try decoder.decode([ConditionResult].self, $0) })
    }

    /// Decodes the JSON columns, each distinct argv and argument once per read: an action's argv
    /// and argument repeat in its planned, intent and result rows, and most arguments are `"none"`.
    private struct ColumnDecoder {
        private let decoder = JSONDecoder()
        private var argvs: [String: [String]] = [:]
        private var arguments: [String: ActionArgument] = [:]

        mutating func argv(_ json: String) throws -> [String] {
            if let known = argvs[json] { return known }
            let argv = try decode([String].self, json)
            argvs[json] = argv
            return argv
        }

        mutating func argument(_ json: String) throws -> ActionArgument {
            if let known = arguments[json] { return known }
            let argument = try decode(ActionArgument.self, json)
            arguments[json] = argument
            return argument
        }

        func decode<T: Decodable>(_ type: T.Type, _ json: String) throws -> T {
            try decoder.decode(type, from: Data(json.utf8))
        }
    }

    /// The error for a row that does not read as an entry.
    private static func damaged(_ what: String) -> DecodingError {
        .dataCorrupted(DecodingError.Context(codingPath: [], debugDescription: "a journal row has \(what)"))
    }
}
