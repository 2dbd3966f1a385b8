// Package files judges Claude Code's file tools (Write, Edit, MultiEdit,
// NotebookEdit, Read) by the path they touch, after resolving it the way
// the tool would: "~" expanded against the call's home, a relative path
// made absolute against its working directory, "." and ".." removed. The
// readings another host or a shell might make of the same text are judged
// too and the most severe decides: $HOME and ${HOME}, ~user, a file://
// URL, backslashes as separators, /proc/self/root/….
//
// Writes that plant persistence or take over logins are denied
// (files.write-protected: ~/.ssh/**, /etc/sudoers*, /etc/passwd, cron,
// systemd units, LaunchAgents, …); writes that run code later or change
// the guard's own rules are asked (files.write-sensitive: shell rc files,
// git hooks and .git/config, ~/.claude and .claude/settings*.json,
// .mcp.json, toolwall's config and state); other writes under system
// roots are asked (files.write-system). What a path is comes from package
// places ([Judge] maps [places.Write]); an agent's own working files
// (Claude Code's plans and project memory) are ordinary writes, not its
// settings. Reads of secrets — the classes of [places.Classify], shared
// with the Bash analyzer so `cat ~/.ssh/id_rsa` and a Read of it agree —
// are asked (files.read-secret). Input that is
// not an object with a string path is asked (files.bad-input): what
// cannot be read cannot be judged safe.
//
// Risk tags for the chain analyzer: write-script for a script written
// (by extension, or a Write whose content starts with "#!"; the body is
// left to the chain analyzer), system-write under a system root, stage for
// other writes outside the project, sensitive-read and credential for
// secret reads.
//
// Paths are judged by name; the file system is never touched, so a
// symlink pointing into ~/.ssh is not seen. Nothing is reported in
// RootContext. Sources: the tool-executor framework (file
// executor read sandbox), acceptance cases c378–c388.
package files
