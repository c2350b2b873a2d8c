import FaceKitArguments
import FaceKitCLI
import Foundation

let arguments = FaceKitCommand.processArguments()
FaceKitCommand.prepareAllocator(for: arguments)
exit(FaceKitCommand.main(arguments: arguments, program: FaceKitCommand.processProgram()))
