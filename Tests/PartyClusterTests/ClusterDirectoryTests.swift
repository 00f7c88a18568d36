import Testing
@testable import PartyCluster
