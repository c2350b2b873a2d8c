import FaceKit
import FaceKitArguments
import FaceKitDatasets
import Foundation

/// Release-build timing of ``FaceClustering`` on synthetic descriptors (``SyntheticDescriptors``):
/// the nearest-neighbour graph and chinese whispers apart (wall and CPU time), and how well the
/// made-up people are found. Peak memory is the process's: run it under `/usr/bin/time -v` (docs/benchmarks.md).
struct ClusteringBenchmark: ParsableCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(
            commandName: "clustering-benchmark",
            abstract: "Time face clustering on synthetic descriptors (use a release build).")
    }

    static var arguments: [ArgumentDefinition<Self>] {
        [
            .option("faces", \.faces, valueName: "n", help: "Synthetic faces to cluster."),
            .option("people", \.people, valueName: "n", help: "People among them (default: faces / 20)."),
            .option("neighbours", \.neighbours, valueName: "k", help: "Nearest faces each face is joined to."),
            .option("threshold", \.threshold, valueName: "distance", help: "Distance under which faces are joined."),
        ]
    }

    var faces = 10_000
    var people: Int?
    var neighbours = FaceClustering().neighbours
    var threshold = FaceClustering.defaultThreshold

    func validate() throws(CommandError) {
        guard faces >= 1 else {
            throw CommandError("The value '\(faces)' is invalid for '--faces <n>': it must be at least 1")
        }
        if let people, people < 1 || people > faces {
            throw CommandError("The value '\(people)' is invalid for '--people <n>': it must be between 1 and --faces (\(faces))")
        }
        guard neighbours >= 1 else {
            throw CommandError("The value '\(neighbours)' is invalid for '--neighbours <k>': it must be at least 1")
        }
        guard threshold > 0, threshold.isFinite else {
            throw CommandError(
                "The value '\(threshold)' is invalid for '--threshold <distance>': it must be a positive descriptor distance")
        }
    }

    func run(_ context: CommandContext) throws -> ExitStatus {
        let peopleCount = people ?? max(1, faces / 20)
        let (set, generation) = timed { SyntheticDescriptors(faces: faces, people: peopleCount, seed: 1) }
        progress("generated \(faces) descriptors of \(peopleCount) people in \(fixed(generation, 1)) s")
        let clustering = FaceClustering(threshold: threshold, neighbours: neighbours)
        // As facekit group does: the graph's tiles already use every core.
        BLASThreads.set(1)
        let graphCPU = processorSeconds()
        let (graph, graphTime) = try timed {
            try NearestNeighbourGraph(
                descriptors: set.values, dimension: set.dimension, neighbours: neighbours, threshold: threshold)
        }
        let whispersCPU = processorSeconds()
        let (found, whispersTime) = try timed { try clustering.people(in: graph) }
        let endCPU = processorSeconds()
        let score = ClusteringScore(found: found.labels, truth: set.people)
        printTable(
            ["faces", "people", "k", "threshold", "graph s (CPU s)", "whispers s (CPU s)", "edges", "people found",
             "pairwise P", "pairwise R", "BCubed F"],
            [[
                "\(faces)", "\(peopleCount)", "\(neighbours)", fixed(threshold, 2),
                "\(fixed(graphTime, 1)) (\(fixed(whispersCPU - graphCPU, 1)))",
                "\(fixed(whispersTime, 1)) (\(fixed(endCPU - whispersCPU, 1)))", "\(graph.edges.count)", "\(found.count)",
                fixed(score.pairwisePrecision, 3), fixed(score.pairwiseRecall, 3), fixed(score.bcubedF, 3),
            ]])
        return .success
    }
}

/// User and system CPU time of the whole process so far, in seconds: unlike wall time, it does
/// not grow when other programs share the cores.
func processorSeconds() -> Double {
    var usage = rusage()
    getrusage(RUSAGE_SELF.rawValue, &usage)
    func seconds(_ time: timeval) -> Double { Double(time.tv_sec) + Double(time.tv_usec) / 1e6 }
    return seconds(usage.ru_utime) + seconds(usage.ru_stime)
}
