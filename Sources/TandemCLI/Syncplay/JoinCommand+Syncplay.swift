import TandemApp
import ArgumentParser

extension JoinCommand {
    /// This `join`'s options for a Syncplay room.
    func syncplayJoin(_ room: SyncplayLink) throws -> SyncplayJoin {
        SyncplayJoin(link: room, name: name, options: syncplay, headless: headless, sound: soundOutput, videoSync: pictures.videoSync,
                     media: media, script: try script.map(PartyScript.init(parsing:)), duration: duration, json: json, ipc: ipc)
    }
}
