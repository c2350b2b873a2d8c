// Graph clustering: dlib's chinese_whispers over an edge list the caller built (FaceKit's
// nearest-neighbour graph of face descriptors).
#include "CFaceKit.h"
#include "guard.hpp"

#include <dlib/clustering/chinese_whispers.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#pragma GCC visibility push(hidden)  // FaceKit's own symbols stay inside the binary that links it

extern "C" int32_t fk_chinese_whispers(const fk_graph_edge *edges, int64_t edge_count, int32_t node_count,
                                       int32_t iterations, int32_t *labels, int32_t *cluster_count,
                                       fk_error *error) {
    return fk::guarded(error, [&] {
        fk::require(cluster_count != nullptr, "cluster_count must not be NULL");
        fk::require(node_count >= 0 && edge_count >= 0, "node_count and edge_count must not be negative");
        fk::require(edges != nullptr || edge_count == 0, "edges must not be NULL");
        fk::require(labels != nullptr || node_count == 0, "labels must not be NULL");
        fk::require(iterations >= 1, "iterations must be at least 1");
        std::vector<dlib::sample_pair> pairs;
        pairs.reserve(size_t(edge_count));
        for (int64_t i = 0; i < edge_count; ++i) {
            const fk_graph_edge &edge = edges[i];
            fk::require(edge.a >= 0 && edge.a < node_count && edge.b >= 0 && edge.b < node_count,
                        "an edge names a node outside 0..node_count-1");
            fk::require(std::isfinite(edge.weight) && edge.weight > 0, "edge weights must be finite and positive");
            pairs.emplace_back(static_cast<unsigned long>(edge.a), static_cast<unsigned long>(edge.b), double(edge.weight));
        }
        std::vector<unsigned long> found;
        dlib::chinese_whispers(pairs, found, static_cast<unsigned long>(iterations));
        // dlib labels the nodes up to the largest one an edge names; those after it have no edges
        // and are clusters of their own. Renumber all in order of first node.
        std::vector<int64_t> renumbered(size_t(node_count) + found.size(), -1);
        int32_t next = 0;
        for (int32_t node = 0; node < node_count; ++node) {
            const size_t label = size_t(node) < found.size() ? size_t(found[size_t(node)])
                                                             : found.size() + size_t(node);
            if (renumbered[label] < 0) renumbered[label] = next++;
            labels[node] = int32_t(renumbered[label]);
        }
        *cluster_count = next;
    });
}

#pragma GCC visibility pop
