import Testing
@testable import PortMapping

/// RFC 6887 §8.5: a gateway whose epoch does not advance with the time passed here restarted.
@Suite struct GatewayEpochTests {
    @Test func anEpochThatKeepsPaceIsTheSameGateway() {
        let before = GatewayEpoch(server: 1000, client: 50)
        #expect(!before.restarted(at: GatewayEpoch(server: 1300, client: 350)))
        #expect(!before.restarted(at: GatewayEpoch(server: 1301, client: 349)), "within the slack")
        #expect(!before.restarted(at: GatewayEpoch(server: 999, client: 50.5)), "a second back is rounding")
    }

    @Test func anEpochThatWentBackOrLagsIsARestart() {
        let before = GatewayEpoch(server: 1000, client: 50)
        #expect(before.restarted(at: GatewayEpoch(server: 3, client: 350)), "back to a few seconds")
        #expect(before.restarted(at: GatewayEpoch(server: 1010, client: 350)), "10 s passed there while 300 s passed here")
        #expect(before.restarted(at: GatewayEpoch(server: 2000, client: 60)), "the gateway's clock ran far ahead")
    }
}
