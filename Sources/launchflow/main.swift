import LaunchflowCLI
LaunchflowCommand.main()
