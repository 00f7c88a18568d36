// StoryKit: see StoryNavigator.
enum StoryKitPlaceholder {}
