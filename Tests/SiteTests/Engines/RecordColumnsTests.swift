import Foundation
import Storage
import TestSupport
import Testing

@testable import ArcadeStore

/// Every record's columns are its table's: a record names its columns once (`TableRecord`), and that one list is
/// checked here against the migrated schema on both engines (a column spelt wrong in it failed only when its read
/// ran; the newcomer's review).
@Suite("Records and the schema")
struct RecordColumnsTests {
    static let records: [any TableRecord.Type] = [
        NameGameStore.Session.self, NameGameStore.RoundRow.self, NameGameStore.Face.self, NameGameStore.Lifetime.self,
        NameGameStore.CardRow.self, NameGameStore.SessionPeople.self, Housekeeping.Outcome.self, Secrets.self,
        InterceptionsStore.RuleRow.self, InterceptionsStore.MaintenanceRow.self, InterceptionsStore.ChangeRow.self,
        AdminStore.Invite.self, AdminStore.Passkey.self, AdminHotfixes.Change.self, AdminHotfixes.ConstantHotfixes.self,
        AdminStore.RecoveryCodes.self, AdminStore.Account.self, AdminStore.SessionRow.self, AdminStore.AuditEntry.self,
        ChangeSchedule.ChangeRow.self, StringHotfixes.Hotfix.self, StringsExchange.Import.self,
        PhotoLibrary.Photos.self, PeopleStore.PersonRow.self, PeopleStore.Imports.self, PlayerMerge.Merges.self,
        PasskeyChallenges.UsedChallenges.self, PasskeyStore.Passkey.self, TransferCodes.self, InsightsRollups.Days.self,
        CheatStore.Progress.self, ArcadeStore.Player.Table.self, OnceStore.Versions.self, OnceStore.Sessions.self,
        OnceStore.Mark.self, OnceStore.ToDoRow.self, MastermindStore.GameRow.self, MastermindStore.GuessRow.self,
        MastermindStore.Totals.self, MastermindStore.WinsByGuesses.self,
    ]

    static func select<R: TableRecord>(_ record: R.Type) -> String {
        "SELECT \(R.selection) FROM \(R.table) LIMIT 0"
    }

    @Test(arguments: Engine.allCases) func everyRecordsColumnsAreInItsTable(_ engine: Engine) throws {
        let site = try InProcessSite(engine: engine)
        defer { site.stop() }
        let db = try Database(location: site.database)
        for record in Self.records {
            #expect(throws: Never.self, "\(record)") { try db.query(Self.select(record)) }
        }
    }

    /// The list above has every record the stores declare (a new one left out would go unchecked).
    @Test func theListHasEveryRecord() throws {
        let declared = WallsTests.files(under: "Sources/ArcadeStore").reduce(0) { count, file in
            count + file.text.ranges(of: /(struct|enum) \w+: [^{]*\bTableRecord\b/).count
        }
        #expect(declared == Self.records.count)
    }
}
