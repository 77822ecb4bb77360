import Testing

@testable import ArcadeStore
@testable import ArcadeWeb

@Suite("CSV tables")
struct CSVTableTests {
    @Test func quotedFieldsCommasAndLineBreaks() throws {
        let table = try CSVTable("a,b\r\n\"c, d\",\"say \"\"hi\"\"\"\n\"two\nlines\",\n\n")
        #expect(table.rows == [["a", "b"], ["c, d", "say \"hi\""], ["two\nlines", ""]])
    }

    @Test func anOpenQuoteIsAnErrorWithItsLine() {
        #expect(throws: CSVTable.Error(line: 2)) { try CSVTable("a,b\n\"open,c\nd") }
        #expect(throws: CSVTable.Error(line: 1)) { try CSVTable("\"x\"y,z") }
    }
}
