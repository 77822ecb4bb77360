import Metrics

/// The database's figures for `/metrics`: the writer's queue, commit times and batch sizes, whether the database
/// answers, and how often connections were opened again.
extension DatabasePool: MetricsSource {
    public func render(into out: inout Exposition) {
        if let writer = try? writer() {
            out.gauge(
                "arcade_db_writer_queue", "Transactions waiting for the database writer.", Double(writer.queueDepth))
            out.histogram(
                "arcade_db_commit_duration_seconds", "Time from BEGIN to the end of COMMIT, per group commit.",
                writer.commitDurations)
            out.histogram(
                "arcade_db_transactions_per_commit", "Transactions that shared one commit.", writer.batchSizes)
        }
        out.gauge(
            "arcade_db_reachable", "1 while the database answers, 0 while a connection to it cannot be opened.",
            health.reachable ? 1 : 0)
        out.counter(
            "arcade_db_reconnects_total", "Database connections opened again after they broke or after an outage.",
            Double(health.reconnects.load(ordering: .relaxed)))
    }
}
