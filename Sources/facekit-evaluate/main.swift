import Foundation

exit(EvaluateCommand.main(arguments: EvaluateCommand.processArguments()))
