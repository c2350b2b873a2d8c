import FaceKit

extension FaceDetector {
    /// Which detector finds the faces. YuNet is FaceKit's; dlib's HOG (fast mode) and HOG merged
    /// with the MMOD CNN (accurate mode) are what FaceKit used before, kept to measure against.
    public enum DetectorKind: String, Sendable, CaseIterable {
        case yunet
        case dlib
    }

    /// A detector that finds faces with `detector`, for measuring one against the other;
    /// everything after detection is FaceKit's.
    ///
    /// ```swift
    /// let before = try FaceDetector(options: options, models: models, detector: .dlib)
    /// ```
    public convenience init(options: FaceDetectorOptions, models: ModelLocator, detector: DetectorKind)
        throws(FaceKitError)
    {
        switch detector {
        case .yunet:
            try self.init(options: options, models: models)
        case .dlib:
            try self.init(options: options, models: models) { (options, models) throws(FaceKitError) in
                try DlibFaceFinder(options: options, models: models)
            }
        }
    }
}
