// Package destroy is the destruction analyzer: it reads the commands a Bash
// call would execute (the [shell.Script] the shell reader produced) and
// reports deletes, permission changes, moves and disk writes that cannot be
// undone.
//
// It judges effects, not argv: every program is read through its entry in
// the program catalog (package programs; the disk tools are in
// catalog/disk.txt) and each command's [shell.Effect] list says what it
// deletes (recursively or not), moves, re-permissions and writes, with
// paths resolved against the command's directory and container paths
// mapped back to the host paths mounted there. Judgments that belong to
// one program (find's expression, rsync --delete, zpool destroy, parted's
// commands) read that program's options through [shell.Invocation].
//
// It realises the rm rules of the shell guardrail (ShellSafetyService: rule ids
// rm.dangerous-target, rm.no-preserve-root, rm.catastrophic,
// rm.project-folder, the fork bomb, the narrower root context) and adds
// recoverability: a recursive delete inside the project is allowed when git
// can restore what it removes or when it removes build output, and held for
// a human otherwise (block the irreversible, not the unusual).
//
// Rules, by id (deny unless noted):
//
//	rm.dangerous-target     recursive rm of /, home, another user's home, a system root or critical directory (Windows' too:
//	                        /Windows, /Program Files, /ProgramData in any case), or a glob reaching one;
//	                        also rm of a pure glob over them without -r (rm -f /etc/*), and rsync --delete into them
//	rm.no-preserve-root     any rm (or rimraf) with --no-preserve-root (also in root context)
//	rm.catastrophic         root context only: recursive rm (or unfiltered find delete) of /, a bare glob, home or an ancestor
//	rm.project-folder       wiping the project folder, an ancestor of it, or its .git (also in root context)
//	rm.project-subtree      ask: recursive delete of a project subtree git cannot restore
//	rm.home-subtree         ask: recursive delete in home outside the project and caches
//	rm.outside-project      ask: recursive delete of another absolute path (/srv/data, /etc/x, /tmp itself)
//	rm.git-internals        ask: deleting files of git's own store one by one (.git/HEAD, objects, refs, the index)
//	rm.system-file          ask: deleting or emptying (truncate, ": >") a file of /etc or the mail and job spools one by one;
//	                        backup copies (*.bak, *.old, *~) pass
//	rm.dynamic-target       ask: recursive delete of a target known only at run time
//	rm.dynamic-command      ask: a command word known only at run time that names a deleting program or disk tool, or targets /, home, a system root
//	find.delete-broad-root  find -delete / -exec of a deleting command (or fd -x/-X rm) from /, home or a system root
//	perms.recursive-on-root chmod/chown/chgrp -R on /, home or a system root (also via find -exec, find | xargs, fd -x),
//	                        and setfacl/chattr/chcon/chflags -R there; not /usr/local
//	perms.world-writable    ask: chmod giving others write permission (o+w, a+w, 777, 666) outside the project
//	perms.setuid            a set-user-ID or set-group-ID bit (chmod u+s, 4755, g+s, install -m 4755); g+s on directories
//	                        only (find … -type d) passes
//	perms.capabilities      setcap of a capability that amounts to root (cap_setuid, cap_sys_admin, cap_dac_override, …, =ep)
//	fork-bomb               a called function that runs two copies of itself at once (also through $FUNCNAME)
//	fork-bomb.unbounded     ask: xargs -P 0 on the endless output of yes
//	mv.to-devnull           mv of /, home, a system root or the project onto /dev/null
//	mv.dangerous-source     mv (or trash) of / or a system directory anywhere (mv /usr /tmp/usr)
//	disk.overwrite          a write onto a block device: dd and its kin (of=), redirects, cp, tee, shred, srm, wipe,
//	                        blkdiscard, ddrescue, badblocks -w, bmaptool copy, hdparm --security-erase; flashrom -p internal -w
//	disk.format             mkfs*, mke2fs, mkswap, newfs*, wipefs -a, cryptsetup luksFormat|erase, nvme format|sanitize,
//	                        sg_format --format, zpool create|add|labelclear, zpool destroy, zfs destroy, lvremove, vgremove,
//	                        pvcreate/vgcreate/vgextend, mdadm --create|--add|--zero-superblock, diskutil erase*
//	disk.partition          fdisk, sfdisk, sgdisk, gdisk, cfdisk, parted (not their listing modes), diskutil partitionDisk
//	disk.dynamic-device     ask: a disk tool or a write whose device is known only at run time
//
// rimraf, del-cli and shx rm, run directly or through npx, pnpm dlx, yarn
// dlx, bunx or npm exec, delete as rm -r does. Tools that delete their
// inputs (tar --remove-files, zip -m, 7z a -sdel, rsync
// --remove-source-files) are judged as the recursive deletes they amount
// to. Block devices are the /dev names of disks and partitions (sd*,
// nvme*, mmcblk*, zd*, ada*, …), /dev/mapper, /dev/disk/by-*, /dev/block,
// /dev/zvol and LVM's /dev/<vg>/<lv>.
//
// Caches are a class, not a list: ~/.cache, ~/Library/Caches, a
// directory named as a cache inside a tool's hidden directory
// (~/.gradle/caches, ~/.cargo/registry/cache), the package managers'
// download stores (~/.npm/_npx, ~/go/pkg/mod, ~/.m2/repository) and the
// system's (/var/cache, apt's lists); deleting them is allowed. Lock
// files in .git (index.lock) are git's, not history.
//
// Paths are judged by what they name at that point of the script: a
// directory renamed by mv or reached through a symbolic link made by ln -s
// earlier in the same call is judged where it came from ("mv ~ /tmp/x &&
// rm -rf /tmp/x" deletes home; "ln -s / r && rm -rf r/*" the root). Links
// that exist before the call are not known. A path in another host or in a
// container (ssh host 'rm -rf x', docker exec) is judged without this
// machine's home and project; one under a container mount is the host path.
//
// A target that does not exist is not destroyed: when the
// gate knows what exists on this machine ([analysis.Input.Exists]: the CLI
// check and the hook), a recursive delete of a project subtree, a home
// subtree or another path that is not there, and that nothing earlier in
// the call moved anything into, passes. The deny classes (/, home, system
// roots, the project, .git) are refused whether or not they exist. Without
// the oracle (toolwall eval) existence is unknown and judged as before.
//
// In root context (toolwall.RootContext) only rm.catastrophic,
// rm.no-preserve-root and rm.project-folder apply: the root helper exists for
// system work ("root はあえて別扱い").
//
// Effects: every delete is tagged [toolwall.TagDelete] with its absolute
// path (Detail "protected" under home outside the project and its caches,
// under a system root, or on an auth file); writes under system roots
// [toolwall.TagSystemWrite]; chmod granting execute
// [toolwall.TagMakeExecutable]; cp/mv/install destinations
// [toolwall.TagStage].
//
// The analyzer is pure except for two documented reads of this machine:
// the existence oracle of its input, and the git recoverability check
// (see [Options]), which runs git in the project only for a recursive
// delete of a project subtree that is not build output.
package destroy
