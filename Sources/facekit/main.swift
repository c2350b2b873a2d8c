import FaceKit
import FaceKitArguments
import FaceKitCLI
import Foundation

let arguments = FaceKitCommand.processArguments()
// `analyze` decodes one large photo after another: each one's memory is kept for the next rather
// than mapped afresh (ProcessAllocator). Not for `track`, whose threads would then share one
// arena (a tenth slower on a long clip); not in the library, whose caller owns the allocator.
if arguments.first == "analyze" { ProcessAllocator.keepFreedMemory() }
exit(FaceKitCommand.main(arguments: arguments, program: FaceKitCommand.processProgram()))
