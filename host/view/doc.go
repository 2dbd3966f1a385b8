// Package view says how each agent host reads a hook's answer — whether
// it allows, asks or denies, and with what reason — written from the
// host's documentation and source (the agent-host protocol notes, the
// section named in each view's comment), apart from the adapters that
// write the answers. The conformance suite (hosttest) checks adapters
// against it and `toolwall doctor` reads canary answers with it.
package view
