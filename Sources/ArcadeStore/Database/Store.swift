import Storage

/// A store of the site's records, kept in the site's database.
package protocol Store: Sendable {
    var pool: DatabasePool { get }
}

extension Store {
    /// Reads in one snapshot of the database (`DatabasePool.read`): a page built from several reads shows one state
    /// of it, never half of a change committed between them. For pages that only read.
    package func snapshot<T>(_ body: () throws -> T) throws -> T { try pool.read { _ in try body() } }
}
