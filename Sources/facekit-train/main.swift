import Foundation

exit(TrainCommand.main(arguments: TrainCommand.processArguments()))
