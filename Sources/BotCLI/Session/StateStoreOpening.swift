import ArgumentParsing
import Foundation
import GitbayClient
import GitbayKit
import RuleEngine
import StateDatabase

/// Opens the state database for a session, mapping every failure to one line and a documented
/// exit code.
enum StateStoreOpening {
    /// The database of `account` on `server`, locked for this run, with any older journal imported.
    ///
    /// Another run applying with it is exit 75 (run again later); a file that cannot be used or
    /// written (a full disk, garbage, another server's) is exit 74, before anything is sent.
    static func open(
        _ settings: Settings, server: URL, account: String, console: any Console
    ) async throws(CommandFailure) -> SQLiteStateStore {
        let path = StateLocation.database(settings.stateDir, server: server, account: account)
        let store: SQLiteStateStore
        do {
            store = try await SQLiteStateStore.opened(
                at: path, identity: StoreIdentity(server: server.absoluteString, account: account), mode: .applying)
        } catch {
            if case .busy = error {
                throw CommandFailure("\(error); try again when it is done", code: .temporaryFailure)
            }
            throw CommandFailure("\(error)", code: .ioError)
        }
        do {
            if let note = try await LegacyJournal.importOnce(from: settings.journal, into: store) {
                console.write(note + "\n", to: .error)
            }
        } catch {
            throw CommandFailure("\(error)", code: .ioError)
        }
        return store
    }

    /// The database of `account` on `server` for a session that only plans, to read and keep
    /// details in its read cache: made (as a run that applies would make it, holding the lock
    /// for that moment only) when there is none yet; `nil`, with a note, when it cannot be used:
    /// the cache saves requests, and a plan goes on without it.
    static func openCache(
        _ settings: Settings, server: URL, account: String, console: any Console
    ) async -> SQLiteStateStore? {
        let path = StateLocation.database(settings.stateDir, server: server, account: account)
        let identity = StoreIdentity(server: server.absoluteString, account: account)
        do {
            return try await SQLiteStateStore.opened(at: path, identity: identity, mode: .caching)
        } catch {
            guard case .missing = error else {
                console.write("note: the read cache is not used: \(error)\n", to: .error)
                return nil
            }
        }
        do {
            // Closed before the cache opens it: the lock is let go now, not whenever the store's
            // queue drops its last reference.
            try await SQLiteStateStore.opened(at: path, identity: identity, mode: .applying).close()
            return try await SQLiteStateStore.opened(at: path, identity: identity, mode: .caching)
        } catch {
            console.write("note: the read cache is not used: \(error)\n", to: .error)
            return nil
        }
    }
}
