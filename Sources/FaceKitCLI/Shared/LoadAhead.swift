import Dispatch
import FaceKit

/// A sequence read one element ahead of its consumer, each element's load (for `analyze`,
/// decoding the photo) started on a thread of its own as soon as the element is read: while a
/// worker analyses one photo, the next one decodes. With one job that is work for the core the
/// worker leaves idle; JPEG decoding was 18% of a one-job run's CPU time (docs/benchmarks.md,
/// "Photo collections, against face_recognition").
///
/// At most one element is loaded ahead of those the consumer has taken, so memory grows by one
/// loaded element. The sequence never ends before its loads do: once it is done with (after an
/// early stop too), it waits for the one ahead.
///
/// ```swift
/// let photos = LoadAhead(paths) { path in try? FaceImage(contentsOfFile: path) }
/// for (path, image) in photos { analyse(path, image.take()) }   // the next one decodes meanwhile
/// ```
final class LoadAhead<Base: Sequence, Loaded: Sendable>: Sequence, IteratorProtocol
where Base.Element: Sendable {
    typealias Element = (input: Base.Element, loaded: Loading<Loaded>)

    private var base: Base.Iterator
    private let load: @Sendable (Base.Element) -> Loaded
    private var ahead: Element?
    private var started = false
    private let queue = DispatchQueue(label: "facekit.load-ahead", attributes: .concurrent)

    init(_ base: Base, load: @escaping @Sendable (Base.Element) -> Loaded) {
        self.base = base.makeIterator()
        self.load = load
    }

    deinit { ahead?.loaded.wait() }

    func next() -> Element? {
        let current = started ? ahead : startNext()
        started = true
        ahead = current == nil ? nil : startNext()
        return current
    }

    /// The base's next element, its load started.
    private func startNext() -> Element? {
        guard let input = base.next() else { return nil }
        let loading = Loading<Loaded>()
        let load = self.load
        queue.async { loading.fulfil(load(input)) }
        return (input, loading)
    }
}

/// A value one of ``LoadAhead``'s threads is loading, taken once by the worker that claimed it
/// (so that the worker's result, kept until delivery, does not keep it too).
final class Loading<Value: Sendable>: Sendable {
    private enum State {
        case loading, loaded(Value), taken
    }

    private let state = ConditionMutex(State.loading)

    fileprivate func fulfil(_ value: Value) {
        state.withLock { $0 = .loaded(value) }
    }

    /// Waits until the load has ended.
    fileprivate func wait() {
        state.withLock(when: { if case .loading = $0 { false } else { true } }) { _ in }
    }

    /// The value, waiting for it; it is given once.
    func take() -> Value {
        state.withLock(when: { if case .loading = $0 { false } else { true } }) { state in
            guard case .loaded(let value) = state else { preconditionFailure("Loading: taken twice") }
            state = .taken
            return value
        }
    }
}
