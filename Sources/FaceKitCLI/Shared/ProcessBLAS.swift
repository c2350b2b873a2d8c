import FaceKit

/// The one place `facekit` decides how many threads the system BLAS (OpenBLAS) gives each matrix
/// product. It is a setting of the whole process, so the executable makes it, never a library
/// object: `BLASThreads` is FaceKit's switch (`package` access: a program using the library sets
/// `OPENBLAS_NUM_THREADS` instead), and FaceKit's types only document when to use it.
///
/// OpenBLAS uses every core for each product by default, which is right for one worker running
/// one network and nothing else. facekit sets it to one thread in three cases, each measured
/// (docs/benchmarks.md):
/// - a run over photos (``configureForPhotos()``, through ``WorkerFlags/configureBLAS()``:
///   `analyze`, `group`, `report`), whatever `--jobs`: N workers then use N cores, not N x cores
///   threads, and with one job a thread decodes the next photo while the worker analyses one
///   (``PhotoQueue``), beside which OpenBLAS's idle threads spin (`analyze`: 15% less CPU time on
///   2 cores with one thread, and no longer);
/// - a re-identifying ``FaceTracker``: OpenBLAS's idle threads spin after each descriptor and take
///   the cores that decoding, YuNet and optical flow need (5-30% more frames per second on 2 cores);
/// - clustering (``NearestNeighbourGraph``, under ``FaceClustering``): its tiles already run on every
///   core, and OpenBLAS's threads on top doubled the time on 2 cores.
///
/// ```swift
/// let tracker = try video.tracker(detector: detector, models: models, reidentification: .automatic)
/// ProcessBLAS.configure(for: tracker)   // one thread when it re-identifies
/// ```
enum ProcessBLAS {
    /// One thread per product for a ``PhotoQueue``; call before it starts.
    static func configureForPhotos() {
        BLASThreads.set(1)
    }

    /// One thread per product when `tracker` computes descriptors, before its first frame.
    static func configure(for tracker: FaceTracker) {
        if tracker.isReidentifying { BLASThreads.set(1) }
    }

    /// One thread per product before faces are clustered.
    static func configureForClustering() {
        BLASThreads.set(1)
    }
}
