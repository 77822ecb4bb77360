import Templates

/// The statistics page's chart of recent times: one horizontal bar per round (oldest first), each numbered and
/// labelled with its value, over a seconds axis with three ticks. The drawing has a fixed scale, so one round draws
/// one short bar, not a bar as wide as the screen; the rows read in any language since they are numbers.
struct TimeChart {
    let bars: [TemplateValue]
    let ticks: [TemplateValue]
    let frame: TemplateValue

    static let width = 320, left = 32, right = 260, rowHeight = 18, barHeight = 12

    init(times: [Double], valueLabel: (Double) -> String) {
        let top = TimeChart.niceCeiling(times.max() ?? 1)
        let span = Double(TimeChart.right - TimeChart.left)
        func x(_ seconds: Double) -> Int { TimeChart.left + Int((seconds / top * span).rounded()) }
        bars = times.enumerated().map { index, seconds in
            let y = 4 + index * TimeChart.rowHeight
            let width = max(2, x(seconds) - TimeChart.left)
            return [
                "round": .int(index + 1), "y": .int(y), "labelY": .int(y + TimeChart.barHeight - 2),
                "width": .int(width), "valueX": .int(TimeChart.left + width + 4),
                "value": .string(valueLabel(seconds)), "seconds": .string(NameGameController.seconds(seconds)),
            ]
        }
        let axisY = 4 + times.count * TimeChart.rowHeight + 2
        ticks = [0, top / 2, top].map { seconds in
            [
                "x": .int(x(seconds)), "tickEnd": .int(axisY + 4), "labelY": .int(axisY + 16),
                "label": .string(NameGameController.seconds(seconds)),
            ]
        }
        let height = axisY + 36
        frame = [
            "width": .int(TimeChart.width), "height": .int(height), "left": .int(TimeChart.left),
            "right": .int(TimeChart.right), "labelX": .int(TimeChart.left - 6), "axisY": .int(axisY),
            "titleY": .int(axisY + 32), "barHeight": .int(TimeChart.barHeight),
        ]
    }

    /// The axis end: the slowest time rounded up to 1, 2 or 5 times a power of ten (at least a second).
    static func niceCeiling(_ value: Double) -> Double {
        var unit = 1.0
        while unit * 10 < value { unit *= 10 }
        for step in [1.0, 2.0, 5.0, 10.0] where step * unit >= value { return step * unit }
        return 10 * unit
    }
}
