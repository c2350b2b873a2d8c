import FaceKitArguments
import FaceKitCLI
import Foundation

exit(FaceKitCommand.main(arguments: FaceKitCommand.processArguments(), program: FaceKitCommand.processProgram()))
