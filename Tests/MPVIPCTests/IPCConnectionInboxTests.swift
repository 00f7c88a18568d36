import Testing
@testable import MPVIPC

/// Drains an inbox into readable strings ("line:x", "pause=true", "duration=nil").
private func drain(_ inbox: inout IPCConnectionInbox) -> [String] {
    var taken: [String] = []
    while let input = inbox.next() {
        switch input {
        case .line(let line): taken.append("line:\(line)")
        case .change(let change):
            let value = switch change.value {
            case .bool(let flag)?: "\(flag)"
            case .double(let number)?: "\(number)"
            case .sample(let position, let paused, let at)?: "\(position)\(paused ? "p" : "")@\(at)"
            case nil: "nil"
            }
            taken.append("\(change.property.rawValue)=\(value)")
        }
    }
    return taken
}

@Suite("IPCConnectionInbox")
struct IPCConnectionInboxTests {
    @Test func linesAndChangesComeOutInOrder() {
        var inbox = IPCConnectionInbox()
        #expect(inbox.lineReceived("a") == true)
        #expect(inbox.changeReceived(IPCPropertyChange(.pause, .bool(true))) == .queued)
        #expect(inbox.lineReceived("b") == true)
        #expect(inbox.changeReceived(IPCPropertyChange(.speed, .double(2))) == .queued)
        #expect(drain(&inbox) == ["line:a", "pause=true", "line:b", "speed=2.0"])
        #expect(inbox.next() == nil)
    }

    @Test func changesNobodyTookAreMergedKeepingTheLatestValueAndTheFirstPlace() {
        var inbox = IPCConnectionInbox()
        #expect(inbox.changeReceived(IPCPropertyChange(.pause, .bool(true))) == .queued)
        _ = inbox.lineReceived("get")
        #expect(inbox.changeReceived(IPCPropertyChange(.pause, .bool(false))) == .coalesced(firstTime: true))
        #expect(inbox.changeReceived(IPCPropertyChange(.duration, .double(60))) == .queued)
        #expect(inbox.changeReceived(IPCPropertyChange(.duration, nil)) == .coalesced(firstTime: false))
        #expect(inbox.changeReceived(IPCPropertyChange(.pause, .bool(true))) == .coalesced(firstTime: false))
        #expect(inbox.coalescedCount == 3)
        #expect(drain(&inbox) == ["pause=true", "line:get", "duration=nil"])
        // Once taken, a change of the same property queues again.
        #expect(inbox.changeReceived(IPCPropertyChange(.pause, .bool(false))) == .queued)
        #expect(drain(&inbox) == ["pause=false"])
    }

    @Test func aClientThatNeverTakesAnythingHoldsOneChangePerProperty() {
        var inbox = IPCConnectionInbox()
        for index in 0..<100_000 {
            let property = IPCProperty.allCases[index % IPCProperty.allCases.count]
            _ = inbox.changeReceived(IPCPropertyChange(property, .double(Double(index))))
            #expect(inbox.pendingChanges <= IPCConnectionInbox.maxPendingChanges)
        }
        #expect(inbox.count == IPCConnectionInbox.maxPendingChanges)
        // The last change of each property (the largest index of its turn), in property order.
        let count = IPCProperty.allCases.count
        let expected = IPCProperty.allCases.indices.map { i in
            let last = (100_000 - 1) - ((100_000 - 1 - i) % count)
            return "\(IPCProperty.allCases[i].rawValue)=\(Double(last))"
        }
        #expect(drain(&inbox) == expected)
    }

    @Test func finishKeepsWhatWaitsButTakesNothingNew() {
        var inbox = IPCConnectionInbox()
        _ = inbox.lineReceived("a")
        inbox.finish()
        #expect(inbox.isFinished)
        #expect(inbox.lineReceived("b") == false)
        #expect(inbox.changeReceived(IPCPropertyChange(.pause, .bool(true))) == .ignored)
        #expect(drain(&inbox) == ["line:a"])
    }

    @Test func cancelDropsWhatWaits() {
        var inbox = IPCConnectionInbox()
        _ = inbox.lineReceived("a")
        _ = inbox.changeReceived(IPCPropertyChange(.pause, .bool(true)))
        inbox.cancel()
        #expect(inbox.next() == nil)
        #expect(inbox.pendingChanges == 0)
        #expect(inbox.lineReceived("b") == false)
    }
}
