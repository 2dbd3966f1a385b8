package files

import (
	"github.com/toolwall/toolwall"
	"github.com/toolwall/toolwall/analysis"
)

// rules are the rule ids the files analyzer reports.
var rules = []analysis.Rule{
	{ID: "files.write-protected", Action: toolwall.Deny, Protects: "credentials, sudoers, cron, shell start-up and service files from the file tools", Example: `Write {"file_path": "/home/user/.ssh/authorized_keys", "content": "ssh-ed25519 AAAA x"}`},
	{ID: "files.write-sensitive", Action: toolwall.Ask, Protects: "configuration that runs code later (shell rc files, git hooks, editor and tool settings)", Example: `Write {"file_path": "/home/user/.zshrc", "content": "x"}`},
	{ID: "files.write-system", Action: toolwall.Ask, Protects: "system directories from the file tools", Example: `Write {"file_path": "/etc/motd", "content": "x"}`},
	{ID: "files.read-secret", Action: toolwall.Ask, Protects: "private keys, credential stores and secret files from being read", Example: `Read {"file_path": "/home/user/.ssh/id_rsa"}`},
	{ID: "files.bad-input", Action: toolwall.Ask, Protects: "against a file tool call without a usable path", Example: `Write {"content": "x"}`},
}
