import Foundation
import Testing

@testable import FaceKit

extension GeometryTests {
    @Suite("Polyline")
    struct PolylineTests {
        static let arch = [
            CGPoint(x: 0, y: 0), CGPoint(x: 10, y: -8), CGPoint(x: 25, y: -10), CGPoint(x: 32, y: -3),
            CGPoint(x: 50, y: 0),
        ]

        /// Points on a circle, unevenly spaced, going clockwise on screen from the top.
        static let circle: [CGPoint] = [0.0, 40, 100, 170, 200, 260, 300].map { degrees in
            let angle = degrees * Double.pi / 180
            return CGPoint(x: 100 + 50 * sin(angle), y: 100 - 50 * cos(angle))
        }

        static func chords(_ points: [CGPoint], closed: Bool) -> [Double] {
            let ends = closed ? points.indices.map { $0 } : Array(points.indices.dropLast())
            return ends.map { points[$0].distance(to: points[($0 + 1) % points.count]) }
        }

        @Test("an open curve keeps both endpoints", arguments: [2, 3, 5, 9, 11, 40])
        func openKeepsEndpoints(count: Int) {
            let result = Polyline.resampled(Self.arch, count: count, closed: false)
            #expect(result.count == count)
            #expect(result.first == Self.arch.first)
            #expect(result.last == Self.arch.last)
        }

        @Test("a straight line is split into equal steps")
        func straightLineIsEven() {
            let line = [CGPoint(x: 0, y: 0), CGPoint(x: 1, y: 0), CGPoint(x: 7, y: 0), CGPoint(x: 12, y: 0)]
            let result = Polyline.resampled(line, count: 5, closed: false)
            for (index, point) in result.enumerated() {
                #expect(isClose(point, CGPoint(x: 3 * Double(index), y: 0), within: 1e-6))
            }
        }

        @Test("an open curve is evenly spaced by arc length", arguments: [9, 11])
        func openIsEven(count: Int) {
            let steps = Self.chords(Polyline.resampled(Self.arch, count: count, closed: false), closed: false)
            let mean = steps.reduce(0, +) / Double(steps.count)
            #expect(steps.allSatisfy { abs($0 - mean) < 0.03 * mean })
        }

        @Test("a closed curve starts at the first point and is evenly spaced all round", arguments: [16, 36])
        func closedIsEven(count: Int) {
            let result = Polyline.resampled(Self.circle, count: count, closed: true)
            #expect(result.count == count)
            #expect(result.first == Self.circle.first)
            let steps = Self.chords(result, closed: true)
            let mean = steps.reduce(0, +) / Double(steps.count)
            #expect(steps.allSatisfy { abs($0 - mean) < 0.03 * mean })
        }

        @Test("a closed curve keeps the input's direction")
        func closedKeepsDirection() {
            let result = Polyline.resampled(Self.circle, count: 36, closed: true)
            // Clockwise on screen (y down) has a positive shoelace sum.
            let shoelace = result.indices.reduce(0.0) { sum, i in
                let a = result[i]
                let b = result[(i + 1) % result.count]
                return sum + Double(a.x * b.y - b.x * a.y)
            }
            #expect(shoelace > 0)
        }

        @Test("the curve passes through every given point")
        func passesThroughPoints() {
            let curve = Polyline.smoothCurve(through: Self.circle, closed: true)
            for point in Self.circle {
                #expect(curve.contains { isClose($0, point, within: 1e-9) })
            }
        }

        @Test("a curve through points on a circle stays near the circle")
        func smoothCurveFollowsCircle() {
            let curve = Polyline.smoothCurve(through: Self.circle, closed: true)
            let centre = CGPoint(x: 100, y: 100)
            // Within 10% of the radius, with gaps of up to 70° between the given points.
            #expect(curve.allSatisfy { abs($0.distance(to: centre) - 50) < 5 })
        }

        @Test("repeated and single points give finite results")
        func degenerateInputs() {
            let repeated = [CGPoint(x: 1, y: 1), CGPoint(x: 1, y: 1), CGPoint(x: 4, y: 5), CGPoint(x: 4, y: 5)]
            for closed in [false, true] {
                let result = Polyline.resampled(repeated, count: 9, closed: closed)
                #expect(result.count == 9)
                #expect(result.allSatisfy { $0.x.isFinite && $0.y.isFinite })
            }
            #expect(
                Polyline.resampled([CGPoint(x: 2, y: 3)], count: 4, closed: true)
                    == Array(repeating: CGPoint(x: 2, y: 3), count: 4))
        }
    }
}
