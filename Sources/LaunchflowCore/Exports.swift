// The scenario model and the strategies' rules, shared with the runtime, are part of the simulator's API.
@_exported import LaunchflowModel
