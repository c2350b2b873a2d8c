import FaceKitCLI
import Foundation

exit(FaceKitCommand.main(arguments: Array(CommandLine.arguments.dropFirst())))
