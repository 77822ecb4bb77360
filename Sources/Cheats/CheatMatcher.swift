/// Every cheat matched at once for one player. The matcher is a value: each
/// player has their own, so players never affect each other.
public struct CheatMatcher: Sendable, Equatable {
    public let cheats: [CheatCode]
    public private(set) var progress: [String: CheatProgress]

    /// What one action did: the cheats it completed, and the cheat the
    /// player is furthest along (for a progress hint).
    public struct Outcome: Sendable, Equatable {
        public let unlocked: [String]
        public let closest: String?
        public let state: CheatProgress.State
        public let progress: Int
        public let length: Int
        /// The keys a cheat two or more steps in takes next: typed in a text field, those are the cheat's (the Konami
        /// code's "b a" after its arrows went into a name field, and nothing unlocked), every other key the field's.
        public var nextKeys: [String] = []
    }

    public init(cheats: [CheatCode], progress: [String: CheatProgress] = [:]) throws(CheatError) {
        // Built for every action, usually from a handful of cheats: those are compared pairwise (a set cost more).
        if cheats.count <= 32 {
            for (index, cheat) in cheats.enumerated() where cheats[..<index].contains(where: { $0.name == cheat.name })
            {
                throw CheatError("two cheats are named '\(cheat.name)'")
            }
            self.progress = progress.filter { entry in cheats.contains { $0.name == entry.key } }
        } else {
            var names: Set<String> = []
            for cheat in cheats where !names.insert(cheat.name).inserted {
                throw CheatError("two cheats are named '\(cheat.name)'")
            }
            self.progress = progress.filter { names.contains($0.key) }
        }
        self.cheats = cheats
    }

    public mutating func record(_ action: Action, at time: Double) -> Outcome {
        var unlocked: [String] = []
        var best: (name: String, state: CheatProgress.State, progress: Int, length: Int)?
        var nextKeys: [String] = []
        for cheat in cheats {
            var state = progress[cheat.name] ?? CheatProgress()
            if state.record(action, at: time, for: cheat) { unlocked.append(cheat.name) }
            progress[cheat.name] = state
            if state.progress >= 2, case .key(let key) = state.nextAction(for: cheat), !nextKeys.contains(key) {
                nextKeys.append(key)
            }
            // Closest: the largest share of a sequence entered so far.
            // Its length: the shortest sequence the entered actions are on the way to.
            guard state.progress > 0,
                let length = cheat.sequences.lazy
                    .filter({ $0.count > state.progress && $0.prefix(state.progress).elementsEqual(state.recent) })
                    .map({ $0.count }).min()
            else { continue }
            if best.map({ Double(state.progress) / Double(length) > Double($0.progress) / Double($0.length) }) ?? true {
                best = (cheat.name, state.state, state.progress, length)
            }
        }
        if let best {
            return Outcome(
                unlocked: unlocked, closest: best.name, state: best.state, progress: best.progress, length: best.length,
                nextKeys: nextKeys)
        }
        return Outcome(
            unlocked: unlocked, closest: nil, state: unlocked.isEmpty ? .notMatched : .matched, progress: 0, length: 0,
            nextKeys: nextKeys)
    }
}
