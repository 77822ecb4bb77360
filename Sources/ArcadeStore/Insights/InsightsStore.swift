import Logger
import Storage
import Synchronization

/// What the admin's insights are made of: the last 30 days as sums per day. The closed days are stored once by the
/// housekeeping (`rollUpNextDay`, through `InsightsRollups`), today's hours are summed in the background by every
/// instance for itself (`sumNextHour`), and the rest of today is read live from indexes of time columns.
package final class InsightsStore: Sendable {
    package let pool: DatabasePool
    package let clock: @Sendable () -> Double

    package init(pool: DatabasePool, clock: @escaping @Sendable () -> Double) {
        self.pool = pool
        self.clock = clock
    }

    /// The stored days last read and their rows: a stored day never changes, so they are read again only when the
    /// set of stored days in the window has.
    private let closed = Mutex<(days: [Int], entries: [InsightsRollups.Entry])>(([], []))
    /// Today's hours already summed by this instance: the day, up to which second, and their numbers. The page sums
    /// only the rest of the day live (the last hour or so).
    private let today = Mutex<(day: Int, through: Int, summary: InsightsRollups.Summary)>((0, 0, .init()))
    /// An hour is summed once it has been over this long (a miss would only last until the day is stored, which
    /// sums the whole day again).
    package static let hourGrace = 60

    /// Whether today's hours have been caught up with since start (said once in the log), and when this began.
    private let caughtUp = Atomic<Bool>(false)
    private let started = ContinuousClock.now

    /// Up to which second today's hours are summed (tests wait for it).
    package var todaySummedThrough: Int { today.withLock { $0.through } }

    /// Sums today's next hour that is over, on this instance (every instance keeps its own); false when there is
    /// none (or on an error, logged). For the housekeeping thread: one hour a call.
    package func sumNextHour(now: Int) -> Bool {
        let day = now / 86_400
        let through = today.withLock { state in
            if state.day != day { state = (day, day * 86_400, .init()) }
            return state.through
        }
        let end = through + 3600
        guard end + Self.hourGrace <= now, end <= (day + 1) * 86_400 else {
            if !caughtUp.exchange(true, ordering: .relaxed) {
                Log.info(
                    "insights: today summed up to \(UTCTime.hourLabel(through)) in \(started.duration(to: .now))"
                )
            }
            return false
        }
        do {
            let hour = try InsightsRollups.summarize(day: day, from: through, to: end, pool.connection())
            today.withLock { state in
                guard state.day == day && state.through == through else { return }
                state.through = end
                state.summary.entries += hour.entries
                state.summary.players.formUnion(hour.players)
            }
            return true
        } catch {
            Log.error("insights: \(error)", every: "insights")
            return false
        }
    }

    /// Days summed since the window was last complete, and when the first of them began (for the log).
    private let backlog = Mutex<(days: Int, since: ContinuousClock.Instant?)>((0, nil))

    /// Sums the oldest closed day of the window not stored yet, and stores it; false when there is none (or on an
    /// error, logged). One day a call, read on the caller's connection and written in one short transaction: for
    /// the leading instance's housekeeping thread.
    package func rollUpNextDay(now: Int) -> Bool {
        do {
            let db = try pool.connection()
            let pending = try InsightsRollups.pendingDays(now: now, db)
            guard !pending.isEmpty else {
                let (days, since) = backlog.withLock { ($0.days, $0.since) }
                if days > 0, let since {
                    backlog.withLock { $0 = (0, nil) }
                    Log.info("insights: \(days) closed days summed in \(since.duration(to: .now))")
                }
                return false
            }
            backlog.withLock { if $0.days == 0 { $0.since = .now } }
            // Days read one by one, stored together while they stay small: a fresh site's 29 empty days were 29
            // commits (each a flush) and 29 turns of the housekeeping's pause, 2–4 s beside every test's requests.
            var batch: [(day: Int, entries: [InsightsRollups.Entry])] = []
            var rows = 0
            for day in pending where rows < Self.rowsPerStore {
                let entries = try InsightsRollups.summarize(day: day, db)
                batch.append((day, entries))
                rows += entries.count + 1
            }
            try pool.write { db in
                for (day, entries) in batch { try InsightsRollups.store(day: day, entries, db) }
            }
            backlog.withLock { $0.days += batch.count }
            return true
        } catch {
            Log.error("insights: \(error)", every: "insights")
            return false
        }
    }

    /// Rows of closed days stored in one transaction at most (a busy day alone may be more: it is stored alone).
    package static let rowsPerStore = 2_000

    /// The numbers behind the charts, in every language.
    package struct Numbers: Sendable {
        package let at: Int
        package let first: Int
        package let today: Int
        package let mastermindStarted: [Double]
        package let mastermindDone: [[Double]]
        package let roundsStarted: [Double]
        package let roundsDone: [[Double]]
        package let active: [Double]
        package let actions: [Double]
        package let guesses: [(Int, Double)]
        package let daily: [(Int, played: Int, won: Int)]
        package let modes: [(String, answered: Int, identified: Int)]
        package let hardest: [(name: String, rounds: Int, missed: Int)]
        package let cheats: [(String, Double)]
    }

    /// The last 30 days: the stored days' rows (from memory while no other day has been stored), the closed days
    /// not stored yet and today summed live, the cheats found (all time) counted live.
    package func numbers(now: Int) throws -> Numbers {
        let db = try pool.connection()
        let today = now / 86_400
        let first = today - 29
        let days = try InsightsRollups.storedDays(first...(today - 1), db)
        var entries = try closed.withLock { cached in
            if cached.days != days {
                cached = (days, days.isEmpty ? [] : try InsightsRollups.stored(days[0]...days[days.count - 1], db))
            }
            return cached.entries
        }
        let stored = Set(days)
        for day in first..<today where !stored.contains(day) {
            entries += try InsightsRollups.summarize(day: day, db)
        }
        // Today: the hours summed already, and the rest of the day live.
        let (through, summed) = self.today.withLock { state in
            state.day == today ? (state.through, state.summary) : (today * 86_400, .init())
        }
        let rest = try InsightsRollups.summarize(day: today, from: through, to: (today + 1) * 86_400, db)
        let active = summed.players.count + rest.players.filter { !summed.players.contains($0) }.count
        entries += summed.entries + rest.entries + [.init(day: today, metric: .active, item: "", n: active, m: 0)]
        var names: [String: String] = [:]
        for row in try db.query("SELECT id, first_name, last_name FROM people") {
            names[try row.decode("id")] = try row.decode("first_name", as: String.self) + " " + row.decode("last_name")
        }
        var cheats: [(String, Double)] = []
        for row in try db.query(
            """
            SELECT task, COUNT(DISTINCT player) AS players FROM once_marks
            WHERE task >= 'cheat.' AND task < 'cheat/' GROUP BY task ORDER BY task
            """)
        {
            cheats.append(
                (
                    String(try row.decode("task", as: String.self).dropFirst(6)),
                    Double(try row.decode("players", as: Int.self))
                ))
        }
        return Self.numbers(entries, at: now, names: names, cheats: cheats)
    }

    /// Adds up the days' entries of the window ending today.
    package static func numbers(
        _ entries: [InsightsRollups.Entry], at now: Int, names: [String: String], cheats: [(String, Double)]
    ) -> Numbers {
        let today = now / 86_400
        let first = today - 29
        typealias Metric = InsightsRollups.Metric
        var perDay: [Metric: (n: [Double], m: [Double])] = [:]
        var sums: [Metric: [String: (n: Int, m: Int)]] = [:]
        for entry in entries where entry.day >= first && entry.day <= today {
            switch entry.metric {
            case .mastermindStarted, .mastermindDone, .roundsStarted, .roundsDone, .active:
                let zero = Array(repeating: 0.0, count: 30)
                perDay[entry.metric, default: (zero, zero)].n[entry.day - first] += Double(entry.n)
                perDay[entry.metric, default: (zero, zero)].m[entry.day - first] += Double(entry.m)
            case .dailyWon:
                // Only the dailies started in the window, as for the games played.
                let parts = entry.item.split(separator: "/")
                guard parts.count == 2, let started = Int(parts[1]), started >= first else { continue }
                sums[.dailyWon, default: [:]][String(parts[0]), default: (0, 0)].n += entry.n
            case .guesses, .dailyPlayed, .mode, .person:
                sums[entry.metric, default: [:]][entry.item, default: (0, 0)].n += entry.n
                sums[entry.metric, default: [:]][entry.item, default: (0, 0)].m += entry.m
            case .day:
                continue
            }
        }
        func days(_ metric: Metric) -> (n: [Double], m: [Double]) {
            perDay[metric] ?? (Array(repeating: 0.0, count: 30), Array(repeating: 0.0, count: 30))
        }
        func numbered(_ metric: Metric) -> [(Int, n: Int, m: Int)] {
            (sums[metric] ?? [:]).compactMap { item, sum in Int(item).map { ($0, sum.n, sum.m) } }.sorted {
                $0.0 < $1.0
            }
        }
        let (mastermindStarted, mastermindDone) = (days(.mastermindStarted), days(.mastermindDone))
        let (roundsStarted, roundsDone) = (days(.roundsStarted), days(.roundsDone))
        let won = sums[.dailyWon] ?? [:]
        let hardest = (sums[.person] ?? [:]).compactMap { person, sum in
            sum.n >= 3 ? names[person].map { (name: $0, rounds: sum.n, missed: sum.m) } : nil
        }.sorted { a, b in
            // The highest share missed first (compared without rounding), then the most rounds.
            let (left, right) = (a.missed * b.rounds, b.missed * a.rounds)
            return left != right ? left > right : a.rounds != b.rounds ? a.rounds > b.rounds : a.name < b.name
        }
        return Numbers(
            at: now, first: first, today: today, mastermindStarted: mastermindStarted.n,
            mastermindDone: [mastermindDone.n, mastermindDone.m], roundsStarted: roundsStarted.n,
            roundsDone: [roundsDone.n, roundsDone.m], active: days(.active).n,
            actions: zip(mastermindStarted.n, roundsStarted.n).map { $0 + $1 },
            guesses: numbered(.guesses).map { ($0.0, Double($0.n)) },
            daily: numbered(.dailyPlayed).map { ($0.0, played: $0.n, won: won["\($0.0)"]?.n ?? 0) },
            modes: (sums[.mode] ?? [:]).map { ($0.key, answered: $0.value.n, identified: $0.value.m) }
                .sorted { $0.0 < $1.0 },
            hardest: Array(hardest.prefix(10)), cheats: cheats)
    }
}
