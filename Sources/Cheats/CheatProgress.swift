/// One player's progress through one cheat, matched like a string-search
/// automaton: it keeps the longest run of recent actions that is a prefix
/// of one of the cheat's sequences, so a wrong action that can start or
/// continue the sequence still counts (`↑` then the whole Konami code
/// unlocks it; `a b a b a c` completes `a b a c`).
public struct CheatProgress: Sendable, Equatable {
    public enum State: String, Sendable {
        case reset, matching, matched, notMatched
    }

    public private(set) var state: State = .reset
    /// The actions that are a prefix of some sequence (normalized).
    public private(set) var recent: [Action] = []
    /// The last action accepted as part of the cheat; nil after a wrong
    /// action, which restarts the cheat (where the Cheats library is after
    /// its `reset()`).
    public private(set) var previousAction: Action?
    /// When the last action arrived, in seconds.
    public private(set) var lastTime: Double?

    public init() {}

    /// Restores a stored progress.
    public init(recent: [Action], lastTime: Double?, state: State = .matching) {
        self.recent = recent
        self.lastTime = lastTime
        self.state = recent.isEmpty ? .reset : state
        previousAction = recent.last
    }

    public var progress: Int { state == .matched ? 0 : recent.count }

    /// The action that would take the cheat one step further (from the
    /// sequence the player is furthest along); after a wrong action, the
    /// first one, since the cheat has restarted.
    public func nextAction(for cheat: CheatCode) -> Action? {
        let n = recent.count
        return cheat.sequences.first { $0.count > n && $0.prefix(n).elementsEqual(recent) }?[n]
            ?? cheat.sequences.first?.first
    }

    public mutating func reset() {
        self = CheatProgress()
    }

    /// Feeds one action at `time` (seconds); true when it completes the
    /// cheat. The actions that completed it are not reused.
    @discardableResult
    public mutating func record(_ action: Action, at time: Double, for cheat: CheatCode) -> Bool {
        let action = action.normalized(caseSensitive: cheat.caseSensitive)
        // A gap over the limit makes the earlier actions stale: start afresh with this one.
        if let timeout = cheat.timeout, let lastTime, time - lastTime > timeout { recent.removeAll() }
        lastTime = time
        var candidate = recent
        candidate.append(action)
        // (Slices compared in place: this runs for every cheat on every key press.)
        if cheat.sequences.contains(where: {
            candidate.count >= $0.count && candidate.suffix($0.count).elementsEqual($0)
        }) {
            recent.removeAll()
            previousAction = action
            state = .matched
            return true
        }
        // The longest suffix of what was entered that some sequence starts with.
        var keep = min(candidate.count, cheat.longest - 1)
        while keep > 0 {
            let tail = candidate.suffix(keep)
            if cheat.sequences.contains(where: { $0.count > keep && $0.prefix(keep).elementsEqual(tail) }) { break }
            keep -= 1
        }
        recent = Array(candidate.suffix(keep))
        if keep > 0 {
            previousAction = action
            state = .matching
        } else {
            previousAction = nil
            state = .notMatched
        }
        return false
    }
}
