import LaunchflowCLI

SignalCleanup.install()
LaunchflowCommand.main()
