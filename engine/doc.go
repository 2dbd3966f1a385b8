// Package engine builds the gate every driver uses (one engine builds
// the gate for every driver): the CLI's check and eval,
// every agent-host hook, the HTTP server, the MCP proxy, the executors and
// the tests that measure what ships all call [New] and nothing else.
//
// An [Engine] is the gate with every built-in analyzer, the self analyzer
// guarding toolwall's own files (configuration, state database, binary)
// and each agent host's settings, the thresholds, disabled rules and chain
// window of the configuration, and session memory when asked for. It
// implements [toolwall.Shield] and advances turns.
//
// Where toolwall's own files are depends on the [Places]: [Installed]
// protects the real files of this process (the configuration file in use,
// the state database, the running executable and a "toolwall" on any
// PATH directory) as well as the default install layout under each call's
// home; [Layout] protects only the default layout under each call's home
// (~/go/bin/toolwall, ~/.config/toolwall/config.toml,
// ~/.local/state/toolwall/state.db), which is what `toolwall eval`, the
// corpus tests and the benchmarks judge against, whatever machine runs
// them.
package engine
