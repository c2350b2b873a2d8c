/// An undirected edge of a graph between faces (their indices), with a positive weight.
@_spi(Evaluation) public struct GraphEdge: Equatable, Hashable, Sendable {
    public var a: Int32
    public var b: Int32
    public var weight: Float

    public init(a: Int32, b: Int32, weight: Float) {
        self.a = a
        self.b = b
        self.weight = weight
    }
}
