import Testing

/// Namespace for the pure-Swift geometry tests, so `swift test --filter Geometry` runs them all
/// and their helpers (`SyntheticFace`, `Rotation`, `isClose`) cannot clash with other suites'.
@Suite("Geometry")
enum GeometryTests {}
