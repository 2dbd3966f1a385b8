// Package pwsh reads PowerShell commands the way package shell reads
// bash: into the commands that would run, each with its argv read through
// the program catalog and its effects, so that the same analyzers judge
// both (Read). The gate reads a call of the PowerShell tool with it —
// Claude Code's shell tool on Windows, and every host's shell on Windows
// (package host).
//
// The reader parses PowerShell's statements, pipelines, script blocks,
// groups and subexpressions, strings (single-quoted, expandable,
// here-strings, backtick escapes), variables, parameters (by name, by
// unique prefix, -Name:value, switches set to $false, positional
// binding), the call and dot-source operators, splatting, redirections,
// and the bodies of powershell -Command / -EncodedCommand (base64 of
// UTF-16LE text) / -File, cmd /c, Invoke-Expression, Invoke-Command
// (-ComputerName: run on another host), Start-Job, Start-Process and
// ForEach-Object (cmd /c with its %NAME% variables expanded where their
// values are known, the others dynamic). What it knows of cmdlets is data (cmdlets.txt): a
// cmdlet with a counterpart in the program catalog is read as it
// (Remove-Item -Recurse -Force as rm -r -f, Invoke-WebRequest as curl,
// Get-Content as cat, Out-File as tee, Compress-Archive as zip -r,
// Invoke-Expression of a pipe as sh); a cmdlet that takes its path from
// the pipeline is given what the previous element writes there
// (Get-ChildItem ~ | Remove-Item -Recurse as rm -r ~/*; Where-Object
// passes them on; $_ in a ForEach-Object block is each of them; items
// only known at run time as xargs would pass them); code in an expandable string
// whose variables are known is read with them expanded (pwsh -Command
// "Get-ChildItem $HOME | …"); the .NET calls that download, upload, read, write or delete
// (WebClient.DownloadString, [IO.File]::Delete, …) are read as the
// programs that do the same; other cmdlets keep their own lower-cased
// name and their parameters for the windows analyzer.
//
// Paths are read in the POSIX namespace the analyzers judge
// (paths.FromWindows: C:\Users\me is /Users/me), environment variables
// with known values ($env:USERPROFILE, $HOME, $env:TEMP, …) are resolved,
// and a path that names the home, project or working directory in
// another letter case is read as it (Windows paths are
// case-insensitive). What is only known at run time stays dynamic and is
// judged as bash's unknowns are.
//
// It is a reader, not an interpreter: it runs nothing, and where
// PowerShell's behaviour depends on run time it reads every branch as if
// it runs. A command it cannot read is a *SyntaxError: the gate asks a
// human about it (rule pwsh.parse-error).
package pwsh
