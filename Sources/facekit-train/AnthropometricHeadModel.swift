/// The 14-point 3D face FaceKit's head pose used before its own fitted model: lincolnhard/
/// head-pose-estimation's model (after glAnthropometric3DModel.cpp, ISR University of Coimbra),
/// about a centimetre per unit. Published with x toward the subject's right, y up, z toward the
/// camera; converted here to the face frame (x toward the subject's left, y down, z into the
/// head) by negating all three. `facekit-train head-pose` measures it for comparison and turns
/// and scales the fitted model onto it, so the two share a frame and a unit.
enum AnthropometricHeadModel {
    static let points: [(dlibIndex: Int, x: Double, y: Double, z: Double)] = [
        (17, 6.825897, 6.760612, 4.402142),  // right eyebrow, outer end
        (21, 1.330353, 7.122144, 6.903745),  // right eyebrow, inner end
        (22, -1.330353, 7.122144, 6.903745),  // left eyebrow, inner end
        (26, -6.825897, 6.760612, 4.402142),  // left eyebrow, outer end
        (36, 5.311432, 5.485328, 3.987654),  // right eye, outer corner
        (39, 1.789930, 5.393625, 4.413414),  // right eye, inner corner
        (42, -1.789930, 5.393625, 4.413414),  // left eye, inner corner
        (45, -5.311432, 5.485328, 3.987654),  // left eye, outer corner
        (31, 2.005628, 1.409845, 6.165652),  // right nostril
        (35, -2.005628, 1.409845, 6.165652),  // left nostril
        (48, 2.774015, -2.080775, 5.048531),  // right mouth corner
        (54, -2.774015, -2.080775, 5.048531),  // left mouth corner
        (57, 0.000000, -3.116408, 6.097667),  // lower lip, bottom centre
        (8, 0.000000, -7.415691, 4.070434),  // chin
    ].map { ($0.0, -$0.1, -$0.2, -$0.3) }
}
