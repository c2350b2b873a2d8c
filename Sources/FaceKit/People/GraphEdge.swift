/// An undirected edge of a graph between faces (their indices), with a positive weight.
package struct GraphEdge: Equatable, Hashable, Sendable {
    package var a: Int32
    package var b: Int32
    package var weight: Float

    package init(a: Int32, b: Int32, weight: Float) {
        self.a = a
        self.b = b
        self.weight = weight
    }
}
