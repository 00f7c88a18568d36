// Placeholder until the window module lands.
enum TandemWindowPlaceholder {}
