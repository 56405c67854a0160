import LaunchflowCLI

LaunchflowCommand.main()
