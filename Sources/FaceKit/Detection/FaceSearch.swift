import Foundation

/// What a search for faces covers beyond the upright faces of the sizes minFaceSize asks for:
/// faces at any roll (``FaceDetectorOptions/orientationMode``); close-ups, faces larger than the
/// picture or cut by its edge (``SearchPlan/closeUpPass(imageWidth:imageHeight:)``); and a second
/// look at the faces the search scored below the minimum detection score, seen upright.
///
/// Photos get all three (orientation as the options say); video frames none, since every extra
/// pass is paid on every detection frame (docs/benchmarks.md).
///
/// ```swift
/// FaceSearch(options: options)   // a photo's search: .any and close-ups by default
/// FaceSearch.video               // upright, no close-up pass
/// ```
package struct FaceSearch: Sendable, Equatable {
    package var orientation: FaceDetectorOptions.OrientationMode
    package var closeUps: Bool
    /// Whether a face the search scores from ``secondLookFloor`` up to the minimum detection
    /// score is looked at again, turned upright in a view of its own
    /// (``FaceFinder/uprightScore(in:seedBox:roll:)``), and kept when it scores the minimum there.
    /// A face rolled, lying, or with its eyes closed often scores low in the search; a false
    /// detection rarely shows an upright face when turned so.
    package var secondLook: Bool

    /// The lowest search score a second look is taken at (docs/accuracy.md, "Finding every
    /// face": below it the development photos held no face a second look saved).
    package static let secondLookFloor = 0.3

    package init(orientation: FaceDetectorOptions.OrientationMode, closeUps: Bool, secondLook: Bool) {
        self.orientation = orientation
        self.closeUps = closeUps
        self.secondLook = secondLook
    }

    /// A photo's search, as `options` ask.
    package init(options: FaceDetectorOptions) {
        self.init(orientation: options.orientationMode, closeUps: true, secondLook: true)
    }

    /// What a video tracker searches each detection frame for.
    package static let video = FaceSearch(orientation: .upright, closeUps: false, secondLook: false)
}
