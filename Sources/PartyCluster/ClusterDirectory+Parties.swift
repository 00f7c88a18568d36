import Foundation
import PostgresNIO

extension ClusterDirectory {
    /// Claims that rerun when the party changed between reading its key hash and claiming it (it
    /// ended and was made again with another key in between): a race this rare settles in one rerun.
    static let claimAttempts = 3

    /// Takes the party for this node, if nobody holds a live lease on it and `key` is its key.
    ///
    /// A new party is created with this node as owner (its key stored as a ``PartyKeyHash``). An
    /// existing party whose lease ran out (its owner died), was released, or is this node's own,
    /// passes to this node with its last snapshot. Of several nodes claiming at once, exactly one wins:
    /// the claim is one `INSERT … ON CONFLICT DO UPDATE … WHERE` statement, and PostgreSQL locks the
    /// party's row and re-checks the `WHERE` on its latest version, so a second claimer sees the
    /// first one's fresh lease and gets nothing back.
    public func claim(party: String, key: String) async throws -> PartyClaim {
        for _ in 0..<Self.claimAttempts {
            if let outcome = try await claimOnce(party: party, key: key) { return outcome }
        }
        throw ClusterDirectoryError.failed(operation: "claim of \"\(party)\"",
                                           reason: "the party changed hands \(Self.claimAttempts) times during the claim")
    }

    private func claimOnce(party: String, key: String) async throws -> PartyClaim? {
        // The stored key hash, checked here in constant time; the claim then only takes a row that
        // still has that hash. A new party gets a new salt and hash.
        let stored = try await perform("claim of \"\(party)\"") { client, _, _ in
            var found: PartyKeyHash?
            for try await (salt, hash) in try await client.query(
                "SELECT key_salt, key_hash FROM tandem_parties WHERE party_id = \(party)"
            ).decode((String, String).self) {
                found = PartyKeyHash(salt: salt, hash: hash)
            }
            return found
        }
        if let stored, !stored.matches(key: key) { return .wrongKey }
        let keyHash = stored ?? PartyKeyHash(key: key)
        let sent = ContinuousClock.now
        let claimed = try await perform("claim of \"\(party)\"") { client, node, lease in
            var row: (Int64, String?, Double)?
            for try await (generation, snapshot, age) in try await client.query("""
                INSERT INTO tandem_parties AS p (party_id, owner_node, lease_generation, lease_expires, key_salt, key_hash)
                VALUES (\(party), \(node), 1, now() + \(lease) * interval '1 second', \(keyHash.salt), \(keyHash.hash))
                ON CONFLICT (party_id) DO UPDATE
                    SET owner_node = EXCLUDED.owner_node,
                        lease_generation = p.lease_generation + 1,
                        lease_expires = EXCLUDED.lease_expires,
                        save_sequence = 0
                    WHERE (p.lease_expires <= now() OR p.owner_node = EXCLUDED.owner_node)
                      AND p.key_hash = \(keyHash.hash)
                RETURNING p.lease_generation, p.snapshot::text,
                          coalesce(extract(epoch FROM now() - p.saved_at), 0)::float8
                """).decode((Int64, String?, Double).self) {
                row = (generation, snapshot, age)
            }
            return row
        }
        if let claimed {
            let (generation, snapshotJSON, age) = claimed
            let lease = PartyLease(party: party, node: configuration.nodeID, generation: generation,
                                   validUntil: sent + configuration.leaseLength)
            let snapshot = try snapshotJSON.map { try Self.decodeSnapshot($0, party: party, age: age) }
            logger.debug("claimed party", metadata: ["party": "\(party)", "generation": "\(generation)"])
            return .claimed(lease, snapshot: snapshot)
        }
        // Nothing claimed: someone holds a live lease, or the party changed under us (then rerun).
        let holder = try await perform("claim of \"\(party)\"") { client, _, _ in
            var row: (PartyOwner, Bool, String)?
            for try await (node, address, epoch, live, hash) in try await client.query("""
                SELECT p.owner_node, n.address, p.epoch, p.lease_expires > now(), p.key_hash
                FROM tandem_parties p JOIN tandem_nodes n ON n.node_id = p.owner_node
                WHERE p.party_id = \(party)
                """).decode((String, String, Int, Bool, String).self) {
                row = (PartyOwner(node: node, address: address, epoch: epoch), live, hash)
            }
            return row
        }
        guard let holder, holder.1, holder.2 == keyHash.hash else { return nil }
        return .ownedElsewhere(holder.0)
    }

    /// Extends this node's lease by a lease length from now. Throws
    /// ``ClusterDirectoryError/leaseLost(party:)`` once another node has claimed the party (or it was
    /// released or ended): the node must stop serving it. Renewing after the lease ran out still
    /// works while nobody else claimed the party, so an owner survives a database outage longer than
    /// its lease.
    ///
    /// One `UPDATE … WHERE party_id AND owner_node AND lease_generation`: it matches only while the row
    /// still carries this lease's generation, which every claim changes.
    public func renew(_ lease: PartyLease) async throws -> PartyLease {
        let sent = ContinuousClock.now
        let renewed = try await perform("lease renewal of \"\(lease.party)\"") { client, node, seconds in
            var matched = false
            for try await _ in try await client.query("""
                UPDATE tandem_parties SET lease_expires = now() + \(seconds) * interval '1 second'
                WHERE party_id = \(lease.party) AND owner_node = \(node) AND lease_generation = \(lease.generation)
                RETURNING lease_generation
                """).decode(Int64.self) {
                matched = true
            }
            return matched
        }
        guard renewed else { throw ClusterDirectoryError.leaseLost(party: lease.party) }
        return PartyLease(party: lease.party, node: lease.node, generation: lease.generation,
                          validUntil: sent + configuration.leaseLength)
    }

    /// Renews all of `leases` (this node's) in one statement, each fenced as by ``renew(_:)``: only a
    /// row that still carries its lease's generation and this node is renewed. Returns the renewed
    /// leases; one that is not among them is lost (another node claimed the party, or it ended).
    public func renewAll(_ leases: [PartyLease]) async throws -> [PartyLease] {
        guard !leases.isEmpty else { return [] }
        let sent = ContinuousClock.now
        let parties = leases.map(\.party), generations = leases.map(\.generation)
        let renewed = try await perform("lease renewal of \(leases.count) parties") { client, node, seconds in
            var renewed: [String: Int64] = [:]
            for try await (party, generation) in try await client.query("""
                UPDATE tandem_parties AS p SET lease_expires = now() + \(seconds) * interval '1 second'
                FROM unnest(\(parties)::text[], \(generations)::bigint[]) AS l(party_id, lease_generation)
                WHERE p.party_id = l.party_id AND p.owner_node = \(node) AND p.lease_generation = l.lease_generation
                RETURNING p.party_id, p.lease_generation
                """).decode((String, Int64).self) {
                renewed[party] = generation
            }
            return renewed
        }
        return leases.filter { renewed[$0.party] == $0.generation }.map { lease in
            PartyLease(party: lease.party, node: lease.node, generation: lease.generation, validUntil: sent + configuration.leaseLength)
        }
    }

    /// Saves the party's restorable state, fenced like ``renew(_:)``: it throws
    /// ``ClusterDirectoryError/leaseLost(party:)`` when the lease is gone, so a node that lost the
    /// party cannot overwrite its new owner's state. A save whose epoch is older than the saved one
    /// (two saves crossed) changes nothing and says so; so does one of the same epoch with a lower
    /// `sequence` than the saved one (the owner numbers its saves in the order it took them: a new
    /// seat is saved without a new epoch, and an older seat list must not overwrite a newer one).
    /// A claim starts the party's sequence again at 0.
    @discardableResult
    public func save(_ snapshot: PartySnapshot, lease: PartyLease, sequence: Int = 0) async throws -> PartySaveOutcome {
        let json: String
        do {
            json = String(decoding: try JSONEncoder().encode(snapshot), as: UTF8.self)
        } catch {
            throw ClusterDirectoryError.badSnapshot(party: lease.party, reason: "\(error)")
        }
        let epoch = snapshot.epoch
        let saved = try await perform("save of \"\(lease.party)\"") { client, node, _ in
            var matched = false
            for try await _ in try await client.query("""
                UPDATE tandem_parties SET epoch = \(epoch), snapshot = \(json)::jsonb, saved_at = now(),
                                          save_sequence = \(sequence)
                WHERE party_id = \(lease.party) AND owner_node = \(node) AND lease_generation = \(lease.generation)
                  AND (epoch < \(epoch) OR (epoch = \(epoch) AND save_sequence <= \(sequence)))
                RETURNING epoch
                """).decode(Int.self) {
                matched = true
            }
            if matched { return PartySaveOutcome.saved }
            // Not saved: a newer epoch is there (the lease holds), or the lease is gone.
            var newer: Int?
            for try await (savedEpoch) in try await client.query("""
                SELECT epoch FROM tandem_parties
                WHERE party_id = \(lease.party) AND owner_node = \(node) AND lease_generation = \(lease.generation)
                """).decode(Int.self) {
                newer = savedEpoch
            }
            guard let newer else { throw ClusterDirectoryError.leaseLost(party: lease.party) }
            return newer == epoch ? .newerSaveOfEpoch(newer) : .newerEpochSaved(newer)
        }
        return saved
    }

    /// Gives the party up but keeps its snapshot, so another node can claim and restore it at once
    /// (a node draining for a restart). Throws ``ClusterDirectoryError/leaseLost(party:)`` if it was
    /// no longer this node's.
    public func release(_ lease: PartyLease) async throws {
        let matched = try await perform("release of \"\(lease.party)\"") { client, node, _ in
            try await Self.matchesAny(client.query("""
                UPDATE tandem_parties SET lease_expires = now()
                WHERE party_id = \(lease.party) AND owner_node = \(node) AND lease_generation = \(lease.generation)
                RETURNING party_id
                """))
        }
        guard matched else { throw ClusterDirectoryError.leaseLost(party: lease.party) }
    }

    /// Forgets the party (it ended): its row, key hash and snapshot are deleted, if it is still
    /// this node's. Throws ``ClusterDirectoryError/leaseLost(party:)`` if it was not.
    public func end(_ lease: PartyLease) async throws {
        let matched = try await perform("end of \"\(lease.party)\"") { client, node, _ in
            try await Self.matchesAny(client.query("""
                DELETE FROM tandem_parties
                WHERE party_id = \(lease.party) AND owner_node = \(node) AND lease_generation = \(lease.generation)
                RETURNING party_id
                """))
        }
        guard matched else { throw ClusterDirectoryError.leaseLost(party: lease.party) }
    }

    /// Whether a statement returned any row (read to the end, so its connection goes back to the pool).
    static func matchesAny(_ rows: PostgresRowSequence) async throws -> Bool {
        var matched = false
        for try await _ in rows { matched = true }
        return matched
    }

    /// The node serving the party, or nil when none does: it is unknown, or its owner's lease ran out
    /// (then claim it).
    public func lookup(party: String) async throws -> PartyOwner? {
        try await perform("lookup of \"\(party)\"") { client, _, _ in
            var owner: PartyOwner?
            for try await (node, address, epoch) in try await client.query("""
                SELECT p.owner_node, n.address, p.epoch
                FROM tandem_parties p JOIN tandem_nodes n ON n.node_id = p.owner_node
                WHERE p.party_id = \(party) AND p.lease_expires > now()
                """).decode((String, String, Int).self) {
                owner = PartyOwner(node: node, address: address, epoch: epoch)
            }
            return owner
        }
    }

    /// The party's last saved state, with its age, whoever owns it; nil when it has none.
    public func restore(party: String) async throws -> PartySnapshot? {
        let row = try await perform("restore of \"\(party)\"") { client, _, _ in
            var row: (String, Double)?
            for try await (json, age) in try await client.query("""
                SELECT snapshot::text, extract(epoch FROM now() - saved_at)::float8
                FROM tandem_parties WHERE party_id = \(party) AND snapshot IS NOT NULL
                """).decode((String, Double).self) {
                row = (json, age)
            }
            return row
        }
        return try row.map { try Self.decodeSnapshot($0.0, party: party, age: $0.1) }
    }

    static func decodeSnapshot(_ json: String, party: String, age: Double) throws -> PartySnapshot {
        do {
            var snapshot = try JSONDecoder().decode(PartySnapshot.self, from: Data(json.utf8))
            snapshot.age = max(0, age)
            return snapshot
        } catch {
            throw ClusterDirectoryError.badSnapshot(party: party, reason: "\(error)")
        }
    }
}
