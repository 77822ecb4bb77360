/// "Has this player done that, and when?": the Ecno/Once model, pure.
/// It works on a player's record and a clock; every change it decides is
/// returned as effects for a store to persist.
public struct Once: Sendable {
    /// Where a count starts.
    public enum Scope: Sendable, Equatable {
        /// Since the player's first visit.
        case install
        /// Since the player first saw the current site version.
        case version
        /// Since the current browser session began.
        case session
        /// The last Δ seconds (a mark exactly Δ ago counts).
        case since(Double)
        /// Up to Δ seconds from now, as in Ecno: for a to-do, due through
        /// its deadline Δ after `toDo`; as a `beenDone` scope it holds every
        /// mark so far (use `since(Δ)` for the last Δ seconds).
        case until(Double)
    }

    public enum Count: Sendable, Equatable {
        case moreThan(Int), lessThan(Int), exactly(Int)

        func holds(_ n: Int) -> Bool {
            switch self {
            case .moreThan(let k): n > k
            case .lessThan(let k): n < k
            case .exactly(let k): n == k
            }
        }
    }

    /// When the install, version and session scopes began (seconds).
    public struct Anchors: Sendable, Equatable {
        public var install: Double
        public var version: Double
        public var session: Double
        public init(install: Double, version: Double, session: Double) {
            self.install = install
            self.version = version
            self.session = session
        }
    }

    public struct ToDo: Sendable, Equatable {
        public var created: Double
        /// Nil: until done.
        public var expires: Double?
        public var info: String?
        public init(created: Double, expires: Double?, info: String?) {
            self.created = created
            self.expires = expires
            self.info = info
        }
    }

    /// A player's marks (time → how many at that time) and to-dos.
    public struct Record: Sendable, Equatable {
        public var done: [String: [Double: Int]] = [:]
        public var toDos: [String: ToDo] = [:]
        public init() {}
    }

    /// What a store must write.
    public enum Effect: Sendable, Equatable {
        case mark(task: String, at: Double)
        case setToDo(task: String, ToDo)
        case removeToDo(task: String)
        case clearDone(task: String)
        case clearAll
    }

    public private(set) var record: Record
    public let anchors: Anchors
    private let clock: @Sendable () -> Double

    public init(record: Record, anchors: Anchors, clock: @escaping @Sendable () -> Double) {
        self.record = record
        self.anchors = anchors
        self.clock = clock
    }

    public var now: Double { clock() }

    /// Records a timestamp and removes any to-do for the task.
    @discardableResult
    public mutating func markDone(_ task: String) -> [Effect] {
        let at = now
        record.done[task, default: [:]][at, default: 0] += 1
        var effects: [Effect] = [.mark(task: task, at: at)]
        if record.toDos.removeValue(forKey: task) != nil { effects.append(.removeToDo(task: task)) }
        return effects
    }

    /// How many times the task was done within the scope.
    public func count(_ task: String, scope: Scope = .install) -> Int {
        let span = self.span(of: scope)
        return (record.done[task] ?? [:]).reduce(0) { $0 + (span.from <= $1.key && $1.key <= span.to ? $1.value : 0) }
    }

    /// Whether the task's count within the scope satisfies `count`. A task
    /// never done has count 0, so it satisfies "less than n" and "exactly 0"
    /// (Ecno answers false there).
    public func beenDone(_ task: String, scope: Scope = .install, count: Count = .moreThan(0)) -> Bool {
        count.holds(self.count(task, scope: scope))
    }

    public func lastDone(_ task: String) -> Double? { record.done[task]?.keys.max() }

    /// Without a scope, always marks the task to do. With a scope, marks it
    /// only if it was not done within that scope, as Ecno does; `until(Δ)`
    /// holds every mark so far, so it marks a task never done, due for Δ.
    @discardableResult
    public mutating func toDo(_ task: String, scope: Scope? = nil, info: String? = nil) -> [Effect] {
        var expires: Double?
        if let scope {
            if beenDone(task, scope: scope) { return [] }
            if case .until(let delta) = scope { expires = now + delta }
        }
        let item = ToDo(created: now, expires: expires, info: info)
        record.toDos[task] = item
        return [.setToDo(task: task, item)]
    }

    /// Whether the task is still to do (a to-do is due through its deadline, as in Ecno).
    public func needToDo(_ task: String) -> Bool { live(task) != nil }

    /// The info passed to `toDo`; nil once the to-do has expired.
    public func infoForToDo(_ task: String) -> String? { live(task)?.info }

    @discardableResult
    public mutating func clearDone(_ task: String) -> [Effect] {
        record.done[task] = nil
        return [.clearDone(task: task)]
    }

    @discardableResult
    public mutating func clearToDo(_ task: String) -> [Effect] {
        record.toDos[task] = nil
        return [.removeToDo(task: task)]
    }

    @discardableResult
    public mutating func clearAll() -> [Effect] {
        record = Record()
        return [.clearAll]
    }

    private func live(_ task: String) -> ToDo? {
        guard let item = record.toDos[task] else { return nil }
        if let expires = item.expires, now > expires { return nil }
        return item
    }

    /// The instants a scope covers, both ends included.
    private func span(of scope: Scope) -> (from: Double, to: Double) {
        switch scope {
        case .install: (anchors.install, .infinity)
        case .version: (anchors.version, .infinity)
        case .session: (anchors.session, .infinity)
        case .since(let delta): (now - delta, .infinity)
        case .until(let delta): (-.infinity, now + delta)
        }
    }
}
