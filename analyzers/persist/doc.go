// Package persist is the persistence analyzer: it reads each command of a
// Bash call the way the shell and the tool itself read it and stops what
// makes code run later or as root, what changes accounts, what switches
// the machine's record-keeping and protections off, and what dumps
// credentials. The classes come from MITRE ATT&CK's persistence,
// defense-evasion and credential-access tactics as the Atomic Red Team
// tests exercise them from a shell.
//
// Rules, all with stable ids (every refusal teaches):
//
//   - persist.write-protected (deny), persist.write-sensitive (ask) and
//     persist.write-system (ask under /etc and the system's programs and
//     libraries, warn under /usr/local, /opt, /var and the other system
//     roots): every file a command writes, from the effects the shell
//     reader gives it through the program catalog — redirections (> >>
//     &> >| <>), tee and sponge, cp/mv/ln/install/rsync/scp/ditto
//     destinations (-t, a directory destination judged with each
//     source's name), dd of=, sed -i, perl -i and ruby -i targets,
//     truncate, touch (ask at most: it creates an empty file), downloads
//     (curl -o, curl -O into --output-dir, wget -O/-P, aria2c -d), archives
//     extracted into a directory — is judged with [files.Judge] plus this
//     package's own list of places Judge does not know yet (rc.common,
//     /etc/rc.d, emond, StartupItems, update-motd.d, udev rules, periodic,
//     the at spool, loginwindow plists, Python startup hooks, …). Under
//     ~/.ssh, appending to known_hosts passes (ssh-keyscan >>
//     known_hosts) and the client configuration (config, config.d) asks:
//     a ProxyCommand there runs a command on every connection (spec
//     cases c425, c430). A target only known at run time asks when its
//     certain prefix is such a place, or when its static file name is a
//     startup file (principle 2). A mount point is not written. A
//     command on another host or in a container (the reader marks it
//     Remote) writes this machine's files only through a container's
//     mounts; its other rules (accounts, schedules, …) still apply.
//   - persist.account (ask): useradd, usermod, userdel, gpasswd, group
//     changes naming members or gid 0, chpasswd, passwd (but -S), chage (but -l), chsh of
//     another user, pw, dscl -create/-delete/-append/-passwd,
//     sysadminctl -addUser/-deleteUser/-resetPasswordFor/-guestAccount
//     on, dseditgroup -o edit, dsenableroot, ldapadd, ldapmodify,
//     samba-tool user/group changes, visudo/vipw/vigr with EDITOR set.
//     Warn: groupadd/groupmod/groupdel without members, chfn of another
//     user, smbpasswd and pdbedit changes, visudo/
//     vipw/vigr without an editor override (they need a terminal).
//   - persist.schedule (ask): crontab FILE / - / piped / EDITOR=… -e,
//     at, batch, systemd-run with a timer or trigger (--on-calendar, …;
//     the shell reader keeps no wrapper options, so the source is parsed
//     again for them), systemctl enable/reenable/link/add-wants/
//     add-requires (also --user), launchctl load/bootstrap/submit/enable,
//     defaults write
//     com.apple.loginwindow, osascript making a login item, update-rc.d
//     defaults/enable, chkconfig on/--add, rc-update add, sysrc
//     NAME_enable=YES, service NAME enable, loginctl enable-linger.
//     Warn: a plain systemd-run, systemctl edit, crontab -e.
//   - persist.kernel (ask): insmod, kextload, kmutil load (modprobe of an
//     installed module warns; -r, -n and queries pass), sysctl of security knobs
//     (kernel.randomize_va_space, kernel.yama.ptrace_scope,
//     kernel.core_pattern, vm.drop_caches, …) by sysctl or /proc/sys, sysctl -p of a file
//     outside /etc, grub-install, efibootmgr changes, mokutil. rmmod and
//     kextunload pass (loading again undoes them); update-grub passes.
//   - defense.* (ask unless noted): audit-off (auditctl -D, -e 0, -d);
//     security-stop (systemctl/service/init script/launchctl/update-rc.d/
//     chkconfig/insserv/rc-update/sysrc/pkill/killall, and kill of what
//     pgrep or pidof look up, stopping auditd, apparmor, osquery, EDR
//     agents, syslog, journald, or the scheduler (cron, atd) — the
//     firewall and sshd are the ops analyzer's); protection-off (spctl
//     --master-disable, csrutil disable, the macOS application firewall,
//     mdatp … disabled, security add-trusted-cert, certctl trust, and a
//     certificate written into a trust-store anchor directory such as
//     /usr/local/share/ca-certificates; warn for xattr -d
//     com.apple.quarantine);
//     backup-delete (tmutil disable/delete);
//     immutable (chattr ±i/±a, chflags schg on system and startup
//     files; the flag set, chattr +i/+a or chflags schg/uchg, on any
//     file outside the project); timestomp (warn: touch -r/-t/-d on them); log-tamper
//     (truncating, deleting, shredding or editing /var/log, /var/audit,
//     wtmp, the mail spools; journalctl --vacuum-*; find /var/log -delete; log erase; ufw
//     logging off); shell-hook (trap … DEBUG; PROMPT_COMMAND and PS0–PS4
//     whose command reads history or $BASH_COMMAND, appends to a file or
//     sends over the network).
//   - creddump.* (ask unless noted): tool (LaZagne, mimipenguin,
//     mimikatz, pypykatz, secretsdump, unshadow; hashcat/john on shadow);
//     process-memory (/proc/PID/mem, /dev/mem, /proc/kcore, gcore,
//     procdump, gdb/lldb attach with a dump command; a plain attach
//     warns); keychain (security dump-keychain, find-*-password -w/-g,
//     export, import); browser-store (Chrome-family "Login Data",
//     "Cookies", "Web Data", "Local State"; Firefox logins.json, key4.db,
//     key3.db, cookies.sqlite; Safari Cookies.binarycookies, by any
//     program); secret-search (grep -r, rg, ag for password/secret/token
//     over /, a home, /home, /etc…); history (grepping shell history for
//     passwords, copying it, history -w elsewhere); key-search (warn:
//     find / -name id_rsa, locate; ask when find -exec copies or prints
//     each key); fake-prompt (osascript password dialogs); sniff (ask:
//     live capture with tcpdump, tshark, tcpflow, ngrep, dumpcap,
//     termshark, and ettercap, bettercap, arpspoof, responder; warn:
//     tcpdump or tshark printing the headers of at most 100 packets
//     (-c) to the terminal, nothing saved, no payload or fields).
//
// Every program is read through its catalog entry (package programs):
// the analyzer asks its invocation for canonical option names and
// operand roles and judges the effects; it parses no argv of its own.
// AppleScript run by osascript -e is read for `do shell script "…"`,
// whose string is judged as shell text, and for the Finder deleting a
// log (the shell reader does not read AppleScript yet).
//
// Effects: [toolwall.TagSystemWrite] for writes under system roots,
// [toolwall.TagStage] (Detail "persistence") for files copied, linked or
// downloaded into persistence and startup places,
// [toolwall.TagCredential] for credential dumps, and
// [toolwall.TagProcessControl] for stopping security services.
//
// In [toolwall.RootContext] the analyzer reports nothing (the
// root helper gets only the catastrophic set).
package persist
