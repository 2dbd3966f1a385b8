package programs

import _ "embed" // the catalog files are embedded as strings

// The catalog files, embedded as strings (no copy at start-up). A new
// file under catalog/ is added here; TestEveryFileEmbedded checks.
var (
	//go:embed catalog/cloud.txt
	catCloud string
	//go:embed catalog/agents.txt
	catAgents string
	//go:embed catalog/coreutils.txt
	catCoreutils string
	//go:embed catalog/db.txt
	catDB string
	//go:embed catalog/disk.txt
	catDisk string
	//go:embed catalog/git.txt
	catGit string
	//go:embed catalog/net.txt
	catNet string
	//go:embed catalog/persist.txt
	catPersist string
	//go:embed catalog/runners.txt
	catRunners string
	//go:embed catalog/shells.txt
	catShells string
	//go:embed catalog/system.txt
	catSystem string
	//go:embed catalog/wrappers.txt
	catWrappers string
)

// embedded lists the embedded catalog files.
func embedded() []source {
	return []source{
		{"cloud.txt", catCloud},
		{"agents.txt", catAgents},
		{"coreutils.txt", catCoreutils},
		{"db.txt", catDB},
		{"disk.txt", catDisk},
		{"git.txt", catGit},
		{"net.txt", catNet},
		{"persist.txt", catPersist},
		{"runners.txt", catRunners},
		{"shells.txt", catShells},
		{"system.txt", catSystem},
		{"wrappers.txt", catWrappers},
	}
}
