import PartyKit

/// The party's items as Syncplay's shared playlist, both ways where they map (docs/syncplay.md,
/// "Playlists"). The client is given the playlist once the file it opened is the party's item;
/// before that (and when its file is another) it keeps its own, which is not echoed back to it.
///
/// Syncplay 1.6.9's client takes a `playlistIndex` from anyone (its own name included) as a switch
/// to make: it looks the entry up, reopens it from 0:00, and reports that rewind as its seek. So
/// the gateway only sends an index that either names the file the client already plays (no
/// switch) or is a real change of the party's item.
extension SyncplayPartyBridge {
    /// The party's items as playlist entries: an item's title (the host's file name), or its URL;
    /// the current item's entry is the client's own file name, so the client, which plays it
    /// already, does not switch.
    func playlistEntries(current: Int, clientFile: SyncplayFile) -> [String] {
        items.indices.map { index in index == current ? clientFile.name : items[index].url ?? items[index].title }
    }

    /// Whether the client's file is the party's current item (durations within
    /// ``durationTolerance``), under a name it can be given back (not hidden).
    func fileIsTheItem() -> Bool {
        guard let file, let timeline, items.indices.contains(timeline.item), file.name != SyncplayPrivacy.hiddenFilename else { return false }
        let duration = items[timeline.item].identity.duration
        return duration > 0 && abs(file.duration - duration) <= Self.durationTolerance
    }

    /// The client announced its file: when it is the party's item, the client gets the party's
    /// playlist and index (once; later files change nothing here).
    mutating func offerPlaylist() -> [Output] {
        guard sharedPlaylist == nil, fileIsTheItem(), let file, let timeline else { return [] }
        let entries = playlistEntries(current: timeline.item, clientFile: file)
        sharedPlaylist = entries
        return tell(.set([.playlistChange(user: SyncplayServerCore.gatewayName, files: entries)]))
            + tell(.set([.playlistIndex(user: SyncplayServerCore.gatewayName, index: timeline.item)]))
    }

    /// The client edited the playlist: the party's items are the host's, so once it has been given
    /// them it gets them back (as Syncplay's server answers a user who may not edit); before, its
    /// own playlist is left alone.
    func clientEditedPlaylist() -> [Output] {
        guard let sharedPlaylist, let timeline else { return [] }
        return tell(.set([.playlistChange(user: SyncplayServerCore.gatewayName, files: sharedPlaylist)]))
            + tell(.set([.playlistIndex(user: SyncplayServerCore.gatewayName, index: timeline.item)]))
    }

    /// The client chose entry `index` of the party's playlist: a party `item` command, under the
    /// party's control policy. Before it has the party's playlist, its index is its own.
    mutating func clientChose(_ index: Int) -> [Output] {
        guard sharedPlaylist != nil, let timeline, index != timeline.item else { return [] }
        guard items.indices.contains(index) else { return playlistRefused(reason: nil) }
        return command(.item(index))
    }

    /// The party's item changed: a client holding the party's playlist is told the new index by
    /// whoever moved it, and switches to that entry (found in its media folders). Not for its own
    /// choice: it made that switch itself.
    func itemChanged(to item: Int, by who: String) -> [Output] {
        guard sharedPlaylist != nil, who != core.name else { return [] }
        return tell(.set([.playlistIndex(user: who, index: item)]))
    }

    /// A refused (or impossible) choice: the client is put back on the party's entry.
    func playlistRefused(reason: String?) -> [Output] {
        guard let timeline else { return [] }
        return tell(.set([.playlistIndex(user: SyncplayServerCore.gatewayName, index: timeline.item)]))
            + (reason.map { tell(.chat(SyncplayChat(username: SyncplayServerCore.gatewayName, message: "refused: \($0)"))) } ?? [])
    }
}
