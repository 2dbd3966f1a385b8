// Package windows judges what Windows commands do that no program of the
// POSIX catalog does: Microsoft Defender switched off or told to look
// away, security and logging services stopped, event logs cleared,
// shadow copies and recovery deleted, volumes formatted and disks wiped,
// local accounts, scheduled tasks, services and Run keys added, LSASS
// dumped, and scripts fetched by mshta or regsvr32. It reads the commands
// of a PowerShell call (package pwsh keeps such cmdlets under their own
// lower-cased names with their parameters) and Windows programs in any
// shell (vssadmin, wevtutil, bcdedit, netsh, sc, net, schtasks, reg,
// wmic, format, procdump, rundll32). Its findings carry the rule ids the
// other analyzers use for the same harm (defense.*, disk.*, persist.*,
// creddump.*, remote.interpreter-exec, system.firewall-off), so one rule
// id means one harm whatever the platform.
//
// Facts from the cmdlets' and programs' reference pages on
// learn.microsoft.com (Set-MpPreference, Stop-Service, Clear-EventLog,
// Format-Volume, Clear-Disk, vssadmin, wevtutil, bcdedit, netsh
// advfirewall, sc.exe, schtasks, reg) and MITRE ATT&CK techniques T1562.001
// (disable or modify tools), T1070.001 (clear Windows event logs), T1490
// (inhibit system recovery), T1561 (disk wipe), T1136 (create account),
// T1053.005 (scheduled task), T1547.001 (Run keys), T1003.001 (LSASS
// memory), T1218.005 and T1218.010 (mshta, regsvr32).
package windows
