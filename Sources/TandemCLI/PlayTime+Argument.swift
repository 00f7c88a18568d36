import ArgumentParser
import TandemApp

extension PlayTime: ExpressibleByArgument {
    package init?(argument: String) { self.init(parsing: argument) }

    package static var defaultCompletionKind: CompletionKind { .default }
}
