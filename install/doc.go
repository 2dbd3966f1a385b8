// Package install writes toolwall's hook into each agent host's
// configuration and takes it out again, and finds what is installed for
// `toolwall doctor`.
//
// An install is idempotent (a second run changes nothing), never removes
// or loosens what the user has (it only adds hook entries, or updates the
// command of an entry it wrote before to the binary installing now; it
// never replaces a file it did not write), keeps a backup of every file
// it changes (FILE.toolwall.bak, the bytes before the first change), and
// reports every change. JSON settings are edited in place with
// github.com/tidwall/sjson, so the user's keys keep their order and
// formatting.
//
// Uninstall takes out exactly what install put in: a file install
// created is removed if it is still as install left it; a file install
// changed gets its backup back when nobody changed it since (the bytes
// are then as they were before the install, to the byte), else toolwall's
// entries are removed from it and the backup is kept.
//
// Where each host reads its hooks, and the shape of its entries, is in
// each adapter's doc.go (host/…).
package install
