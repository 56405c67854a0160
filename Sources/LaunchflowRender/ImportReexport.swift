// The report (Report/Report.swift, Report/ReportPage.swift) and the report
// command show a trace comparison (`report --trace`), a LaunchflowImport
// type. Until those files import LaunchflowImport themselves, this module
// re-exports it: delete this file then.
@_exported import LaunchflowImport
