import HTMLEscaping

/// A bar chart drawn on the server as SVG: `role="img"` with a `<title>` and `<desc>`, both axes labelled and
/// ticked, one colour per series from the theme's CSS variables (so dark and high-contrast themes apply), and a
/// `viewBox` that scales to any width. The same numbers go in a table beside it.
struct BarChart {
    let id: String
    let title: String
    let description: String
    let xLabel: String
    let yLabel: String
    let categories: [String]
    let series: [(name: String, values: [Double])]

    // Small enough that the ticks stay readable when a phone scales the chart down.
    static let width = 480.0
    static let height = 270.0
    static let left = 52.0
    static let right = 10.0
    static let top = 12.0
    static let bottom = 58.0

    var svg: String {
        let e = HTMLEscaper.escape
        let plotWidth = Self.width - Self.left - Self.right
        let plotHeight = Self.height - Self.top - Self.bottom
        let peak = series.flatMap(\.values).max() ?? 0
        let (maximum, step) = Self.scale(peak)
        func y(_ value: Double) -> Double { Self.top + plotHeight * (1 - value / maximum) }
        var out = """
            <svg class="chart" viewBox="0 0 \(Int(Self.width)) \(Int(Self.height))" role="img" \
            aria-labelledby="\(id)-title \(id)-desc" preserveAspectRatio="xMidYMid meet">\
            <title id="\(id)-title">\(e(title))</title><desc id="\(id)-desc">\(e(description))</desc>
            """
        // The y axis: ticks at round values, with a faint grid line each.
        var tick = 0.0
        while tick <= maximum + step / 2 {
            let at = Self.format(y(tick))
            out += "<line class=\"chart-grid\" x1=\"\(Int(Self.left))\" x2=\"\(Int(Self.width - Self.right))\" "
            out += "y1=\"\(at)\" y2=\"\(at)\"/>"
            out += "<text class=\"chart-tick\" x=\"\(Int(Self.left) - 6)\" y=\"\(at)\" text-anchor=\"end\" "
            out += "dominant-baseline=\"middle\">\(Self.format(tick))</text>"
            tick += step
        }
        let slot = categories.isEmpty ? plotWidth : plotWidth / Double(categories.count)
        let bar = slot * 0.8 / Double(max(1, series.count))
        for (s, line) in series.enumerated() {
            for (i, value) in line.values.enumerated() where value > 0 {
                let x = Self.left + slot * Double(i) + slot * 0.1 + bar * Double(s)
                out += "<rect class=\"chart-s\(s)\" x=\"\(Self.format(x))\" y=\"\(Self.format(y(value)))\" "
                out += "width=\"\(Self.format(max(1, bar - 0.5)))\" height=\"\(Self.format(y(0) - y(value)))\"/>"
            }
        }
        // The x axis: at most six labels, evenly spread.
        let every = max(1, (categories.count + 5) / 6)
        for (i, label) in categories.enumerated() where i % every == 0 {
            let x = Self.format(Self.left + slot * (Double(i) + 0.5))
            out += "<line class=\"chart-axis\" x1=\"\(x)\" x2=\"\(x)\" y1=\"\(Self.format(y(0)))\" "
            out += "y2=\"\(Self.format(y(0) + 4))\"/>"
            out += "<text class=\"chart-tick\" x=\"\(x)\" y=\"\(Self.format(y(0) + 20))\" "
            out += "text-anchor=\"middle\">\(e(label))</text>"
        }
        out += "<line class=\"chart-axis\" x1=\"\(Int(Self.left))\" x2=\"\(Int(Self.left))\" y1=\"\(Int(Self.top))\" "
        out += "y2=\"\(Self.format(y(0)))\"/>"
        out += "<line class=\"chart-axis\" x1=\"\(Int(Self.left))\" x2=\"\(Int(Self.width - Self.right))\" "
        out += "y1=\"\(Self.format(y(0)))\" y2=\"\(Self.format(y(0)))\"/>"
        out += "<text class=\"chart-label\" x=\"\(Self.format(Self.left + plotWidth / 2))\" "
        out += "y=\"\(Int(Self.height) - 8)\" text-anchor=\"middle\">\(e(xLabel))</text>"
        out += "<text class=\"chart-label\" transform=\"translate(16 \(Self.format(Self.top + plotHeight / 2))) "
        out += "rotate(-90)\" text-anchor=\"middle\">\(e(yLabel))</text>"
        return out + "</svg>"
    }

    /// The axis' top and tick step: 1, 2 or 5 times a power of ten, at most five ticks, whole numbers (counts are).
    static func scale(_ peak: Double) -> (maximum: Double, step: Double) {
        guard peak > 0 else { return (1, 1) }
        var power = 1.0
        while power * 10 <= peak / 4 { power *= 10 }
        for factor in [1.0, 2, 5, 10] where (peak / (power * factor)).rounded(.up) <= 5 {
            let step = power * factor
            return ((peak / step).rounded(.up) * step, step)
        }
        return (peak, peak / 4)
    }

    static func format(_ value: Double) -> String {
        let rounded = (value * 10).rounded() / 10
        return rounded == rounded.rounded() ? String(Int(rounded)) : String(rounded)
    }
}
