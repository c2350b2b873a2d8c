import Foundation

exit(EvaluateCommand.main(arguments: Array(CommandLine.arguments.dropFirst())))
