// Package destroy is the destruction analyzer: it reads the commands a Bash
// call would execute (the [shell.Script] the shell reader produced) and
// reports deletes, permission changes, moves and disk writes that cannot be
// undone.
//
// It realises the rm rules of seed 004 (ShellSafetyService: rule ids
// rm.dangerous-target, rm.no-preserve-root, rm.catastrophic,
// rm.project-folder, the fork bomb, the narrower root context) and adds
// recoverability: a recursive delete inside the project is allowed when git
// can restore what it removes or when it removes build output, and held for
// a human otherwise (DESIGN.md, "block the irreversible, not the unusual").
//
// Rules, by id (deny unless noted):
//
//	rm.dangerous-target     recursive rm of /, home, another user's home, a system root or critical directory, or a glob reaching one;
//	                        also rm of a pure glob over them without -r (rm -f /etc/*), and rsync --delete into them
//	rm.no-preserve-root     any rm with --no-preserve-root (also in root context)
//	rm.catastrophic         root context only: recursive rm (or unfiltered find delete) of /, a bare glob, home or an ancestor
//	rm.project-folder       wiping the project folder, an ancestor of it, or its .git (also in root context)
//	rm.project-subtree      ask: recursive delete of a project subtree git cannot restore
//	rm.home-subtree         ask: recursive delete in home outside the project and caches
//	rm.outside-project      ask: recursive delete of another absolute path (/srv/data, /etc/x, /tmp itself)
//	rm.dynamic-target       ask: recursive delete of a target known only at run time
//	rm.dynamic-command      ask: a command word known only at run time that names rm/dd/mkfs… or targets /, home, a system root
//	find.delete-broad-root  find -delete / -exec rm|shred|unlink|truncate (or fd -x/-X rm) from /, home or a system root
//	perms.recursive-on-root chmod/chown/chgrp -R on /, home or a system root (also via find -exec, find | xargs, fd -x),
//	                        and setfacl/chattr/chcon/chflags -R there; not /usr/local
//	fork-bomb               a called function that runs two copies of itself at once (also through $FUNCNAME)
//	mv.to-devnull           mv of /, home, a system root or the project onto /dev/null
//	mv.dangerous-source     mv of / or a system directory anywhere (mv /usr /tmp/usr)
//	disk.overwrite          dd (dcfldd, dc3dd, ddpt, sg_dd) of=, redirects, cp, tee, shred, blkdiscard, ddrescue,
//	                        badblocks -w, bmaptool copy onto a block device; flashrom -p internal -w
//	disk.format             mkfs*, mke2fs, mkswap, wipefs -a, diskutil erase*, cryptsetup luksFormat, zpool create|destroy,
//	                        pvcreate/vgcreate, mdadm --create|--zero-superblock, sg_format --format on a device
//	disk.partition          fdisk, sfdisk, sgdisk, gdisk, cfdisk, parted, diskutil partitionDisk (listing is allowed)
//	disk.dynamic-device     ask: a disk tool or redirect whose device is known only at run time
//
// rimraf, del-cli and shx rm, run directly or through npx, pnpm dlx, yarn
// dlx, bunx or npm exec, are judged as the rm they are. Block devices are
// the /dev names of disks and partitions (sd*, nvme*, mmcblk*, zd*, ada*,
// …), /dev/mapper, /dev/disk/by-*, /dev/block, /dev/zvol and LVM's
// /dev/<vg>/<lv>.
//
// Paths are judged by what they name at that point of the script: a
// directory renamed by mv or reached through a symbolic link made by ln -s
// earlier in the same call is judged where it came from ("mv ~ /tmp/x &&
// rm -rf /tmp/x" deletes home; "ln -s / r && rm -rf r/*" the root). Links
// that exist before the call are not known.
//
// In root context (toolwall.RootContext) only rm.catastrophic,
// rm.no-preserve-root and rm.project-folder apply: the root helper exists for
// system work (seed 004, "root はあえて別扱い").
//
// Effects: every delete is tagged [toolwall.TagDelete] with its absolute
// path (Detail "protected" under home outside the project and its caches,
// under a system root, or on an auth file); writes under system roots
// [toolwall.TagSystemWrite]; chmod granting execute
// [toolwall.TagMakeExecutable]; cp/mv/install destinations
// [toolwall.TagStage].
//
// The analyzer is pure except for one documented I/O: the git
// recoverability check (see [Options]), which runs git in the project only
// for a recursive delete of a project subtree that is not build output.
package destroy
