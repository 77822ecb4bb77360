import Synchronization

/// Counts by label set: each label set's value renders as one sample. Callers pass label values they bound
/// (route patterns, status classes, reasons), never raw request text, so the series stay few.
public final class Counters: Sendable {
    private let values = Mutex<[[String]: Double]>([:])
    public let labels: [String]

    public init(labels: [String]) { self.labels = labels }

    public func add(_ values: [String], _ amount: Double = 1) {
        self.values.withLock { $0[values, default: 0] += amount }
    }

    public var samples: [([String], Double)] { values.withLock { $0.map { ($0.key, $0.value) } } }
}

/// A cumulative histogram (Prometheus' buckets, sum and count), by label set.
public final class Histograms: Sendable {
    public struct Series: Sendable {
        public var buckets: [Int]
        public var sum: Double = 0
        public var count = 0

        public init(buckets: [Int]) { self.buckets = buckets }

        /// Counts `value` in the first bucket whose bound it does not exceed (none past the last: only `count`).
        public mutating func observe(_ value: Double, bounds: [Double]) {
            if let bucket = bounds.firstIndex(where: { value <= $0 }) { buckets[bucket] += 1 }
            sum += value
            count += 1
        }
    }

    public let bounds: [Double]
    public let labels: [String]
    private let series = Mutex<[[String]: Series]>([:])

    public init(labels: [String] = [], bounds: [Double]) {
        self.labels = labels
        self.bounds = bounds
    }

    public func observe(_ value: Double, _ labelValues: [String] = []) {
        series.withLock { all in
            // In place: a copy taken out and put back would copy the buckets on every request.
            all[labelValues, default: Series(buckets: Array(repeating: 0, count: bounds.count))]
                .observe(value, bounds: bounds)
        }
    }

    public var samples: [([String], Series)] { series.withLock { $0.map { ($0.key, $0.value) } } }

    /// Seconds, from a millisecond to a minute.
    public static let latency = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60]
}

/// A part of the program that reports its own figures to `/metrics`.
public protocol MetricsSource: Sendable {
    func render(into out: inout Exposition)
}

/// The Prometheus text exposition format, version 0.0.4.
public struct Exposition {
    public private(set) var text = ""
    public static let contentType = "text/plain; version=0.0.4; charset=utf-8"

    public init() {}

    public mutating func counter(_ name: String, _ help: String, _ family: Counters) {
        counter(name, help, labels: family.labels, family.samples)
    }

    /// Samples kept elsewhere than in a `Counters`, each with its label values in the order of `labels`.
    public mutating func counter(_ name: String, _ help: String, labels: [String], _ samples: [([String], Double)]) {
        header(name, help, "counter")
        for (values, value) in samples.sorted(by: { $0.0.lexicographicallyPrecedes($1.0) }) {
            sample(name, zip(labels, values).map { ($0, $1) }, value)
        }
    }

    public mutating func counter(_ name: String, _ help: String, _ value: Double) {
        header(name, help, "counter")
        sample(name, [], value)
    }

    public mutating func gauge(_ name: String, _ help: String, _ samples: [([(String, String)], Double)]) {
        header(name, help, "gauge")
        for (labels, value) in samples { sample(name, labels, value) }
    }

    public mutating func gauge(_ name: String, _ help: String, _ value: Double) { gauge(name, help, [([], value)]) }

    public mutating func histogram(_ name: String, _ help: String, _ family: Histograms) {
        histogram(name, help, labels: family.labels, bounds: family.bounds, family.samples)
    }

    /// Series kept elsewhere than in a `Histograms`.
    public mutating func histogram(
        _ name: String, _ help: String, labels names: [String], bounds: [Double],
        _ samples: [([String], Histograms.Series)]
    ) {
        header(name, help, "histogram")
        for (values, series) in samples.sorted(by: { $0.0.lexicographicallyPrecedes($1.0) }) {
            let labels = zip(names, values).map { ($0, $1) }
            var cumulative = 0
            for (bound, count) in zip(bounds, series.buckets) {
                cumulative += count
                sample(name + "_bucket", labels + [("le", Self.number(bound))], Double(cumulative))
            }
            sample(name + "_bucket", labels + [("le", "+Inf")], Double(series.count))
            sample(name + "_sum", labels, series.sum)
            sample(name + "_count", labels, Double(series.count))
        }
    }

    private mutating func header(_ name: String, _ help: String, _ type: String) {
        text += "# HELP \(name) \(help)\n# TYPE \(name) \(type)\n"
    }

    private mutating func sample(_ name: String, _ labels: [(String, String)], _ value: Double) {
        text += name
        if !labels.isEmpty {
            text += "{" + labels.map { "\($0.0)=\"\(Self.escape($0.1))\"" }.joined(separator: ",") + "}"
        }
        text += " " + Self.number(value) + "\n"
    }

    static func number(_ value: Double) -> String {
        if value == value.rounded() && abs(value) < 1e15 { return String(Int64(value)) }
        return "\(value)"
    }

    static func escape(_ value: String) -> String {
        var out = ""
        for c in value {
            switch c {
            case "\\": out += "\\\\"
            case "\"": out += "\\\""
            case "\n": out += "\\n"
            default: out.append(c)
            }
        }
        return out
    }
}
