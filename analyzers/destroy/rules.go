package destroy

import (
	"github.com/toolwall/toolwall"
	"github.com/toolwall/toolwall/analysis"
)

// rules are the rule ids the destroy analyzer reports.
var rules = []analysis.Rule{
	{ID: "rm.dangerous-target", Action: toolwall.Deny, Protects: "/, the home directory and system directories from a recursive delete (any flags, wrappers, quoting)", Example: "rm -rf ~"},
	{ID: "rm.no-preserve-root", Action: toolwall.Deny, Protects: "the root file system: rm --no-preserve-root only exists to delete it", Example: "rm -rf --no-preserve-root /tmp/x"},
	{ID: "rm.catastrophic", Action: toolwall.Deny, Protects: "/ and the home directory in the root context, where only the catastrophic set applies", Example: ""},
	{ID: "rm.project-folder", Action: toolwall.Deny, Protects: "the project folder and its .git from being wiped", Example: "rm -rf ."},
	{ID: "rm.project-subtree", Action: toolwall.Ask, Protects: "project files git cannot restore (untracked or changed) from a recursive delete", Example: "rm -rf docs"},
	{ID: "rm.home-subtree", Action: toolwall.Ask, Protects: "directories under the home directory that are not caches", Example: "rm -rf ~/Documents"},
	{ID: "rm.outside-project", Action: toolwall.Ask, Protects: "directories outside the project, home and temporary directories", Example: "rm -rf /srv/data"},
	{ID: "rm.git-internals", Action: toolwall.Ask, Protects: "the repository's own files under .git", Example: "rm .git/HEAD"},
	{ID: "rm.dynamic-target", Action: toolwall.Ask, Protects: "against a recursive delete of a path only known at run time", Example: `rm -rf "$TARGET"`},
	{ID: "rm.dynamic-command", Action: toolwall.Ask, Protects: "against a delete whose program is only known at run time", Example: "$RM -rf /"},
	{ID: "find.delete-broad-root", Action: toolwall.Deny, Protects: "/, home and system directories from find -delete or find -exec rm", Example: "find / -delete"},
	{ID: "perms.recursive-on-root", Action: toolwall.Deny, Protects: "/, home and system directories from a recursive chmod or chown", Example: "chmod -R 777 /"},
	{ID: "mv.to-devnull", Action: toolwall.Deny, Protects: "files and directories moved onto /dev/null (gone for good)", Example: "mv ~ /dev/null"},
	{ID: "mv.dangerous-source", Action: toolwall.Deny, Protects: "system directories and the home directory from being moved away", Example: "mv /bin /tmp/"},
	{ID: "fork-bomb", Action: toolwall.Deny, Protects: "the machine from a process bomb", Example: ":(){ :|:& };:"},
	{ID: "disk.overwrite", Action: toolwall.Deny, Protects: "block devices from being overwritten (dd, redirection, shred)", Example: "dd if=/dev/zero of=/dev/sda"},
	{ID: "disk.format", Action: toolwall.Deny, Protects: "block devices from being formatted", Example: "mkfs.ext4 /dev/sda1"},
	{ID: "disk.partition", Action: toolwall.Deny, Protects: "partition tables", Example: "sgdisk --zap-all /dev/sda"},
	{ID: "disk.fill", Action: toolwall.Ask, Protects: "the disk from being filled (a full disk stops toolwall's session memory, the agent's files and every build): space allocated or bytes copied from an endless source above 10 GiB, or with no bound", Example: "fallocate -l 100G ~/.local/state/fill"},
	{ID: "disk.dynamic-device", Action: toolwall.Ask, Protects: "against a disk write whose device is only known at run time", Example: "dd if=img of=$DEV"},
	{ID: "rm.system-file", Action: toolwall.Ask, Protects: "system configuration files (/etc, /usr/local/etc, /var/spool, /var/mail) deleted or emptied one by one", Example: "rm -f /etc/hosts"},
	{ID: "fork-bomb.unbounded", Action: toolwall.Ask, Protects: "the machine from a command that starts as many processes as it can (xargs -P 0, parallel -j 0)", Example: "yes | xargs -P0 -n1 true"},
	{ID: "perms.world-writable", Action: toolwall.Ask, Protects: "files and directories outside the project from write permission for every user (o+w, a+w, 777, 666)", Example: "chmod a+w /srv/app"},
	{ID: "perms.setuid", Action: toolwall.Deny, Protects: "against setuid and setgid bits, which run a program with its owner's (often root's) privileges", Example: "chmod u+s /bin/bash"},
	{ID: "perms.capabilities", Action: toolwall.Deny, Protects: "against file capabilities that give a program root's power (cap_setuid, cap_sys_admin, …)", Example: "setcap cap_setuid=ep /tmp/x"},
}
