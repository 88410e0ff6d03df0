/// The state database's tables, as an ordered list of forward migrations.
///
/// `PRAGMA user_version` holds the number of migrations applied; opening for applying runs the
/// missing ones in order, each in one transaction with the version it brings. A migration once
/// released never changes: later needs (the read cache, the feed cursor) come as new ones.
///
/// Version 1:
/// - `meta`: the server and account the database belongs to (keys `server`, `account`).
/// - `runs`: one row per ``RuleEngine/RunRecord``.
/// - `journal`: one row per ``RuleEngine/JournalEntry``, `id` giving the order they were written.
///   Times are seconds since 2001-01-01 (Foundation's reference date, kept exactly as `Date`
///   holds them); `argv`, `argument` and `reasons` are JSON. Indexed by item (then rule and run:
///   one run's entries about one rule and item, a "group") and by rule.
/// - `open_groups`: the groups that on their own would leave an action unfinished, so finding
///   what is unfinished reads only their rules and items, not the whole journal.
/// - `journal_imports`: the keys of journal files imported, so none is imported twice.
///
/// Version 2:
/// - `journal_by_at`: the journal by time, so `history --limit N` reads the newest entries without
///   scanning the rest.
///
/// Version 3:
/// - `read_cache`: one row per item whose detail read is kept (``RuleEngine/CachedDetail``), by
///   the item's reference, with its kind (indexed: a run loads one kind at a time), the plugin's
///   format, the version that validates it, the payload and when it was kept.
///
/// Version 6:
/// - `webhook_bodies` (``DeliveryRows``) replaces version 5's `webhook_deliveries`, which kept
///   only the unsigned delivery ids, within 10,000 of the largest: one replayed body under a huge
///   id moved that window past every genuine delivery. Its ids cannot be turned into bodies, so
///   they go: a delivery taken just before the upgrade and sent again just after is taken twice,
///   which costs one more pass over its repository.
enum StateSchema {
    /// `PRAGMA application_id` of every gitbay-bot state database: "GBot" in ASCII, so `file(1)`
    /// and the bot itself can tell it from other SQLite files.
    static let applicationID: Int64 = 0x4742_6F74

    /// The migrations, the first bringing version 1.
    static let migrations: [String] = [
        """
        CREATE TABLE meta (key TEXT PRIMARY KEY NOT NULL, value TEXT NOT NULL) WITHOUT ROWID;
        CREATE TABLE runs (
            id TEXT PRIMARY KEY NOT NULL, command TEXT NOT NULL, started_at REAL NOT NULL, finished_at REAL,
            exit_code INTEGER
        ) WITHOUT ROWID;
        CREATE TABLE journal (
            id INTEGER PRIMARY KEY,
            at REAL NOT NULL,
            run TEXT NOT NULL,
            phase TEXT NOT NULL CHECK (phase IN ('planned', 'intent', 'result')),
            rule TEXT NOT NULL,
            item TEXT NOT NULL,
            action TEXT NOT NULL,
            argv TEXT NOT NULL,
            outcome TEXT,
            detail TEXT,
            stdin TEXT,
            argument TEXT,
            reasons TEXT
        );
        CREATE INDEX journal_by_item ON journal (item, rule, run);
        CREATE INDEX journal_by_rule ON journal (rule);
        CREATE TABLE open_groups (
            run TEXT NOT NULL, rule TEXT NOT NULL, item TEXT NOT NULL, PRIMARY KEY (run, rule, item)
        ) WITHOUT ROWID;
        CREATE TABLE journal_imports (key TEXT PRIMARY KEY NOT NULL, entries INTEGER NOT NULL) WITHOUT ROWID;
        """,
        """
        CREATE INDEX journal_by_at ON journal (at);
        """,
        """
        CREATE TABLE read_cache (
            item TEXT PRIMARY KEY NOT NULL,
            kind TEXT NOT NULL,
            format INTEGER NOT NULL,
            version TEXT NOT NULL,
            payload TEXT NOT NULL,
            stored_at REAL NOT NULL
        );
        CREATE INDEX read_cache_by_kind ON read_cache (kind);
        """,
        """
        CREATE TABLE activity (
            id INTEGER PRIMARY KEY NOT NULL,
            repo TEXT NOT NULL,
            number INTEGER NOT NULL,
            kind TEXT NOT NULL,
            actor TEXT,
            at REAL NOT NULL,
            labels TEXT
        );
        CREATE INDEX activity_by_at ON activity (at);
        """,
        """
        CREATE TABLE webhook_deliveries (id INTEGER PRIMARY KEY NOT NULL, taken_at REAL NOT NULL);
        """,
        """
        DROP TABLE webhook_deliveries;
        CREATE TABLE webhook_bodies (
            arrival INTEGER PRIMARY KEY NOT NULL,
            digest TEXT NOT NULL UNIQUE,
            delivery INTEGER NOT NULL,
            taken_at REAL NOT NULL
        );
        """,
    ]

    /// The version this build reads and writes.
    static var version: Int64 { Int64(migrations.count) }
}
