import Foundation
import Synchronization

/// Computes a tracker's face descriptors on a thread of its own, so that a frame's ResNet pass
/// (12-16 ms a face) overlaps the next frames' flow and 68-point model instead of adding to them.
///
/// ``describe(_:in:)`` returns at once with a ``PendingDescriptor``; reading its values waits for
/// the pass. ``BoxTracker`` reads a descriptor only when a decision needs it (a face that overlaps
/// no track, while some track is missing); a descriptor that only joins a track's gallery is read
/// frames later, if ever. So working in the background changes when the work is done, not what
/// the tracker decides: the IDs are the same as with descriptors computed in line.
///
/// The passes run one at a time, in order, on one serial queue (dlib's network keeps its
/// activations, so it is not shared between threads), and at most ``maximumWaiting`` are queued:
/// past that, ``describe(_:in:)`` waits, so that frames do not pile up in memory.
///
/// The network itself is read on that thread too, as its first job (about 40 ms of dlib's
/// parsing, which then overlaps the other models' loading and the first frames instead of
/// delaying them); a model that cannot be read fails every pass with the reason.
///
/// ```swift
/// let worker = DescriptorWorker(modelPath: path)
/// let pending = worker.describe(shape, in: frame)   // returns at once
/// ...                                               // the next frames
/// pending.value?.count                               // 128, waiting if still computing
/// ```
final class DescriptorWorker: Sendable {
    /// Jobs (the network's reading, then the passes) queued or running at most, before
    /// ``describe(_:in:)`` waits.
    static let maximumWaiting = 8

    /// The network, or why it could not be read; used only on `queue`, so its lock is never
    /// contended: it is what lets the compiler check that the network stays on one thread at a
    /// time.
    private let network = Mutex<Result<NativeFaceDescriptor, FaceKitError>?>(nil)
    /// Reading the network, then the passes; ``describe(_:in:)`` waits while it is full.
    private let queue = BoundedSerialQueue(label: "FaceKit.DescriptorWorker", limit: DescriptorWorker.maximumWaiting)
    private let firstError = Mutex<FaceKitError?>(nil)

    /// Starts reading the network at `modelPath` on the worker's thread.
    init(modelPath: String) {
        queue.async { [self] in
            network.withLock {
                $0 = Result { () throws(FaceKitError) in try NativeFaceDescriptor(modelPath: modelPath) }
            }
        }
    }

    /// Starts the descriptor of the face whose 68 points are `shape` in `image`.
    func describe(_ shape: FaceShape, in image: FaceImage) -> PendingDescriptor {
        let pending = PendingDescriptor()
        queue.async { [self] in
            do throws(FaceKitError) {
                pending.fulfil(
                    try network.withLock { (network) throws(FaceKitError) in
                        try network!.get().descriptor(in: image, shape: shape)
                    })
            } catch {
                firstError.withLock { $0 = $0 ?? error }
                pending.fulfil(nil)
            }
        }
        return pending
    }

    /// The first error a pass met since the last call, if any (its descriptor reads `nil`).
    func takeError() -> FaceKitError? {
        firstError.withLock { error in
            defer { error = nil }
            return error
        }
    }

    /// Waits until every pass started so far has finished.
    func waitForAll() {
        queue.sync {}
    }
}

/// A face descriptor that may still be computing: `nil` values when its pass failed (the worker
/// keeps the error).
typealias PendingDescriptor = Pending<[Float]?>
