import TandemBench
import TandemApp
import ArgumentParser
import Foundation
import PartySimulator

extension BenchCommand {
    /// `tandem bench percentile P`: the nearest-rank percentile of the numbers on standard input, so
    /// that the benchmark scripts compute their medians with the same definition as everything else.
    struct PercentileOfInput: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "percentile",
            abstract: "The nearest-rank P-th percentile of the numbers read from standard input (NA if none).")

        @Argument(help: "The percentile, 0…100 (50 is the median).") var percent: Double

        func validate() throws {
            guard (0...100).contains(percent) else { throw ValidationError("the percentile must be within 0…100") }
        }

        func run() throws {
            let text = String(decoding: FileHandle.standardInput.readDataToEndOfFile(), as: UTF8.self)
            print(Self.answer(text, percent: percent))
        }

        /// The percentile of the whitespace-separated numbers in `text`, written as a script expects:
        /// a whole number without a fraction; `NA` when there are no numbers or a word is not one
        /// (nothing is skipped silently).
        static func answer(_ text: String, percent: Double) -> String {
            let words = text.split(whereSeparator: \.isWhitespace)
            let values = words.compactMap { Double($0) }
            guard values.count == words.count else { return "NA" }
            let value = Percentile.nearestRank(of: values, percent / 100)
            guard value.isFinite else { return "NA" }
            if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
            return String(value)
        }
    }
}
