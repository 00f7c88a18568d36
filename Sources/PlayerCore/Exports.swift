// The player's API speaks the media clock (schedule, switchClock, time sources): re-export it.
@_exported import MediaTime
