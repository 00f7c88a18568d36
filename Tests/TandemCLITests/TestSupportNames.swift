import TestSupport

/// The tests' child processes (TestSupport's), not TandemCLI's own `ChildProcess` (bench runs) that
/// `@testable import TandemCLI` also brings in.
typealias ChildProcess = TestSupport.ChildProcess
