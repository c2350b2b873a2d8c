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
/// The passes run one at a time, oldest first, on one serial queue, and at most
/// ``maximumWaiting`` are queued: past that, ``describe(_:in:)`` waits, so that frames do not
/// pile up in memory. A thread that must wait for a descriptor (after a cut, each new face's)
/// does not sit idle while passes are queued: it takes the newest of them (the ones its decision
/// asked for last) and runs it on a second copy of the network (``help(awaiting:)``), so that
/// the two cores share the passes a decision waits on. Which copy runs a pass does not change
/// its values.
///
/// The network is read on the worker's thread too, as its first job (about 40 ms of dlib's
/// parsing, which then overlaps the other models' loading and the first frames instead of
/// delaying them), and copied for helping (no second parse); a model that cannot be read
/// fails every pass with the reason.
///
/// ```swift
/// let worker = DescriptorWorker(modelPath: path)
/// let pending = worker.describe(shape, in: frame)   // returns at once
/// ...                                               // the next frames
/// pending.value?.count                               // 128, waiting if still computing
/// ```
final class DescriptorWorker: Sendable {
    /// Jobs (the network's reading and copying, then the passes) queued or running at most, before
    /// ``describe(_:in:)`` waits.
    static let maximumWaiting = 8

    /// One descriptor to compute.
    private struct Pass: Sendable {
        let pending: PendingDescriptor
        let shape: FaceShape
        let image: FaceImage
    }

    /// The network, or why it could not be read; used only on `queue`, so its lock is never
    /// contended: it is what lets the compiler check that the network stays on one thread at a
    /// time.
    private let network = Mutex<Result<NativeFaceDescriptor, FaceKitError>?>(nil)
    /// The copy a waiting thread runs passes on (``help(awaiting:)``); `nil` until made, or when
    /// it could not be (the passes then all run on the worker).
    private let helperNetwork = Mutex<NativeFaceDescriptor?>(nil)
    /// Passes given and not yet started, oldest first: the worker takes the oldest, a helping
    /// thread the newest.
    private let queued = Mutex<[Pass]>([])
    /// Reading and copying the network, then one job per pass; ``describe(_:in:)`` waits while it is full.
    private let queue = BoundedSerialQueue(label: "FaceKit.DescriptorWorker", limit: DescriptorWorker.maximumWaiting)
    private let firstError = Mutex<FaceKitError?>(nil)

    /// Starts reading the network at `modelPath`, then copying it for helping, on the worker's
    /// thread.
    init(modelPath: String) {
        queue.async { [self] in
            network.withLock {
                $0 = Result { () throws(FaceKitError) in try NativeFaceDescriptor(modelPath: modelPath) }
            }
        }
        queue.async { [self] in
            network.withLock { network in
                guard case .success(let network)? = network else { return }
                let copy = try? network.copy()
                helperNetwork.withLock { $0 = copy?.network }
            }
        }
    }

    /// Starts the descriptor of the face whose 68 points are `shape` in `image`.
    func describe(_ shape: FaceShape, in image: FaceImage) -> PendingDescriptor {
        // Weak: a descriptor kept after its tracker (in a TrackJoining) must not keep the
        // networks and the worker's thread alive.
        let pending = PendingDescriptor(beforeWaiting: { [weak self] pending in self?.help(awaiting: pending) })
        queued.withLock { $0.append(Pass(pending: pending, shape: shape, image: image)) }
        queue.async { [self] in
            // None left when a helping thread took them.
            guard let pass = queued.withLock({ $0.isEmpty ? nil : $0.removeFirst() }) else { return }
            network.withLock { network in
                run(pass) { () throws(FaceKitError) in try network!.get() }
            }
        }
        return pending
    }

    /// Runs queued passes on this thread, newest first, until `pending` is ready or none is left
    /// to take (its own pass then running on the worker). Does nothing while another thread
    /// helps, or when the helping copy is not made (yet).
    private func help(awaiting pending: PendingDescriptor) {
        _ = helperNetwork.withLockIfAvailable { network in
            guard let network else { return }
            while !pending.isReady, let pass = queued.withLock({ $0.popLast() }) {
                run(pass) { () throws(FaceKitError) in network }
            }
        }
    }

    /// Computes `pass` on the network `network` gives, delivering the descriptor (or `nil`,
    /// keeping the error).
    private func run(_ pass: Pass, on network: () throws(FaceKitError) -> NativeFaceDescriptor) {
        do throws(FaceKitError) {
            pass.pending.fulfil(try network().descriptor(in: pass.image, shape: pass.shape))
        } catch {
            firstError.withLock { $0 = $0 ?? error }
            pass.pending.fulfil(nil)
        }
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
